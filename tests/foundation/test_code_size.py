"""The size limits of the installed packages (issue 32, architecture step 2): no module over 800 lines, no function
over 80 lines or of cyclomatic complexity over 25 (ruff's C901, also in `ruff check` through pyproject.toml).
research/, demo/ and tests/ are not installed: research may keep larger files, split by role."""

import ast
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: the installed packages, as pyproject.toml's [tool.setuptools.packages.find] names them ("wims*" -> wims)
INSTALLED = tuple(
    name.rstrip("*")
    for name in tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]["find"][
        "include"
    ]
)
PACKAGES = [ROOT / name for name in INSTALLED]
MODULE_MAX = 800
FUNCTION_MAX = 80
COMPLEXITY_MAX = 25
#: the Python HTML5 walk is one loop: split into functions per element it is 8-11 % slower (its comment says so)
LONG_FUNCTIONS = {("filters/html5.py", "python_segment")}


def _modules() -> list[Path]:
    return sorted(p for package in PACKAGES for p in package.rglob("*.py") if "migrations" not in p.parts)


def _name(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def test_no_module_is_over_800_lines():
    long = {_name(p): n for p in _modules() if (n := len(p.read_text().splitlines())) > MODULE_MAX}
    assert not long


def test_no_function_is_over_80_lines():
    long = []
    for path in _modules():
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
                and (_name(path), node.name) not in LONG_FUNCTIONS
            ):
                lines = node.end_lineno - node.lineno + 1
                if lines > FUNCTION_MAX:
                    long.append(f"{_name(path)}:{node.lineno} {node.name} ({lines} lines)")
    assert not long


def test_no_function_is_over_complexity_25():
    ruff = shutil.which("ruff", path=str(Path(sys.executable).parent)) or shutil.which("ruff")
    if ruff is None:
        pytest.skip("ruff is not installed")
    done = subprocess.run(
        [ruff, "check", "--isolated", "--select", "C901", "--config", f"lint.mccabe.max-complexity={COMPLEXITY_MAX}"]
        + ["--output-format", "concise", "--exclude", "migrations", *map(str, PACKAGES)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout
