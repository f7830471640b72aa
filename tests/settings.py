"""The test suite's settings: WIMS's own, on a development machine that says so.

wims/settings.py refuses an unsafe secret key or host list when neither WIMS_ENV nor DEBUG says where it runs.
The tests are a development environment (a key generated under var/, local host names), declared here because
pytest-django loads the settings (pyproject.toml's DJANGO_SETTINGS_MODULE) before any conftest runs. The Celery
workers and commands the tests start inherit this process's environment, so they are declared too. mypy's Django
plugin loads these settings as well ([tool.django-stubs]).
"""

import os

os.environ.setdefault("WIMS_ENV", "development")
# A test run's own metrics folder (foundation/metrics.py), not that of a `make run` on the same checkout; the
# workers the tests start inherit it, conftest.py removes it at the end. Only under pytest (PYTEST_VERSION, set by
# pytest 8.2+): mypy's plugin would leave a folder behind at every run.
if "PYTEST_VERSION" in os.environ:
    os.environ.setdefault(
        "PROMETHEUS_MULTIPROC_DIR",
        os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "var", f"test-metrics-{os.getpid()}"),
    )

from wims.settings import *  # noqa: E402, F403
