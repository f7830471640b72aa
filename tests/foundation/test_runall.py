"""runall's supervision: a child that dies is started again with a backoff; one that keeps failing right
after its start stops everything with its exit code."""

import sys
import threading
import time
from io import StringIO

from wims.management.commands.runall import Supervisor


def python(code: str) -> list[str]:
    return [sys.executable, "-c", code]


def test_a_child_that_dies_is_started_again_and_the_others_keep_running(tmp_path):
    marker = tmp_path / "died-once"
    # dies the first time (code 3), then stays up; the other child stays up throughout
    flaky = python(
        "import pathlib, sys, time\n"
        f"p = pathlib.Path({str(marker)!r})\n"
        "if not p.exists():\n"
        "    p.write_text('x'); print('dying'); sys.exit(3)\n"
        "print('up again', flush=True); time.sleep(60)\n"
    )
    steady = python("import time; print('steady', flush=True); time.sleep(60)")
    out = StringIO()
    supervisor = Supervisor({"flaky": flaky, "steady": steady}, out, first_delay=0.2, fast=5, give_up_after=3)
    supervisor.start(handle_signals=False)
    steady_pid = supervisor.procs["steady"].pid
    waiter = threading.Thread(target=lambda: setattr(supervisor, "code", supervisor.wait()))
    waiter.start()
    deadline = time.monotonic() + 20
    while "up again" not in out.getvalue() and time.monotonic() < deadline:
        time.sleep(0.1)
    supervisor.stopping.set()
    waiter.join(timeout=30)
    log = out.getvalue()
    assert "flaky exited with 3" in log and "starting it again in 0.2 s" in log and "up again" in log, log
    assert supervisor.restarts == 1 and supervisor.code == 0
    assert supervisor.procs["steady"].pid == steady_pid, "the others were not touched"
    assert all(proc.poll() is not None for proc in supervisor.procs.values()), "everything stopped at the end"


def test_a_child_that_keeps_failing_fast_stops_everything_with_its_exit_code():
    out = StringIO()
    supervisor = Supervisor(
        {"broken": python("import sys; sys.exit(7)"), "steady": python("import time; time.sleep(60)")},
        out,
        first_delay=0.1,
        fast=5,
        give_up_after=3,
    )
    supervisor.start(handle_signals=False)
    started = time.monotonic()
    code = supervisor.wait()
    assert code == 7 and time.monotonic() - started < 20
    assert supervisor.restarts == 2, "two restarts, then the third fast exit gives up"
    assert "giving up" in out.getvalue()
    assert all(proc.poll() is not None for proc in supervisor.procs.values())
