"""WebMon scale benchmark: 1,000 local sites, each on its own loopback address, polled by 1, 2 and 4 workers.

Run with ``make bench-webmon`` (PostgreSQL + Redis: DATABASE_URL / CELERY_BROKER_URL, defaulting to a
``wims_bench`` database on 127.0.0.1 and Redis database 5). Writes docs/benchmarks/webmon.md.

For each worker count N (each worker a Celery process on all queues, ``-P threads``):

1. a fresh database and a fresh demo server (synthetic sites on 127.0.x.y, ``--published`` articles each);
2. **cold cycle**: every site due at once; time until all have been polled (robots.txt is fetched first, so
   each poll makes two requests to its host, spaced by the politeness delay), then until every article
   found is fetched and processed;
3. **warm cycle**: one new article published per site, every site due again; time until all polled
   (robots.txt cached, conditional GET) and until the new articles are processed.

Then, in this process, the cost per article broken down (fetch, filter, inference, database) on a sample
of new articles, with the politeness delay set to 0 so that only the work is timed.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import multiprocessing
import os
import platform
import signal
import statistics
import subprocess
import sys
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "wims.settings")
os.environ.setdefault("WIMS_ENV", "development")  # a benchmark on this machine (wims/settings.py)
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/wims_bench")
os.environ.setdefault("CELERY_BROKER_URL", "redis://127.0.0.1:6379/5")
os.environ.setdefault("CELERY_RESULT_BACKEND", "redis://127.0.0.1:6379/6")

FIRST_ADDRESS = "127.0.1.1"  # 127.0.0.0/8 only; .0 and .255 are skipped by synthetic_sites


def serve(n_sites: int, published: int, port_queue) -> None:
    """The demo server in its own process (its rendering must not share the coordinator's GIL)."""
    from demo import DemoServer, synthetic_sites

    server = DemoServer(
        port=0, interval=None, start_published=published, sites=list(synthetic_sites(n_sites, FIRST_ADDRESS))
    )
    server.start()
    port_queue.put(server.port)
    signal.signal(signal.SIGTERM, lambda *a: (server.stop(), os._exit(0)))
    server.serve_forever()


def ensure_database() -> None:
    import dj_database_url
    import psycopg2

    cfg = dj_database_url.parse(os.environ["DATABASE_URL"])
    if "postgresql" not in cfg["ENGINE"]:
        raise SystemExit("bench-webmon runs on PostgreSQL: set DATABASE_URL=postgres://...")
    conn = psycopg2.connect(
        host=cfg["HOST"] or "127.0.0.1",
        port=cfg["PORT"] or 5432,
        user=cfg["USER"],
        password=cfg["PASSWORD"] or None,
        dbname="postgres",
    )
    conn.autocommit = True
    with conn.cursor() as cur:
        cur.execute("SELECT 1 FROM pg_database WHERE datname = %s", [cfg["NAME"]])
        if cur.fetchone() is None:
            cur.execute(f'CREATE DATABASE "{cfg["NAME"]}"')
    conn.close()


def setup_django():
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)


def reset_database() -> None:
    from django.db import connection

    from classifier.models import Case, Classification, Folder, Rule

    tables = [
        "monitor_fetchattempt",
        "monitor_host",
        "monitor_robotsfile",
        Classification._meta.db_table,
        "classifier_casekeyword",
        Case._meta.db_table,
        Rule._meta.db_table,
        Folder._meta.db_table,
        "monitor_article",
        "monitor_site",
    ]
    with connection.cursor() as cur:
        cur.execute("TRUNCATE " + ", ".join(tables) + " CASCADE")
    from classifier.models import KnowledgeBase

    # A new stamp, so that no process keeps a cached snapshot of the rules just truncated.
    KnowledgeBase.objects.update_or_create(pk=KnowledgeBase.SINGLETON_ID, defaults={"stamp": KnowledgeBase.new_stamp()})
    seed_rules()


def seed_rules() -> int:
    """A small knowledge base: one folder and one rule per demo topic (created once, kept across runs)."""
    from django.contrib.auth import get_user_model

    from classifier import services
    from classifier.models import Rule
    from demo import TOPICS
    from monitor.models import Article, Site

    user, _ = get_user_model().objects.get_or_create(username="bench-expert")
    seed = Site.objects.create(name="Seed", home_url="http://seed.invalid/", active=False)
    for topic in TOPICS:
        word = topic.split("-")[0]
        folder = services.create_folder(f"Bench/{topic}", user)
        article = Article.objects.create(site=seed, url=f"http://seed.invalid/{topic}", state="processed")
        case = services.ingest_case(article, [word, "seed"])
        services.commit_rule(case, "new", user, folder=folder, conditions=[word])
    return Rule.objects.count()


def start_sites(n_sites: int, published: int) -> tuple[multiprocessing.Process, int]:
    """The demo server's process (:func:`serve`) with ``n_sites`` sites of ``published`` articles, once it
    listens, and its port, the sites registered on it; the caller terminates the process."""
    queue = multiprocessing.Queue()
    server = multiprocessing.Process(target=serve, args=(n_sites, published, queue), daemon=True)
    server.start()
    port = queue.get(timeout=120)
    register_sites(n_sites, port)
    return server, port


def register_sites(n_sites: int, port: int) -> None:
    from demo import synthetic_sites
    from demo.registration import demo_site_settings
    from monitor.models import Site

    rows = []
    for spec in synthetic_sites(n_sites, FIRST_ADDRESS):
        fields = demo_site_settings(spec, f"http://{spec.address}:{port}", sections=False)
        fields["name"] = f"{spec.key} {fields['name']}"
        rows.append(Site(**{**fields, "poll_interval": 24 * 3600}))
    Site.objects.bulk_create(rows)


class Worker:
    def __init__(
        self,
        index: int,
        threads: int,
        env: dict,
        queues: str = "celery,poll,fetch,process",
        pool: str = "threads",
        name: str | None = None,
    ):
        # name: the Celery node name and the log's (bench_hosts.py runs two sets of workers side by side)
        name = name or f"bench{index}"
        self.log_path = Path(env.get("WIMS_VAR_DIR") or ROOT / "var") / f"{name}.log"
        self.log = open(self.log_path, "w")  # noqa: SIM115 - closed in stop()
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "wims",
                "worker",
                "-Q",
                queues,
                "-P",
                pool,
                "-c",
                str(threads),
                "-n",
                f"{name}@%h",
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
                "-l",
                "warning",
            ],
            cwd=ROOT,
            env={**os.environ, **env},
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
        self.log.close()


def wait_ready(seconds: float = 60) -> None:
    from wims.celery import app

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if app.control.ping(timeout=1.0):
                return
        except Exception:  # noqa: BLE001 - broker not reachable yet
            pass
        time.sleep(0.5)
    raise RuntimeError("workers did not answer a ping")


def purge() -> None:
    from wims.celery import app

    with app.connection_for_write() as conn:
        for queue in ("celery", "poll", "fetch", "process"):
            with contextlib.suppress(Exception):
                conn.default_channel.queue_purge(queue)


def until(predicate, timeout: float, tick: float = 0.5, dispatch_every: float | None = None):
    from monitor.tasks import dispatch_due_polls

    start = time.monotonic()
    last_dispatch = start
    while time.monotonic() - start < timeout:
        if predicate():
            return time.monotonic() - start
        if dispatch_every and time.monotonic() - last_dispatch >= dispatch_every:
            dispatch_due_polls.delay()  # what beat does every 30 s: also sweeps lost work
            last_dispatch = time.monotonic()
        time.sleep(tick)
    return None


def publish_everywhere(n_sites: int, port: int) -> None:
    from demo import synthetic_sites

    def post(address):
        req = urllib.request.Request(f"http://{address}:{port}/_control/publish", method="POST", data=b"")
        urllib.request.urlopen(req, timeout=30).read()

    with ThreadPoolExecutor(16) as pool:
        list(pool.map(post, [s.address for s in synthetic_sites(n_sites, FIRST_ADDRESS)]))


def run(n_workers: int, args) -> dict:
    from django.db.models import Count
    from django.utils import timezone

    from monitor.models import Article, FetchAttempt, Site
    from monitor.tasks import dispatch_due_polls

    reset_database()
    purge()
    server, port = start_sites(args.sites, args.published)
    # Persistent connections: a thread keeps its PostgreSQL connection between tasks (a new backend per task
    # would cost more than the task's queries).
    env = {"WIMS_POLITENESS_DELAY": str(args.delay), "WIMS_SWEEP_GRACE": "60", "DATABASE_CONN_MAX_AGE": "300"}
    threads = max(1, args.total_threads // n_workers)
    if args.split:
        # As docs/operations.md recommends for production: threads for polls and fetches (network), and one prefork
        # worker with a process per core for processing (CPU-bound; out of the pollers' GIL).
        workers = [Worker(i, threads, env, queues="celery,poll,fetch") for i in range(n_workers)]
        workers.append(Worker(n_workers, os.cpu_count() or 2, env, queues="process", pool="prefork"))
    else:
        workers = [Worker(i, threads, env) for i in range(n_workers)]
    result = {"workers": n_workers, "threads": threads, "split": args.split, "load_before": os.getloadavg()[0]}
    try:
        wait_ready()
        terminal = ("processed", "failed", "duplicate", "not_article")  # not_article: kept out by its kind
        n = args.sites

        def cycle(label: str, since, expected_articles: int) -> None:
            t0 = time.monotonic()
            dispatch_due_polls.delay()
            polled = until(lambda: Site.objects.filter(active=True, last_poll_at__gte=since).count() >= n, args.timeout)
            done = until(
                lambda: (
                    Article.objects.filter(site__active=True).count() >= expected_articles
                    and not Article.objects.filter(site__active=True).exclude(state__in=terminal).exists()
                ),
                args.timeout,
                dispatch_every=30,
            )
            total = time.monotonic() - t0
            new = Article.objects.filter(site__active=True, collected_at__gte=since)
            states = dict(new.values_list("state").annotate(c=Count("id")))
            result[label] = {
                "poll_cycle_s": polled,
                "polls_per_s": n / polled if polled else None,
                "articles": new.count(),
                "states": states,
                "all_done_s": total if done is not None else None,
                "articles_per_s": new.count() / total if done is not None else None,
                "errors": FetchAttempt.objects.filter(started_at__gte=since, outcome__in=["failed", "retry"]).count(),
                "requests": FetchAttempt.objects.filter(started_at__gte=since).count(),
            }
            print(f"  {label}: {json.dumps(result[label])}", flush=True)

        start = timezone.now()
        cycle("cold", start, n * args.published)
        publish_everywhere(n, port)
        warm = timezone.now()
        Site.objects.filter(active=True).update(next_poll_at=None)
        cycle("warm", warm, n * (args.published + 1))
        result["not_modified"] = FetchAttempt.objects.filter(started_at__gte=warm, outcome="not_modified").count()
        result["load_after"] = os.getloadavg()[0]
    finally:
        for w in workers:
            w.stop()
        server.terminate()
        server.join(10)
    return result


def cost_breakdown(args) -> dict:
    """Per-article cost in this process: fetch (HTTP), filter, inference, database (everything else)."""
    from django.conf import settings

    import filters
    from monitor import services
    from monitor.models import Article, Site

    os.environ["WIMS_POLITENESS_DELAY"] = "0"
    settings.WIMS_POLITENESS_DELAY = 0.0  # this process's settings were read at its start
    reset_database()
    server, _port = start_sites(args.sample, 1)
    timers: dict[str, list[float]] = {"fetch": [], "filter": []}
    real_fetch, real_extract, real_read = services.fetch, filters.extract, filters.read_page
    try:
        for site in Site.objects.filter(active=True):
            services.poll_site(site.pk)  # robots.txt cached, pending rows created
        ids = list(Article.objects.filter(state="pending").values_list("id", flat=True))
        services.fetch = timed(timers["fetch"], real_fetch)
        filters.extract = timed(timers["filter"], real_extract)
        filters.read_page = timed(timers["filter"], real_read)  # decoding and the one parse (processing reads it once)
        costs = article_costs(ids)
    finally:
        services.fetch, filters.extract, filters.read_page = real_fetch, real_extract, real_read
        server.terminate()
        server.join(10)
    return cost_figures(timers, costs, len(ids))


def timed(times: list[float], fn):
    """``fn``, appending the time of each call to ``times``."""

    def wrapper(*a, **kw):
        t = time.perf_counter()
        try:
            return fn(*a, **kw)
        finally:
            times.append(time.perf_counter() - t)

    return wrapper


def article_costs(ids: list[int]) -> dict[str, list]:
    """Fetch and process each article, timed; then the inference on its case alone."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from classifier import kb
    from monitor import services
    from monitor.models import Article
    from processing import services as processing

    costs: dict[str, list] = {
        "totals": [],
        "infer": [],
        "statements": [],
        "processing_s": [],
        "processing_statements": [],
    }
    for pk in ids:
        with CaptureQueriesContext(connection) as queries:
            t = time.perf_counter()
            services.fetch_article(pk)
            t_fetched = time.perf_counter()
            with CaptureQueriesContext(connection) as processing_queries:
                processing.process_article(pk)
            done = time.perf_counter()
            costs["totals"].append(done - t)
            costs["processing_s"].append(done - t_fetched)
        costs["statements"].append(len(queries))
        costs["processing_statements"].append(len(processing_queries))
        article = Article.objects.select_related("content").get(pk=pk)
        words = frozenset(article.content.tokens)
        tree = kb.current().tree  # the cached snapshot (one query), outside the timing: engine work only
        t = time.perf_counter()
        tree.infer(words)
        costs["infer"].append(time.perf_counter() - t)
    return costs


def cost_figures(timers: dict[str, list[float]], costs: dict[str, list], n: int) -> dict:
    """The per-article figures of :func:`cost_breakdown` from its timings of ``n`` articles."""
    from monitor.models import Article

    fetch_ms = 1000 * statistics.mean(timers["fetch"])
    filter_ms = 1000 * sum(timers["filter"]) / n  # read_page and extract, per article
    infer_ms = 1000 * statistics.mean(costs["infer"])
    total_ms = 1000 * statistics.mean(costs["totals"])
    db_ms = total_ms - fetch_ms - filter_ms - infer_ms
    processing_s, processing_statements = costs["processing_s"], costs["processing_statements"]
    return {
        "articles": n,
        "fetch_ms": fetch_ms,
        "filter_ms": filter_ms,
        "inference_ms": infer_ms,
        "database_ms": db_ms,
        "total_ms": total_ms,
        "pipeline_ms": filter_ms + infer_ms + db_ms,
        "statements": statistics.mean(costs["statements"]),
        # processing alone (processing.services.process_article: claim to the classified case), per article
        "processing_median_ms": 1000 * statistics.median(processing_s),
        "processing_p95_ms": 1000 * sorted(processing_s)[int(0.95 * (len(processing_s) - 1))],
        "processing_statements_max": max(processing_statements),
        "processing_statements_mean": statistics.mean(processing_statements),
        "load_after": os.getloadavg()[0],
        "processed": Article.objects.filter(state="processed").count(),
    }


def fmt(value, digits=1, unit=""):
    return "—" if value is None else f"{value:.{digits}f}{unit}"


def write_report(runs: list[dict], cost: dict, args, rules: int) -> Path:
    out = ROOT / "docs" / "benchmarks" / args.report
    lines = [
        "# WebMon scale benchmark",
        "",
        f"`make bench-webmon` ({time.strftime('%Y-%m-%d')}): {args.sites} synthetic demo sites served by one local "
        f"process, each on its own loopback address ({FIRST_ADDRESS} upwards, inside 127.0.0.0/8), so the "
        "per-host politeness applies as it would to 1,000 real hosts. Each site starts with "
        f"{args.published} published articles; WebMon watches its home page (and "
        "the feed its pages announce: RSS for a third, Atom for another third, since the demo sites' real-web shape). "
        "PostgreSQL + Redis, politeness delay "
        f"{args.delay:g} s per host, {args.total_threads} threads in all, split over the worker processes "
        + (
            "(`-P threads`, queues celery, poll, fetch), plus one prefork worker with a process per core for "
            "the process queue (as docs/operations.md recommends for production), "
            if args.split
            else "(`-P threads`, all queues; 1×48, 2×24, 4×12), "
        )
        + f"a knowledge base of {rules} rules. Machine: {os.cpu_count()} cores "
        f"({platform.processor() or platform.machine()}), shared by the demo server, the workers, PostgreSQL "
        "and Redis; run it under `flock -x /tmp/wims-bench.lock` so that nothing else runs. The 1-minute load "
        "average before and after each run is in the raw numbers (`load_before`, `load_after`); it counts the "
        "benchmark's own runnable threads, and the figure before a run is partly the previous run's tail.",
        "",
        "**Cold cycle**: every site due at once, robots.txt not yet known (two requests per host, "
        f"{args.delay:g} s apart). **Warm cycle**: one new article per site, every site due again "
        "(robots.txt cached, conditional GET on the home page and feed).",
        "",
        "| workers | cycle | poll cycle (s) | polls/s | articles | fetched+processed, all done (s) | articles/s | "
        "requests | errors |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    lines += cycle_rows(runs)
    lines += cost_section(cost)
    lines += targets_section(runs, cost, args)
    lines += ["", "Raw numbers:", "", "```json", json.dumps({"runs": runs, "cost": cost}, indent=1), "```", ""]
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("\n".join(lines))
    return out


def cycle_rows(runs: list[dict]) -> list[str]:
    """Each run's cold and warm cycle, then the cold cycle's speed-up against one worker."""
    lines = []
    for r in runs:
        for label in ("cold", "warm"):
            c = r[label]
            lines.append(
                f"| {r['workers']} | {label} | {fmt(c['poll_cycle_s'])} | {fmt(c['polls_per_s'])} | "
                f"{c['articles']} | {fmt(c['all_done_s'])} | {fmt(c['articles_per_s'])} | "
                f"{c['requests']} | {c['errors']} |"
            )
    base = {r["workers"]: r for r in runs}
    if 1 in base:
        lines += [
            "",
            "Speed-up of the cold cycle's article throughput against one worker: "
            + ", ".join(
                f"{w} workers ×"
                f"{(base[w]['cold']['articles_per_s'] or 0) / (base[1]['cold']['articles_per_s'] or 1):.2f}"
                for w in sorted(base)
                if w != 1
            )
            + ".",
        ]
    return lines


def cost_section(cost: dict) -> list[str]:
    return [
        "",
        f"## Cost per article (one process, {cost['articles']} articles, politeness off)",
        "",
        "| stage | ms per article |",
        "|---|---|",
        f"| fetch (HTTP from the local demo server) | {cost['fetch_ms']:.2f} |",
        f"| filter (`filters.read_page`: decoding, the one parse; `filters.extract`) | {cost['filter_ms']:.2f} |",
        f"| inference (rule tree on the case keywords, engine only) | {cost['inference_ms']:.3f} |",
        f"| database and the rest (claims, fetch log, raw page, extraction, case, keyword index, suggestions, "
        f"review state; {cost['statements']:.1f} SQL statements per article) | {cost['database_ms']:.2f} |",
        f"| **pipeline without fetch** (filter + inference + database) | **{cost['pipeline_ms']:.2f}** |",
        f"| total | {cost['total_ms']:.2f} |",
        "",
        f"Processing alone (`processing.services.process_article`, claim to classified case, filters included): "
        f"median {cost['processing_median_ms']:.2f} ms, p95 {cost['processing_p95_ms']:.2f} ms per article; "
        f"{cost['processing_statements_mean']:.1f} SQL statements on average, {cost['processing_statements_max']} "
        "at most.",
    ]


def targets_section(runs: list[dict], cost: dict, args) -> list[str]:
    lines = ["", "## Against the targets", ""]
    cycles = {r["workers"]: r["cold"]["poll_cycle_s"] for r in runs}
    warm = {r["workers"]: r["warm"]["poll_cycle_s"] for r in runs}
    lines.append(
        f"* One poll cycle of {args.sites} sites with politeness on, target < 60 s: cold "
        + ", ".join(f"{w} worker(s) {fmt(s)} s" for w, s in cycles.items())
        + "; warm "
        + ", ".join(f"{w} worker(s) {fmt(s)} s" for w, s in warm.items())
        + "."
    )
    lines.append(f"* Pipeline per article, target < 20 ms: {cost['pipeline_ms']:.1f} ms.")
    lines.append(
        f"* Processing per article, targets at most 12 SQL statements and 12 ms median: "
        f"{cost['processing_statements_max']} statements at most, {cost['processing_median_ms']:.1f} ms median."
    )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sites", type=int, default=1000)
    parser.add_argument("--published", type=int, default=2, help="articles per site at start")
    parser.add_argument("--workers", default="1,2,4")
    parser.add_argument(
        "--split",
        action="store_true",
        help="threads on poll and fetch only, plus a prefork worker (a process per core) to process",
    )
    parser.add_argument("--report", default="webmon.md", help="file name under docs/benchmarks/")
    parser.add_argument(
        "--total-threads",
        type=int,
        default=48,
        help="threads over all worker processes (each of N processes gets total/N)",
    )
    parser.add_argument("--delay", type=float, default=2.0, help="politeness delay per host (s)")
    parser.add_argument("--timeout", type=float, default=900)
    parser.add_argument("--sample", type=int, default=100, help="sites for the cost breakdown (1 article each)")
    args = parser.parse_args()
    ensure_database()
    setup_django()
    reset_database()
    from classifier.models import Rule

    rules = Rule.objects.count()
    runs = []
    for n in [int(x) for x in args.workers.split(",") if x]:  # --workers "": the cost breakdown only
        print(f"{n} worker process(es), {args.sites} sites ...", flush=True)
        runs.append(run(n, args))
    print("cost breakdown ...", flush=True)
    cost = cost_breakdown(args)
    print(json.dumps(cost), flush=True)
    print(f"report: {write_report(runs, cost, args, rules)}")


if __name__ == "__main__":
    main()
