"""The production service units (docs/deploy/) run what README and `make run` run: every queue consumed (the
periodic tasks' too), one beat with the database scheduler, restarted always, workers stopped warm within their
tasks' bounds."""

import configparser
import fnmatch
import shlex
from pathlib import Path

from django.conf import settings

DEPLOY = Path(__file__).resolve().parents[2] / "docs" / "deploy"


def units() -> dict[str, configparser.ConfigParser]:
    found = {}
    for path in sorted(DEPLOY.glob("*.service")):
        unit = configparser.ConfigParser(interpolation=None, strict=True)
        unit.optionxform = str  # systemd keys are case-sensitive
        unit.read(path)
        found[path.name] = unit
    return found


def test_every_unit_restarts_always_and_reads_the_environment_file():
    assert len(units()) == 5
    for name, unit in units().items():
        assert unit["Service"]["Restart"] == "always", name
        assert unit["Service"]["EnvironmentFile"] == "/etc/wims/wims.env", name
        assert (DEPLOY / "wims.env.example").read_text().splitlines().count("WIMS_ENV=production") == 1


def test_the_workers_consume_every_queue_and_the_beat_uses_the_database_scheduler():
    consumed, beats = set(), []
    for unit in units().values():
        argv = shlex.split(unit["Service"]["ExecStart"])
        if argv[1:4] == ["-A", "wims", "worker"]:
            consumed |= set(argv[argv.index("-Q") + 1].split(","))
        elif argv[1:4] == ["-A", "wims", "beat"]:
            beats.append(argv[argv.index("--scheduler") + 1])
    assert consumed == set(settings.WIMS_QUEUES)
    assert {route["queue"] for route in settings.CELERY_TASK_ROUTES.values()} <= consumed
    assert beats == [settings.CELERY_BEAT_SCHEDULER], "exactly one beat"
    # and what it sends (every periodic task, CELERY_BEAT_SCHEDULE) is consumed
    periodic = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert periodic == {"monitor.dispatch_due_polls", "alerts.scan", "monitor.apply_retention"}
    assert {routed(task, settings.CELERY_TASK_ROUTES) for task in periodic} <= consumed


def hard_time_limit(task: str) -> int:
    soft = settings.TASK_SOFT_TIME_LIMITS.get(task, settings.CELERY_TASK_SOFT_TIME_LIMIT)
    return soft + settings.TIME_LIMIT_GRACE


def test_each_worker_stops_warm_and_waits_out_the_time_limits_of_its_tasks():
    """SIGTERM to the worker alone, which stops its pool children itself (a SIGTERM to each child killed its
    task and logged an ERROR); SIGKILL only after the longest hard time limit of the tasks it runs."""
    routes = settings.CELERY_TASK_ROUTES
    workers = 0
    for name, unit in units().items():
        argv = shlex.split(unit["Service"]["ExecStart"])
        if argv[1:4] != ["-A", "wims", "worker"]:
            continue
        workers += 1
        service = unit["Service"]
        assert service["KillMode"] == "mixed" and service["KillSignal"] == "SIGTERM", name
        # the pool says which memory bound applies: per child (prefork) or the whole worker (threads)
        assert argv[argv.index("-P") + 1] in {"prefork", "threads"}, name
        queues = set(argv[argv.index("-Q") + 1].split(","))
        tasks = {task for task in settings.TASK_SOFT_TIME_LIMITS if routed(task, routes) in queues}
        longest = max((hard_time_limit(task) for task in tasks), default=settings.CELERY_TASK_TIME_LIMIT)
        assert int(service["TimeoutStopSec"]) > longest, f"{name}: its tasks may run {longest} s"
    assert workers == 3


def routed(task: str, routes: dict) -> str:
    for pattern, route in routes.items():
        if fnmatch.fnmatchcase(task, pattern):
            return route["queue"]
    return settings.CELERY_TASK_DEFAULT_QUEUE


def test_the_environment_file_names_every_bound_with_its_default():
    example = (DEPLOY / "wims.env.example").read_text()
    for name in (
        "WIMS_TASK_TIME_LIMIT",
        "WIMS_TASK_MEMORY_MB",
        "WIMS_MAX_MEMORY_PER_CHILD_MB",
        "WIMS_WORKER_MEMORY_MB",
    ):
        assert f"#{name}={getattr(settings, name)}\n" in example, name
