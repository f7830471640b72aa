"""The test suite's settings: WIMS's own, on a development machine that says so.

wims/settings.py refuses an unsafe secret key or host list when neither WIMS_ENV nor DEBUG says where it runs.
The tests are a development environment (a key generated under var/, local host names), declared here because
pytest-django loads the settings (pyproject.toml's DJANGO_SETTINGS_MODULE) before any conftest runs. The Celery
workers and commands the tests start inherit this process's environment, so they are declared too. mypy's Django
plugin loads these settings as well ([tool.django-stubs]).
"""

import os

os.environ.setdefault("WIMS_ENV", "development")


def redis_db_of_this_worker(url: str, worker: str) -> str:
    """A Redis URL's database number plus a pytest-xdist worker's index (gw0 -> the URL's, gw1 -> the next):
    each worker's Celery queues, results and the worker processes its tests start apart from the other's."""
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(url)
    if parts.scheme not in ("redis", "rediss"):
        return url
    base = int(parts.path.strip("/") or 0)
    return urlunsplit(parts._replace(path=f"/{base + int(worker.removeprefix('gw'))}"))


# Under pytest-xdist (`make test` runs two workers) each worker is a process of its own, started by the controller
# with its environment. Its test database (pytest-django adds the _gw0 suffix) and broker folder (conftest.py, by
# pid) are its own already; the Redis database number and the metrics folder come from the controller, so they are
# made the worker's own here, before the settings read them. The Celery worker processes that tests start inherit
# the environment, already made so (WIMS_TEST_XDIST_WORKER: these settings load in them too, and must not move the
# Redis number a second time). CI's redis://…/0 gives databases 0 (gw0) and 1 (gw1).
_worker = os.environ.get("PYTEST_XDIST_WORKER")
if _worker and os.environ.get("WIMS_TEST_XDIST_WORKER") != _worker:
    for _name in ("CELERY_BROKER_URL", "CELERY_RESULT_BACKEND", "CACHE_URL"):
        if os.environ.get(_name):
            os.environ[_name] = redis_db_of_this_worker(os.environ[_name], _worker)
    os.environ.pop("PROMETHEUS_MULTIPROC_DIR", None)  # the controller's: this worker's own below
    os.environ["WIMS_TEST_XDIST_WORKER"] = _worker

# A test run's own metrics folder (foundation/metrics.py), not that of a `make run` on the same checkout; the
# workers the tests start inherit it, conftest.py removes it at the end. Only under pytest (PYTEST_VERSION, set by
# pytest 8.2+): mypy's plugin would leave a folder behind at every run.
if "PYTEST_VERSION" in os.environ:
    os.environ.setdefault(
        "PROMETHEUS_MULTIPROC_DIR",
        os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "var", f"test-metrics-{os.getpid()}"),
    )

from wims.settings import *  # noqa: E402, F403
