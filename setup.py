"""Build of the compiled modules, the HTML5 walk (filters/_html5_walk.pyx), the tokens (filters/_compiled_tokens.pyx)
and the pipeline's other loops (filters/_compiled_loops.pyx); everything else is in pyproject.toml.

The extensions are optional: where they cannot be compiled (no C compiler), the install goes on and the filters use
their Python code, which gives the same output, slower. .ci/run installs and tests once without a compiler.
"""

import importlib.util
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup

MODULES = ("filters._html5_walk", "filters._compiled_loops", "filters._compiled_tokens")

# by its path: importing the filters package needs lxml and more, which an isolated build has not
_source = Path(__file__).parent / "filters" / "compiled_sources.py"
_spec = importlib.util.spec_from_file_location("compiled_sources", _source)
assert _spec is not None and _spec.loader is not None
compiled_sources = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(compiled_sources)


def compiled(module: str) -> Extension:
    """The module built from its .pyx, carrying the hash of that source (the .pyx and the files it includes):
    filters.html5 uses it only with that source."""
    source = module.replace(".", "/") + ".pyx"
    digest = compiled_sources.source_digest(Path(__file__).parent / source)
    return Extension(module, [source], define_macros=[("WIMS_SOURCE_SHA256", f'"{digest}"')])


extensions = cythonize(
    [compiled(module) for module in MODULES],
    language_level=3,
    quiet=True,
)
for extension in extensions:
    # set on cythonize's output: it copies only the options it knows (sources, macros, flags...), not `optional`,
    # and without it a machine with no C compiler fails the whole install
    extension.optional = True

setup(ext_modules=extensions)
