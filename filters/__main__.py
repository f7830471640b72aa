"""``python -m filters`` entry point (see filters.cli)."""

import sys

from .cli import main

sys.exit(main())
