"""The hash of a compiled module's source: its .pyx and each file the .pyx ``include``s, in order.

setup.py compiles it into the module (it loads this file by its path: importing the package needs what a build does
not have); :func:`filters.html5._load_compiled` uses a module only when its source still has that hash.  An edited
included file must change it too, or a stale build would stay in use.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

__all__ = ["source_digest"]

#: Cython's textual inclusion: ``include "name.pxi"``, at the start of a line (the .pyx's own, not a nested one's)
_INCLUDE = re.compile(rb'^include\s+"([^"]+)"', re.MULTILINE)


def source_digest(pyx: Path) -> str:
    """The SHA-256 of ``pyx`` followed by the files it includes (found next to it); an included file that is not
    there counts as empty, so that the digest differs from the build's rather than failing."""
    source = pyx.read_bytes()
    digest = hashlib.sha256(source)
    for name in _INCLUDE.findall(source):
        included = pyx.with_name(name.decode())
        digest.update(included.read_bytes() if included.exists() else b"")
    return digest.hexdigest()
