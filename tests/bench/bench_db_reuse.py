"""A worker's database connection kept across tasks, against a new one per task (WIMS_WORKER_DB_CONN_MAX_AGE=0).

    DATABASE_URL=postgres://... CELERY_BROKER_URL=redis://... DEBUG=1 .venv/bin/python -m tests.bench.bench_db_reuse

Runs N health-check tasks (one query each, the lightest task that reaches the database) through a solo worker of
each kind, on a migrated database, and prints wall time, the worker's CPU and the PostgreSQL server's CPU
(bench_hosts' measures: the postmaster, its backends and those it reaped, server-wide) per task.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run(max_age: int, tasks: int) -> dict[str, float]:
    from tests.bench.bench_hosts import cpu_seconds, postgres_cpu_seconds  # after django.setup(): its env defaults
    from wims.tasks import health_check

    env = dict(os.environ, WIMS_WORKER_DB_CONN_MAX_AGE=str(max_age))
    log = open(ROOT / "var" / f"bench-db-reuse-{max_age}.log", "w")  # noqa: SIM115
    command = [sys.executable, "-m", "celery", "-A", "wims", "worker", "-Q", "celery", "-P", "solo"]
    command += ["-n", f"reuse{max_age}@%h", "--without-gossip", "--without-mingle", "--without-heartbeat"]
    worker = subprocess.Popen(
        [*command, "-l", "warning"], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
    )
    try:
        health_check.delay("warm").get(timeout=120)
        cpu, pg, start = cpu_seconds([worker.pid]), postgres_cpu_seconds(), time.monotonic()
        for i in range(tasks):
            health_check.delay(str(i)).get(timeout=60)
        wall = time.monotonic() - start
        return {
            "wall ms per task": wall * 1000 / tasks,
            "worker CPU-ms per task": (cpu_seconds([worker.pid]) - cpu) * 1000 / tasks,
            "PostgreSQL CPU-ms per task (server-wide)": (postgres_cpu_seconds() - pg) * 1000 / tasks,
        }
    finally:
        os.killpg(worker.pid, signal.SIGTERM)
        worker.wait(timeout=30)
        log.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", type=int, default=300)
    args = parser.parse_args(argv)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "wims.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    (ROOT / "var").mkdir(exist_ok=True)
    runs = {"new connection per task": run(0, args.tasks), "connection kept": run(300, args.tasks)}
    names = list(next(iter(runs.values())))
    print("| worker | " + " | ".join(names) + " |\n|---|" + "---:|" * len(names))
    for label, figures in runs.items():
        print(f"| {label} | " + " | ".join(f"{figures[n]:.2f}" for n in names) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
