"""Processing tests run on pages WebMon really fetched from the demo sites: WebMon's fixtures, shared."""

from tests.monitor.conftest import _forget_robots_rows, demo, fast_env  # noqa: F401 - fixtures, by name
