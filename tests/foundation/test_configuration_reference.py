"""docs/configuration.md names every environment variable WIMS reads, and only those; the README stays short.

The variables are found by parsing the source (ast) of the installed packages and of the checkout's packages
that users run (demo, research): ``os.environ.get("X")``, ``os.environ["X"]``, ``"X" in os.environ``,
``os.environ.setdefault("X", …)``, ``os.getenv("X")`` and the project's readers (every public function of
foundation/env.py, or wims/env.py while it is there: ``env_int("X", …)``…). A name the scan cannot resolve (a
variable, not a literal) fails the test, except inside the readers themselves: a new reader is found by its
module, and a new way of naming a variable must be taught here, not skipped.

The page's variables are the backticked names in the first cell of its tables' rows. It may name a variable
the code does not read only when a library reads it (``LIBRARY_VARIABLES``).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from tests.foundation.test_code_size import INSTALLED

ROOT = Path(__file__).resolve().parents[2]
REFERENCE = ROOT / "docs" / "configuration.md"
README = ROOT / "README.md"
README_MAX_LINES = 150
#: the installed packages (pyproject.toml), and demo and research, which users run from the checkout
PACKAGES = (*INSTALLED, "demo", "research")
#: the modules of the project's typed readers (foundation/env.py; wims/env.py before the move)
READER_MODULES = ("foundation/env.py", "wims/env.py")
#: read by a library WIMS uses, not by WIMS's code: requests (under Apprise) reads the proxy variables
LIBRARY_VARIABLES = frozenset({"HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY"})
#: pages whose relative links must resolve
PAGES = (
    README,
    ROOT / "docs" / "configuration.md",
    ROOT / "docs" / "user-guide.md",
    ROOT / "docs" / "operations.md",
    ROOT / "docs" / "development.md",
)

VARIABLE = re.compile(r"[A-Z][A-Z0-9_]*[A-Z0-9]")


def _is_environ(node: ast.AST) -> bool:
    """``os.environ`` or a bare ``environ`` (``from os import environ``)."""
    if isinstance(node, ast.Attribute):
        return node.attr == "environ" and isinstance(node.value, ast.Name) and node.value.id == "os"
    return isinstance(node, ast.Name) and node.id == "environ"


def _is_getenv(node: ast.AST) -> bool:
    if isinstance(node, ast.Attribute):
        return node.attr == "getenv" and isinstance(node.value, ast.Name) and node.value.id == "os"
    return isinstance(node, ast.Name) and node.id == "getenv"


def reader_names() -> set[str]:
    """The project's readers: the public functions of its env module(s)."""
    names = set()
    for module in READER_MODULES:
        path = ROOT / module
        if path.exists():
            tree = ast.parse(path.read_text(), filename=module)
            names |= {
                node.name for node in tree.body if isinstance(node, ast.FunctionDef) and not node.name.startswith("_")
            }
    return names


class _Scan(ast.NodeVisitor):
    """The variables one module reads: literal names, and names bound by ``for name in ("A", "B")``."""

    def __init__(self, readers: set[str], where: str):
        self.readers, self.where = readers, where
        self.found: dict[str, set[str]] = {}
        self.unresolved: list[str] = []
        self.loop_names: dict[str, set[str]] = {}

    def _name(self, node: ast.AST | None, line: int) -> None:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            self.found.setdefault(node.value, set()).add(f"{self.where}:{line}")
        elif isinstance(node, ast.Name) and node.id in self.loop_names:
            for value in self.loop_names[node.id]:
                self.found.setdefault(value, set()).add(f"{self.where}:{line}")
        else:
            self.unresolved.append(f"{self.where}:{line}: {ast.unparse(node) if node else '(no argument)'}")

    def visit_For(self, node: ast.For) -> None:
        if isinstance(node.target, ast.Name) and isinstance(node.iter, (ast.Tuple, ast.List, ast.Set)):
            values = [e.value for e in node.iter.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
            if len(values) == len(node.iter.elts):
                self.loop_names.setdefault(node.target.id, set()).update(values)
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        first = node.args[0] if node.args else None
        environ_method = func.attr if isinstance(func, ast.Attribute) and _is_environ(func.value) else None
        reads = (
            environ_method in {"get", "setdefault", "pop"}
            or _is_getenv(func)
            or (isinstance(func, ast.Name) and func.id in self.readers)
            or (isinstance(func, ast.Attribute) and func.attr in self.readers)
        )
        if reads:
            self._name(first, node.lineno)
        self.generic_visit(node)

    def visit_Subscript(self, node: ast.Subscript) -> None:
        if _is_environ(node.value) and not isinstance(node.ctx, ast.Store):
            self._name(node.slice, node.lineno)
        self.generic_visit(node)

    def visit_Compare(self, node: ast.Compare) -> None:
        for op, right in zip(node.ops, node.comparators, strict=True):
            if isinstance(op, (ast.In, ast.NotIn)) and _is_environ(right):
                self._name(node.left, node.lineno)
        self.generic_visit(node)


def scan() -> tuple[dict[str, set[str]], list[str]]:
    """Every variable read (name -> where) and every read whose name is not a literal (outside the readers)."""
    readers = reader_names()
    found: dict[str, set[str]] = {}
    unresolved: list[str] = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            where = str(path.relative_to(ROOT))
            visitor = _Scan(readers, where)
            visitor.visit(ast.parse(path.read_text(), filename=where))
            for name, places in visitor.found.items():
                found.setdefault(name, set()).update(places)
            if where not in READER_MODULES:
                unresolved += visitor.unresolved
    return found, unresolved


def documented() -> set[str]:
    """The backticked names in the first cell of every table row of docs/configuration.md."""
    names = set()
    for line in REFERENCE.read_text().splitlines():
        cells = line.strip().split("|")
        if not line.lstrip().startswith("|") or len(cells) < 3 or set(cells[1].strip()) <= {"-", ":", " "}:
            continue
        names |= {name for name in re.findall(r"`([^`]+)`", cells[1]) if VARIABLE.fullmatch(name)}
    return names


def test_the_scan_finds_the_variables_it_should():
    found, _ = scan()
    assert reader_names() >= {"env_int", "env_bool", "env_list", "env_number"}
    expected = {"DATABASE_URL", "SECRET_KEY", "WIMS_ENV", "WIMS_POLITENESS_DELAY", "WIMS_TASK_TIME_LIMIT", "DEBUG"}
    assert expected <= set(found), expected - set(found)
    # through a loop over literal names (the production checks) and a membership test
    assert any("settings.py" in place for place in found["CELERY_BROKER_URL"])
    assert len(found) > 60


def test_every_read_names_its_variable_literally():
    _, unresolved = scan()
    assert not unresolved, "environment reads whose variable the scan cannot name:\n" + "\n".join(unresolved)


def test_every_variable_the_code_reads_is_in_the_configuration_reference():
    found, _ = scan()
    missing = {name: sorted(places) for name, places in found.items() if name not in documented()}
    assert not missing, f"read by the code but not in {REFERENCE.relative_to(ROOT)}: {missing}"


def test_the_configuration_reference_names_no_variable_nobody_reads():
    found, _ = scan()
    unknown = documented() - set(found) - LIBRARY_VARIABLES
    assert not unknown, f"named in {REFERENCE.relative_to(ROOT)} but read by neither WIMS nor a library: {unknown}"


def test_the_readme_is_read_in_two_minutes():
    lines = README.read_text().splitlines()
    assert len(lines) <= README_MAX_LINES, f"README.md has {len(lines)} lines; at most {README_MAX_LINES}"


def anchors(page: Path) -> set[str]:
    """The anchors GitHub gives a page's headings: lower case, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"```.*?```", "", page.read_text(), flags=re.DOTALL)
    headings = re.findall(r"^#+\s+(.+?)\s*$", text, flags=re.MULTILINE)
    return {re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-") for heading in headings}


def test_links_between_the_pages_resolve():
    """Every relative link of the README and the pages it sends a newcomer to names a file that exists and, with
    a #fragment, a heading of that file."""
    broken = []
    for page in PAGES:
        text = re.sub(r"```.*?```", "", page.read_text(), flags=re.DOTALL)  # no links in code blocks
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"[a-z][a-z0-9+.-]*:", target):
                continue  # http(s): not this test's business
            file, _, fragment = target.partition("#")
            path = (page.parent / file).resolve() if file else page
            if not path.exists():
                broken.append(f"{page.relative_to(ROOT)}: {target}")
            elif fragment and (path.suffix != ".md" or fragment not in anchors(path)):
                broken.append(f"{page.relative_to(ROOT)}: {target} (no such heading)")
    assert not broken, f"links to nothing: {broken}"
