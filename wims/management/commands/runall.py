"""Run WIMS in one foreground process group: web app, Celery workers, beat and, with ``--demo``, the demo news sites.

`make run` ends with this command. Ctrl-C (or SIGTERM) stops every process, within a few seconds when idle:
the terminal's SIGINT reaches every process of the group, then each gets SIGTERM from here; a Celery worker
takes either as a warm shutdown, and its pool children, in a process group of their own, hear only from it.
A process that dies is started again after a backoff, with the cause in the log; one that keeps dying right
after its start stops everything and the command exits non-zero, so a broken set-up is never half up.
"""

import os
import signal
import socket
import subprocess
import sys
import threading
import time

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError


class Command(BaseCommand):
    help = "Start the web app, a Celery worker with the beat scheduler, and the demo news sites."

    def add_arguments(self, parser):
        parser.add_argument("--addr", default=settings.WIMS_ADDR)
        parser.add_argument(
            "--demo", action="store_true", help="Also serve the demo news sites (python -m demo; make run)."
        )
        parser.add_argument("--demo-port", type=int, default=settings.WIMS_DEMO_PORT)
        parser.add_argument("--concurrency", type=int, default=settings.WIMS_WORKER_CONCURRENCY)

    def handle(self, *args, addr, demo, demo_port, concurrency, **options):
        python = sys.executable
        worker = [python, "-m", "celery", "-A", "wims", "worker", "-l", "info"]
        commands = {
            "web": [python, "manage.py", "runserver", addr, "--noreload"],
            # The dispatcher and its sweep on their own consumer: a stuck fetch can never stop them.
            "worker-dispatch": [*worker, "-Q", "celery", "-P", "threads", "-c", "2", "-n", "dispatch@%h"],
            # Polls, fetches and alerts mostly wait on the network and on politeness delays: threads. Alerts
            # first: they are few, and someone waits for them.
            "worker-net": [*worker, "-Q", "alerts,poll,fetch", "-P", "threads", "-c", "16", "-n", "net@%h"],
            # Processing (filters, inference) is CPU-bound: processes, acknowledged late. Each child holds at most
            # WIMS_TASK_MEMORY_MB; the threads workers above WIMS_WORKER_MEMORY_MB each (wims/worker.py).
            "worker-process": [*worker, "-Q", "process", "-P", "prefork", "-c", str(concurrency), "-n", "process@%h"],
            # Exactly one beat, with schedules in the database.
            "beat": [
                python,
                "-m",
                "celery",
                "-A",
                "wims",
                "beat",
                "-l",
                "info",
                "--scheduler",
                settings.CELERY_BEAT_SCHEDULER,
            ],
        }
        if demo:  # the demo package is in the source checkout only; `python -m demo` runs from it
            commands["demo-sites"] = [
                python,
                *("-m", "demo", "--port", str(demo_port)),
                *("--state", str(settings.VAR_DIR / "demo-sites.json")),
            ]
        supervisor = Supervisor(commands, self.stdout)
        supervisor.start()
        self.stdout.write(f"WIMS is starting: http://{addr}/ answers in a few seconds  (Ctrl-C stops everything)")
        threading.Thread(
            target=announce_when_listening, args=(addr, supervisor._say, supervisor.stopping), daemon=True
        ).start()
        code = supervisor.wait()
        if code:
            raise CommandError(f"a process kept failing (exit code {code}); everything was stopped")


def announce_when_listening(addr: str, say, stopping: threading.Event, every: float = 0.3) -> bool:
    """Say "WIMS is up" once the web server at ``addr`` (host:port) accepts a connection, not before: a newcomer
    who opens the address on that line must get the page. Gives up silently when ``stopping`` is set."""
    host, _, port = addr.rpartition(":")
    host = host.strip("[]") or "127.0.0.1"
    # listening on every address (an unspecified one): this machine answers on its loopback
    host = {"0.0.0.0": "127.0.0.1", "::": "::1"}.get(host, host)  # noqa: S104 - read, not bound
    while not stopping.is_set():
        try:
            with socket.create_connection((host, int(port)), timeout=1):
                say(f"WIMS is up: http://{addr}/  (Ctrl-C stops everything)")
                return True
        except OSError:
            stopping.wait(every)
    return False


class Supervisor:
    """Starts child processes, prefixes their output, restarts one that dies, stops all of them together.

    A child that exits is started again after a backoff (``first_delay`` doubling up to ``max_delay``) and
    the cause is logged; a child that keeps failing fast (``give_up_after`` exits in a row, each within
    ``fast`` seconds of its start) makes the supervisor stop everything and exit non-zero, so a broken
    set-up is never half up. A run longer than ``fast`` seconds forgives the earlier failures.
    """

    def __init__(
        self,
        commands: dict[str, list[str]],
        out,
        *,
        first_delay: float = 1.0,
        max_delay: float = 30.0,
        fast: float = 30.0,
        give_up_after: int = 5,
    ):
        self.commands = commands
        self.out = out
        self.first_delay, self.max_delay, self.fast, self.give_up_after = first_delay, max_delay, fast, give_up_after
        self.procs: dict[str, subprocess.Popen] = {}
        self.started: dict[str, float] = {}
        self.fast_exits: dict[str, int] = {}
        self.restart_at: dict[str, float] = {}
        self.restarts = 0
        self.stopping = threading.Event()
        self.signalled = False  # set by the signal handler alone: wait() turns it into ``stopping``
        self.settle = 3.0  # after a signal, seconds the children may take to stop by it before SIGTERM (stop())
        self.lock = threading.Lock()

    def start(self, handle_signals: bool = True) -> None:
        if handle_signals:  # Ctrl-C and SIGTERM stop everything (only the main thread may set handlers)
            for sig in (signal.SIGINT, signal.SIGTERM):
                signal.signal(sig, self._on_signal)
        for name in self.commands:
            self._spawn(name)

    def _spawn(self, name: str) -> None:
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        proc = subprocess.Popen(
            self.commands[name],
            cwd=settings.BASE_DIR,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            errors="replace",
        )
        self.procs[name] = proc
        self.started[name] = time.monotonic()
        threading.Thread(target=self._pump, args=(name, proc), daemon=True).start()

    def _pump(self, name: str, proc: subprocess.Popen) -> None:
        width = max(map(len, self.commands))
        assert proc.stdout is not None  # started with stdout=PIPE
        for line in proc.stdout:
            self._say(f"{name:<{width}} | {line.rstrip()}")

    def _say(self, text: str) -> None:
        with self.lock:
            self.out.write(text)

    def _on_signal(self, signum, frame) -> None:
        # No lock here (not even Event.set's): a handler runs between two bytecodes of the main thread, so a second
        # signal (make passes the terminal's Ctrl-C on to runall, which got it too) ran inside the first handler's
        # Event.set and waited for good for the lock that held (a live trial's runall hung, its children stopped).
        self.signalled = True

    def wait(self) -> int:
        """Supervise until a signal (exit code 0) or a child that keeps failing fast (its exit code)."""
        code = 0
        while not self.stopping.is_set():
            if self.signalled:
                self.stopping.set()
                break
            now = time.monotonic()
            for name, proc in list(self.procs.items()):
                if name in self.restart_at:
                    if now >= self.restart_at[name]:
                        del self.restart_at[name]
                        self.restarts += 1
                        self._say(f"{name}: starting again")
                        self._spawn(name)
                    continue
                if proc.poll() is None:
                    continue
                ran = now - self.started[name]
                self.fast_exits[name] = self.fast_exits.get(name, 0) + 1 if ran < self.fast else 1
                if self.fast_exits[name] >= self.give_up_after:
                    self._say(
                        f"{name} exited with {proc.returncode} {self.fast_exits[name]} times in a row, each within "
                        f"{self.fast:g} s of its start: giving up, stopping the others"
                    )
                    code = proc.returncode or 1
                    self.stopping.set()
                    break
                delay = min(self.max_delay, self.first_delay * 2 ** (self.fast_exits[name] - 1))
                self._say(f"{name} exited with {proc.returncode} after {ran:.1f} s; starting it again in {delay:g} s")
                self.restart_at[name] = now + delay
            time.sleep(0.3)
        self.stop(settle=self.settle if self.signalled else 0)
        return code

    def stop(self, grace: float = 15, settle: float = 0) -> None:
        """SIGTERM to each child's own process (a Celery worker stops its pool children itself: wims/worker.py),
        then SIGKILL, said in the log, to any still running ``grace`` seconds later.

        ``settle``: seconds to let the children stop by themselves first. A signal to the process group (Ctrl-C,
        ``kill -- -PGID``) reached them too, and a SIGTERM on top of it came during beat's exit, whose handler then
        raised inside an atexit callback: a traceback in the log on about one stop in five."""
        deadline = time.monotonic() + settle
        while time.monotonic() < deadline and any(proc.poll() is None for proc in self.procs.values()):
            time.sleep(0.05)
        for proc in self.procs.values():
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + grace
        for name, proc in self.procs.items():
            try:
                proc.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                self._say(f"{name} did not stop within {grace:g} s of SIGTERM: killing it")
                proc.kill()
                proc.wait()
