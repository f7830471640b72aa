"""Build of the one compiled module, the HTML5 walk (filters/_html5_walk.pyx); everything else is in pyproject.toml.

The extension is optional: where it cannot be compiled (no C compiler), the install goes on and filters.html5 uses
its Python walk, which gives the same output, slower. .ci/run installs and tests once without a compiler.
"""

import hashlib
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup

SOURCE = "filters/_html5_walk.pyx"
# the module carries the hash of the source it was built from: filters.html5 uses it only with that source
digest = hashlib.sha256((Path(__file__).parent / SOURCE).read_bytes()).hexdigest()

extensions = cythonize(
    [Extension("filters._html5_walk", [SOURCE], define_macros=[("WIMS_SOURCE_SHA256", f'"{digest}"')])],
    language_level=3,
    quiet=True,
)
for extension in extensions:
    # set on cythonize's output: it copies only the options it knows (sources, macros, flags...), not `optional`,
    # and without it a machine with no C compiler fails the whole install
    extension.optional = True

setup(ext_modules=extensions)
