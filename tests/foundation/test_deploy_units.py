"""The production service units (docs/deploy/) run what README and `make run` run: every queue consumed,
one beat with the database scheduler, restarted always."""

import configparser
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
        assert (DEPLOY / "wims.env.example").read_text().count("WIMS_ENV=production") == 1


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
