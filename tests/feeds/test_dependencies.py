"""The direction between the apps: feeds read the classifier's decisions, the classifier knows nothing of feeds.

Checked on the source (every import statement, wherever it sits in a module), so that a helper moved back
into the classifier, or an inference call from a feed, shows up here rather than as an import cycle later.
"""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# The parts of the classifier that infer or change the knowledge base: a feed only reads classifications.
INFERENCE = ("classifier.kb", "classifier.engine", "classifier.acquisition", "classifier.services")


def imported_modules(package: str) -> dict[str, set[str]]:
    """module path -> the absolute module names it imports (``from x import y`` gives x and x.y)."""
    found = {}
    for path in sorted((ROOT / package).rglob("*.py")):
        names = set()
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module)
                names.update(f"{node.module}.{alias.name}" for alias in node.names)
        found[str(path.relative_to(ROOT))] = names
    return found


def test_the_classifier_does_not_import_feeds():
    offending = {
        path: sorted(n for n in names if n == "feeds" or n.startswith("feeds."))
        for path, names in imported_modules("classifier").items()
    }
    assert {path: names for path, names in offending.items() if names} == {}


def test_feeds_never_run_inference():
    offending = {
        path: sorted(n for n in names if n.startswith(INFERENCE)) for path, names in imported_modules("feeds").items()
    }
    assert {path: names for path, names in offending.items() if names} == {}
    assert any("classifier.models" in names for names in imported_modules("feeds").values())  # the check sees imports
