"""The benchmarks' run environment: the exclusive benchmark lock, the load average, the commit measured.

Shared by the benchmarks that time things (bench_filters, bench_links, bench_sources): a timed run holds
``/tmp/wims-bench.lock`` so that no other benchmark runs beside it, and its report says the machine's load and
the commit it measured.
"""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LOCK_PATH = "/tmp/wims-bench.lock"


def _under_calling_flock() -> bool:
    """True when an ancestor process is ``flock ... /tmp/wims-bench.lock`` (it holds the lock for us)."""
    pid = os.getppid()
    for _ in range(8):
        try:
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
            stat = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            return False
        if cmd and os.path.basename(cmd[0]) == b"flock" and LOCK_PATH.encode() in cmd:
            return True
        pid = int(stat.rsplit(")", 1)[1].split()[1])
        if pid <= 1:
            return False
    return False


def take_lock():
    """The exclusive benchmark lock (no other benchmark or test meanwhile); returns (file, description)."""
    if _under_calling_flock():
        return None, f"exclusive lock {LOCK_PATH} held by the calling flock"
    fh = open(LOCK_PATH, "a")  # noqa: SIM115 - held until the process ends
    try:
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        print(f"waiting for {LOCK_PATH} (another benchmark holds it)...", file=sys.stderr)
        t0 = time.time()
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX)
        return fh, f"exclusive lock {LOCK_PATH} held (waited {time.time() - t0:.0f} s for it)"
    return fh, f"exclusive lock {LOCK_PATH} held"


def load_average() -> str:
    """The 1, 5 and 15 minutes' load averages, as the reports print them."""
    a, b, c = os.getloadavg()
    return f"{a:.2f} / {b:.2f} / {c:.2f}"


def commit_id() -> str:
    """The commit measured, and whether filters/ differs from it."""
    try:
        rev = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no", "--", "filters"],
            cwd=ROOT,
            capture_output=True,
            text=True,
        )
        return rev.stdout.strip() + (" (filters/ modified)" if dirty.stdout.strip() else "")
    except OSError:
        return "unknown"
