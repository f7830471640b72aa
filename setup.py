"""Build of the one compiled module, the HTML5 walk (filters/_html5_walk.pyx); everything else is in pyproject.toml.

The extension is optional: where it cannot be compiled (no C compiler), the install goes on and filters.html5 uses
its Python walk, which gives the same output, slower.
"""

import hashlib
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup

SOURCE = "filters/_html5_walk.pyx"
# the module carries the hash of the source it was built from: filters.html5 uses it only with that source
digest = hashlib.sha256((Path(__file__).parent / SOURCE).read_bytes()).hexdigest()

setup(
    ext_modules=cythonize(
        [
            Extension(
                "filters._html5_walk", [SOURCE], define_macros=[("WIMS_SOURCE_SHA256", f'"{digest}"')], optional=True
            )
        ],
        language_level=3,
        quiet=True,
    )
)
