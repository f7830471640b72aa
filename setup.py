"""Build of the one compiled module, the HTML5 walk (filters/_html5_walk.pyx); everything else is in pyproject.toml.

The extension is optional: where it cannot be compiled (no C compiler), the install goes on and filters.html5 uses
its Python walk, which gives the same output, slower.
"""

from Cython.Build import cythonize
from setuptools import Extension, setup

setup(
    ext_modules=cythonize(
        [Extension("filters._html5_walk", ["filters/_html5_walk.pyx"], optional=True)],
        language_level=3,
        quiet=True,
    )
)
