"""Run WIMS in one foreground process group: web app, Celery workers, beat and, with ``--demo``, the demo news sites.

`make run` ends with this command. Ctrl-C (or SIGTERM) stops every process; if one of them dies,
the others are stopped too and the command exits non-zero, so a broken set-up is never half up.
"""

import os
import signal
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
            # Polls and fetches mostly wait on the network and on politeness delays: threads.
            "worker-net": [*worker, "-Q", "celery,poll,fetch", "-P", "threads", "-c", "16", "-n", "net@%h"],
            # Processing (filters, inference) is CPU-bound: processes, acknowledged late.
            "worker-process": [*worker, "-Q", "process", "-c", str(concurrency), "-n", "process@%h"],
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
            commands["demo-sites"] = [python, "-m", "demo", "--port", str(demo_port)]
        supervisor = Supervisor(commands, self.stdout)
        supervisor.start()
        self.stdout.write(f"WIMS is up: http://{addr}/  (Ctrl-C stops everything)")
        code = supervisor.wait()
        if code:
            raise CommandError(f"a process exited ({code}); everything was stopped")


class Supervisor:
    """Starts child processes, prefixes their output, stops all of them together."""

    def __init__(self, commands: dict[str, list[str]], out):
        self.commands = commands
        self.out = out
        self.procs: dict[str, subprocess.Popen] = {}
        self.stopping = threading.Event()
        self.lock = threading.Lock()

    def start(self) -> None:
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, self._on_signal)
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        for name, command in self.commands.items():
            proc = subprocess.Popen(
                command,
                cwd=settings.BASE_DIR,
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
                errors="replace",
            )
            self.procs[name] = proc
            threading.Thread(target=self._pump, args=(name, proc), daemon=True).start()

    def _pump(self, name: str, proc: subprocess.Popen) -> None:
        width = max(map(len, self.commands))
        assert proc.stdout is not None  # started with stdout=PIPE
        for line in proc.stdout:
            with self.lock:
                self.out.write(f"{name:<{width}} | {line.rstrip()}")

    def _on_signal(self, signum, frame) -> None:
        self.stopping.set()

    def wait(self) -> int:
        code = 0
        while not self.stopping.is_set():
            for name, proc in self.procs.items():
                if proc.poll() is not None:
                    self.out.write(f"{name} exited with {proc.returncode}; stopping the others")
                    code = proc.returncode or 1
                    self.stopping.set()
                    break
            time.sleep(0.3)
        self.stop()
        return code

    def stop(self, grace: float = 15) -> None:
        for proc in self.procs.values():
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + grace
        for proc in self.procs.values():
            try:
                proc.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
