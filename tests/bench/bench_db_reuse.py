"""A worker's database connection kept across tasks, against a new one per task (WIMS_WORKER_DB_CONN_MAX_AGE=0).

    DATABASE_URL=postgres://... CELERY_BROKER_URL=redis://... DEBUG=1 .venv/bin/python -m tests.bench.bench_db_reuse

Runs N health-check tasks (one query each, the lightest task that reaches the database) through a solo worker of
each kind, on a migrated database, and prints wall time, the worker's CPU and the PostgreSQL server's CPU (every
``postgres`` process and the backends it reaped, server-wide: other databases' work counts too) per task.
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
TICK = os.sysconf("SC_CLK_TCK")


def _cpu_of(pids: list[int], children: bool = False) -> float:
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12]) + (int(fields[13]) + int(fields[14]) if children else 0)
    return total / TICK


def _postgres_cpu() -> float:
    pids = subprocess.run(["pgrep", "-x", "postgres"], capture_output=True, text=True).stdout.split()
    postmaster = [p for p in pids if Path(f"/proc/{p}/stat").read_text().split()[3] == "1"] or pids[:1]
    return (
        _cpu_of([int(p) for p in pids])
        + _cpu_of([int(p) for p in postmaster], children=True)
        - _cpu_of([int(p) for p in postmaster])
    )


def run(max_age: int, tasks: int) -> dict[str, float]:
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
        cpu, pg, start = _cpu_of([worker.pid]), _postgres_cpu(), time.monotonic()
        for i in range(tasks):
            health_check.delay(str(i)).get(timeout=60)
        wall = time.monotonic() - start
        return {
            "wall ms per task": wall * 1000 / tasks,
            "worker CPU-ms per task": (_cpu_of([worker.pid]) - cpu) * 1000 / tasks,
            "PostgreSQL CPU-ms per task (server-wide)": (_postgres_cpu() - pg) * 1000 / tasks,
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
