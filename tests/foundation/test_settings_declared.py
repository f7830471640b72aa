"""Every environment variable WIMS reads, and every setting it reads with a default of its own, is declared in
wims/settings.py (one place to learn them all)."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
INSTALLED = ["foundation", "wims", "monitor", "filters", "classifier", "processing", "feeds"]
# os.environ["X"], os.environ.get("X"), env_int("X", ...), and settings read with a hidden default
READ = re.compile(r"""(?:environ(?:\.get)?[\[(]|env_\w+\(|getattr\(settings,)\s*["']([A-Z][A-Z0-9_]+)["']""")


def variables_read() -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for package in INSTALLED:
        for path in (ROOT / package).rglob("*.py"):
            for name in READ.findall(path.read_text()):
                found.setdefault(name, set()).add(str(path.relative_to(ROOT)))
    return found


def test_every_variable_read_is_declared_in_settings():
    read = variables_read()
    assert "WIMS_POLITENESS_DELAY" in read and "DATABASE_URL" in read, "the scan finds what it should"
    settings = (ROOT / "wims" / "settings.py").read_text()
    undeclared = {name: sorted(paths) for name, paths in read.items() if name not in settings}
    assert not undeclared, f"read but not declared in wims/settings.py: {undeclared}"
