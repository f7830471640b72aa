"""Two hosts, one database: two complete worker sets against one PostgreSQL and one Redis, against one set.

Run with ``make bench-hosts`` (PostgreSQL + Redis: DATABASE_URL / CELERY_BROKER_URL, defaulting to a ``wims_hosts``
database on 127.0.0.1 and Redis database 4). Writes docs/benchmarks/hosts.md.

A *worker set* is what one machine runs (docs/operations.md): a thread worker on the ``celery,poll,fetch`` queues
and a prefork worker on ``process``, with node names of their own and a ``var/`` folder of their own
(``WIMS_VAR_DIR``, so their own metrics folder), as on two machines. The 1,000 local sites and their setup are
bench-webmon's (tests/bench/bench_webmon.py). Two phases in one run, each on a fresh database and fresh sites:
one set, then two sets; each phase is one cold cycle (every site due at once, robots.txt first) until every
article found is fetched and processed. Then:

* **fetched once**: the demo server's own request log (the sites' side) counts the GETs of every article page,
  and the fetch log (``FetchAttempt``) the successful article fetches: exactly one each;
* **politeness across hosts**: the gaps between consecutive requests to one site's address, whichever set made
  them (the server's log again), against the politeness delay;
* **nothing lost**: every article the sites published is in the database, in a terminal state;
* **costs**: CPU of each worker process tree, of the PostgreSQL backends of this database and of Redis; rows,
  transactions and bytes in PostgreSQL (``pg_stat_database``, ``manage.py storage``'s figures); tasks by name per
  set (each set's metrics folder), i.e. broker messages; Redis commands and network bytes.

Then, in this process and with politeness off, SQL statements and CPU-ms of one poll, one fetch and one
processed article on a sample of sites, and a check of a cost model built from them against the two-set phase.
docs/capacity.md works from these figures.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import time
import urllib.request
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/wims_hosts")
os.environ.setdefault("CELERY_BROKER_URL", "redis://127.0.0.1:6379/4")
os.environ.setdefault("CELERY_RESULT_BACKEND", os.environ["CELERY_BROKER_URL"])

from tests.bench import bench_webmon as webmon  # noqa: E402 - after the defaults above (it sets its own)

CLK_TCK = os.sysconf("SC_CLK_TCK")
TERMINAL = ("processed", "failed", "duplicate", "not_article")  # not_article: kept out by its kind


# --------------------------------------------------------------------------- measuring


def cpu_seconds(pids) -> float:
    """utime + stime of these processes (those that ended already count nothing)."""
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15 of proc(5))
    return total / CLK_TCK


def session_pids(sid: int) -> list[int]:
    """Every process of a worker's session (start_new_session: the worker and its pool children)."""
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if int((entry / "stat").read_text().rsplit(")", 1)[1].split()[3]) == sid:  # session id
                    pids.append(int(entry.name))
            except (OSError, IndexError, ValueError):
                continue
    return pids


def database_counters() -> dict:
    """This database's counters (pg_stat_database: per database, so other databases' work is not in them)."""
    from django.db import connection

    fields = ("xact_commit", "tup_inserted", "tup_updated", "tup_deleted", "tup_fetched", "blks_read", "blks_hit")
    with connection.cursor() as cur:
        cur.execute(
            f"SELECT {', '.join(fields)}, pg_database_size(current_database()) "  # noqa: S608 - our column names
            "FROM pg_stat_database WHERE datname = current_database()"
        )
        row = cur.fetchone()
    return dict(zip((*fields, "database_bytes"), row, strict=True))


_postmaster: int | None = None


def postgres_cpu_seconds() -> float:
    """CPU of the whole PostgreSQL server: its backends, living and ended, and its own processes.

    A backend that ended (a task's, when Celery closed the connection after every task, as before
    WIMS_WORKER_DB_CONN_MAX_AGE) is gone by the end of the cycle: the postmaster's reaped children's time
    (cutime + cstime) counts it. Server-wide: other databases' work adds to it.
    """
    global _postmaster
    if _postmaster is None:
        from django.db import connection

        with connection.cursor() as cur:
            cur.execute("SELECT pg_backend_pid()")
            mine = cur.fetchone()[0]
        _postmaster = int(Path(f"/proc/{mine}/stat").read_text().rsplit(")", 1)[1].split()[1])
    postmaster = _postmaster
    fields = Path(f"/proc/{postmaster}/stat").read_text().rsplit(")", 1)[1].split()
    reaped = (int(fields[13]) + int(fields[14])) / CLK_TCK  # cutime, cstime
    children = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == postmaster:
                    children.append(int(entry.name))
            except (OSError, IndexError, ValueError):
                continue
    return reaped + cpu_seconds([postmaster, *children])


def redis_counters() -> dict:
    """Redis's server-wide counters: another user of this Redis server adds to them (an upper bound)."""
    import redis

    info = redis.Redis.from_url(os.environ["CELERY_BROKER_URL"]).info()
    return {
        "commands": info["total_commands_processed"],
        "net_in_bytes": info["total_net_input_bytes"],
        "net_out_bytes": info["total_net_output_bytes"],
        "cpu_s": info["used_cpu_user"] + info["used_cpu_sys"],
        "used_memory": info["used_memory"],
    }


def delta(after: dict, before: dict) -> dict:
    return {k: after[k] - before[k] for k in after}


def set_metrics(metrics_dir: Path) -> dict:
    """Tasks by name and fetches by kind that one set's processes counted (its own metrics folder)."""
    from prometheus_client import CollectorRegistry
    from prometheus_client.multiprocess import MultiProcessCollector

    registry = CollectorRegistry()
    MultiProcessCollector(registry, path=str(metrics_dir))
    tasks, fetches = Counter(), Counter()
    for family in registry.collect():
        for sample in family.samples:
            if sample.name == "wims_tasks_total":
                tasks[sample.labels["task"].rsplit(".", 1)[-1]] += int(sample.value)
            elif sample.name == "wims_fetches_total":
                fetches[f"{sample.labels['kind']}:{sample.labels['outcome']}"] += int(sample.value)
    return {"tasks": dict(tasks), "fetches": dict(fetches)}


# --------------------------------------------------------------------------- the sites' side


def site_logs(n_sites: int, port: int) -> list[dict]:
    """Each site's request log and published articles, from the demo server's control endpoints."""
    from demo import synthetic_sites

    def read(address):
        def get(path):
            with urllib.request.urlopen(f"http://{address}:{port}/_control/{path}", timeout=60) as resp:
                return json.load(resp)

        return {
            "address": address,
            "requests": get("requests.json")["requests"],
            "articles": get("articles.json")["articles"],
        }

    with ThreadPoolExecutor(16) as pool:
        return list(pool.map(read, [s.address for s in synthetic_sites(n_sites, webmon.FIRST_ADDRESS)]))


def check_sites(logs: list[dict], delay: float, tolerance: float) -> dict:
    """Article GETs per article page, and the gaps between one site's requests (all sets together)."""
    from urllib.parse import urlsplit

    def page(path, query):
        return f"{path}?{query}" if query else path

    gets, gaps, close, requests = Counter(), [], [], 0
    published = 0
    for log in logs:
        pages = {page(*urlsplit(a["url"])[2:4]) for a in log["articles"]}
        published += len(pages)
        seen = sorted(log["requests"], key=lambda r: r["time"])
        requests += len(seen)
        for a, b in zip(seen, seen[1:], strict=False):
            gaps.append(b["time"] - a["time"])
            if gaps[-1] < delay - tolerance:  # kept for the report: which requests came too close
                close.append([log["address"], a["path"], b["path"], round(gaps[-1], 3)])
        for r in seen:
            if r["method"] == "GET" and page(r["path"], r["query"]) in pages:
                gets[(log["address"], page(r["path"], r["query"]))] += 1
        for path in pages:
            gets.setdefault((log["address"], path), 0)
    per_page = Counter(gets.values())
    return {
        "published": published,
        "requests": requests,
        "article_gets_per_page": {str(k): v for k, v in sorted(per_page.items())},
        "pages_not_fetched": per_page.get(0, 0),
        "pages_fetched_twice_or_more": sum(v for k, v in per_page.items() if k > 1),
        "min_gap_s": min(gaps) if gaps else None,
        "p5_gap_s": sorted(gaps)[len(gaps) // 20] if gaps else None,
        "median_gap_s": statistics.median(gaps) if gaps else None,
        "gaps": len(gaps),
        "gaps_under_delay": sum(g < delay - tolerance for g in gaps),
        "gaps_under_half_delay": sum(g < delay / 2 for g in gaps),
        "closest": sorted(close, key=lambda c: c[-1])[:10],
    }


def check_database(expected: int) -> dict:
    from django.db.models import Count, Sum

    from monitor.models import Article, FetchAttempt

    articles = Article.objects.filter(site__active=True)
    ok_fetches = Counter(
        FetchAttempt.objects.filter(kind="article", outcome="ok", article__site__active=True)
        .values_list("article_id")
        .annotate(n=Count("id"))
        .values_list("n", flat=True)
    )
    return {
        "articles": articles.count(),
        "expected": expected,
        "states": dict(articles.values_list("state").annotate(c=Count("id"))),
        "ok_fetches_per_article": {str(k): v for k, v in sorted(ok_fetches.items())},
        "articles_fetched_twice_or_more": sum(v for k, v in ok_fetches.items() if k > 1),
        "requests_by_kind": dict(
            FetchAttempt.objects.filter(site__active=True).values_list("kind").annotate(c=Count("id"))
        ),
        "request_bytes_by_kind": {
            k: int(v or 0)
            for k, v in FetchAttempt.objects.filter(site__active=True).values_list("kind").annotate(b=Sum("bytes"))
        },
    }


# --------------------------------------------------------------------------- worker sets


def var_root() -> Path:
    """The sets' var/ folders, by database: two runs on two databases never share (nor wipe) a folder."""
    from django.conf import settings

    return ROOT / "var" / "bench-hosts" / settings.DATABASES["default"]["NAME"]


class WorkerSet:
    """What one machine runs: a thread worker for polls and fetches, a prefork worker to process."""

    def __init__(self, name: str, args, index: int):
        self.name = name
        self.var = var_root() / name
        shutil.rmtree(self.var, ignore_errors=True)
        (self.var / "metrics").mkdir(parents=True)
        env = {
            "WIMS_VAR_DIR": str(self.var),
            "PROMETHEUS_MULTIPROC_DIR": str(self.var / "metrics"),  # this process's own would be inherited
            "WIMS_POLITENESS_DELAY": str(args.delay),
            "WIMS_SWEEP_GRACE": "60",
            "DATABASE_CONN_MAX_AGE": "300",
        }
        self.workers = [
            webmon.Worker(2 * index, args.threads, env, queues="celery,poll,fetch", name=f"{name}-net"),
            webmon.Worker(2 * index + 1, args.processes, env, queues="process", pool="prefork", name=f"{name}-process"),
        ]

    def cpu(self) -> dict:
        return {w.log_path.stem: cpu_seconds(session_pids(w.proc.pid)) for w in self.workers}

    def stop(self) -> None:
        for w in self.workers:
            w.stop()


def wait_nodes(count: int, seconds: float = 90) -> None:
    from wims.celery import app

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if len(app.control.ping(timeout=1.0)) >= count:
                return
        except Exception:  # noqa: BLE001 - broker not reachable yet
            pass
        time.sleep(0.5)
    raise RuntimeError(f"fewer than {count} workers answered a ping")


def run_phase(set_names: list[str], args) -> dict:
    """A fresh database and fresh sites, these worker sets, one cold cycle; what it cost and what the sites saw."""
    from django.utils import timezone

    from monitor.models import Article, Site
    from monitor.tasks import dispatch_due_polls

    webmon.reset_database()
    webmon.purge()
    server, port = webmon.start_sites(args.sites, args.published)
    sets = [WorkerSet(name, args, i) for i, name in enumerate(set_names)]
    result: dict = {"sets": set_names, "load_before": os.getloadavg()[0]}
    try:
        wait_nodes(2 * len(sets))
        # CPU from here on: the workers' start (imports, connections) is not the cycle's work
        cpu0 = {s.name: s.cpu() for s in sets}
        postgres0 = postgres_cpu_seconds()
        db0, redis0 = database_counters(), redis_counters()
        since, t0 = timezone.now(), time.monotonic()
        dispatch_due_polls.delay()
        n, expected = args.sites, args.sites * args.published
        polled = webmon.until(
            lambda: Site.objects.filter(active=True, last_poll_at__gte=since).count() >= n, args.timeout
        )
        done = webmon.until(
            lambda: (
                Article.objects.filter(site__active=True).count() >= expected
                and not Article.objects.filter(site__active=True).exclude(state__in=TERMINAL).exists()
            ),
            args.timeout,
            dispatch_every=30,
        )
        elapsed = time.monotonic() - t0
        result.update(
            sites_polled=Site.objects.filter(active=True, last_poll_at__gte=since).count(),
            poll_cycle_s=polled,
            all_done_s=elapsed if done is not None else None,
            articles_per_s=expected / elapsed if done is not None else None,
            worker_cpu_s={s.name: delta(s.cpu(), cpu0[s.name]) for s in sets},
            postgres_cpu_s=postgres_cpu_seconds() - postgres0,
            database=delta(database_counters(), db0),
            redis=delta(redis_counters(), redis0),
            load_after=os.getloadavg()[0],
        )
        result["database"]["database_bytes_after"] = database_counters()["database_bytes"]
        logs = site_logs(n, port)
        (var_root() / f"sites-{len(sets)}.json").write_text(json.dumps(logs))
        result["sites"] = check_sites(logs, args.delay, args.tolerance)
        result["fetch_log"] = check_database(expected)
    finally:
        for s in sets:
            s.stop()
        server.terminate()
        server.join(10)
    result["per_set"] = {s.name: set_metrics(s.var / "metrics") for s in sets}
    print(f"  {set_names}: {json.dumps(result)}", flush=True)
    return result


# --------------------------------------------------------------------------- unit costs, in this process


def unit_costs(args) -> dict:
    """SQL statements, CPU-ms (this process, and its PostgreSQL backend) per poll, fetch and processed article.

    Politeness off, so that only the work is measured; the sites are fresh demo sites as in the cycle (robots.txt
    first, then the home page and a feed). *repoll*: each site polled again once its articles are processed, what
    most polls are (robots.txt known, nothing new). *connect*: a new database connection, as Celery opens per task.
    """
    from django.conf import settings
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from monitor import services
    from monitor.models import Article, Site
    from processing import services as processing

    settings.WIMS_POLITENESS_DELAY = 0.0
    os.environ["WIMS_POLITENESS_DELAY"] = "0"
    webmon.reset_database()
    server, _port = webmon.start_sites(args.sample, args.published)
    with connection.cursor() as cur:
        cur.execute("SELECT pg_backend_pid()")
        backend = cur.fetchone()[0]
    costs: dict[str, dict[str, list]] = {k: {"statements": [], "cpu_ms": [], "pg_cpu_ms": []} for k in STAGES}

    def measured(stage, fn, *a):
        with CaptureQueriesContext(connection) as queries:
            cpu, pg = time.process_time(), cpu_seconds([backend])
            fn(*a)
            costs[stage]["cpu_ms"].append(1000 * (time.process_time() - cpu))
            costs[stage]["pg_cpu_ms"].append(1000 * (cpu_seconds([backend]) - pg))
        costs[stage]["statements"].append(len(queries))

    try:
        for pk in Site.objects.filter(active=True).values_list("pk", flat=True):
            measured("poll", services.poll_site, pk)
        ids = list(Article.objects.filter(state="pending").values_list("id", flat=True))
        for pk in ids:
            measured("fetch", services.fetch_article, pk)
        for pk in ids:
            measured("process", processing.process_article, pk)
        for pk in Site.objects.filter(active=True).values_list("pk", flat=True):
            measured("repoll", services.poll_site, pk)  # the usual poll: robots.txt known, nothing new
        states = dict(Counter(Article.objects.filter(pk__in=ids).values_list("state", flat=True)))
        for _ in range(4 * args.sample):  # what Celery does around every task: a new connection (a new backend)
            connection.close()
            cpu = time.process_time()
            with connection.cursor() as cur:
                cur.execute("SELECT pg_backend_pid()")
                pid = cur.fetchone()[0]
            costs["connect"]["cpu_ms"].append(1000 * (time.process_time() - cpu))
            # the new backend's own CPU from its fork to here: its start, authentication and one query
            costs["connect"]["pg_cpu_ms"].append(1000 * cpu_seconds([pid]))
            costs["connect"]["statements"].append(1)
    finally:
        server.terminate()
        server.join(10)
    # CPU time is counted in clock ticks (10 ms): the mean over the sample, not a single call, is the figure
    return {
        "sample_sites": args.sample,
        "articles": len(ids),
        "states": states,
        **{
            stage: {k: statistics.mean(v) for k, v in figures.items()} | {"n": len(figures["statements"])}
            for stage, figures in costs.items()
        },
    }


STAGES = ("poll", "fetch", "process", "repoll", "connect")


def all_in(phase: dict) -> dict:
    """A phase's totals: what the capacity plan multiplies per article (docs/capacity.md)."""
    tasks = sum(sum(s["tasks"].values()) for s in phase["per_set"].values())
    d = phase["database"]
    return {
        "worker CPU (s)": sum(sum(cpu.values()) for cpu in phase["worker_cpu_s"].values()),
        "PostgreSQL server's CPU (s) ¹": phase["postgres_cpu_s"],
        "transactions": d["xact_commit"],
        "rows written": d["tup_inserted"] + d["tup_updated"] + d["tup_deleted"],
        "database growth (MB)": d["database_bytes"] / 1e6,
        "tasks (broker messages)": tasks,
        "Redis commands ¹": phase["redis"]["commands"],
        "Redis bytes in + out (MB) ¹": (phase["redis"]["net_in_bytes"] + phase["redis"]["net_out_bytes"]) / 1e6,
    }


def model_check(phases: list[dict], units: dict) -> list[dict]:
    """The two-set phase predicted two ways, against what it measured (the capacity plan's check).

    *Per article, one set*: the one-set phase's totals per article, times the two-set phase's articles (the
    capacity plan's method). *Unit costs*: polls × poll + articles × (fetch + processing) + tasks × a new database
    connection, from the in-process sample: what the work costs without Celery's own.
    """
    one, two = phases
    per_article = {k: v / one["fetch_log"]["articles"] for k, v in all_in(one).items()}
    measured = all_in(two)
    articles = two["fetch_log"]["articles"]
    # one poll per site (a poll deferred for a busy host resumes where it stopped: one poll's work in all)
    polls, tasks = two["sites_polled"], measured["tasks (broker messages)"]

    def unit(key):
        work = polls * units["poll"][key] + articles * (units["fetch"][key] + units["process"][key])
        return (work + tasks * units["connect"][key]) / 1000

    model = {"worker CPU (s)": unit("cpu_ms"), "PostgreSQL server's CPU (s) ¹": unit("pg_cpu_ms")}
    return [
        {
            "measure": k,
            "per_article_model": per_article[k] * articles,
            "unit_model": model.get(k),
            "measured": v,
            "ratio": v / (per_article[k] * articles) if per_article[k] else None,
        }
        for k, v in measured.items()
    ]


# --------------------------------------------------------------------------- report


def fmt(value, digits=1):
    return "—" if value is None else f"{value:,.{digits}f}"


def per(value, count, scale=1.0, digits=2):
    return fmt(scale * value / count, digits) if count else "—"


def phase_rows(phases: list[dict]) -> list[str]:
    lines = [
        "| worker sets | poll cycle (s) | all done (s) | articles/s | articles (expected) | states | "
        "article pages GET once / more / never | ok fetches per article >1 | "
        "gap between requests to a site: min / p5 / median (s) | gaps < delay | gaps < delay / 2 |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for p in phases:
        s, f = p["sites"], p["fetch_log"]
        lines.append(
            f"| {len(p['sets'])} | {fmt(p['poll_cycle_s'])} | {fmt(p['all_done_s'])} | {fmt(p['articles_per_s'])} | "
            f"{f['articles']} ({s['published']}) | {', '.join(f'{k} {v}' for k, v in sorted(f['states'].items()))} "
            f"| {s['article_gets_per_page'].get('1', 0)} / {s['pages_fetched_twice_or_more']} / "
            f"{s['pages_not_fetched']} | {f['articles_fetched_twice_or_more']} | {fmt(s['min_gap_s'], 3)} / "
            f"{fmt(s['p5_gap_s'], 3)} / {fmt(s['median_gap_s'], 3)} | "
            f"{s['gaps_under_delay']} of {s['gaps']} | {s['gaps_under_half_delay']} |"
        )
    return lines


def cost_rows(phases: list[dict]) -> list[str]:
    lines = [
        "| worker sets | network workers' CPU-ms per request | processing workers' CPU-ms per article | "
        "PostgreSQL CPU-ms per article ¹ | transactions per article | rows written per article | rows read per "
        "article | database growth per article (KB) | tasks (broker messages) per article | Redis commands per "
        "article ¹ | Redis bytes in+out per article ¹ |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for p in phases:
        a = p["fetch_log"]["articles"]
        requests = sum(p["fetch_log"]["requests_by_kind"].values())
        net = sum(v for cpu in p["worker_cpu_s"].values() for k, v in cpu.items() if k.endswith("-net"))
        proc = sum(v for cpu in p["worker_cpu_s"].values() for k, v in cpu.items() if k.endswith("-process"))
        d, r = p["database"], p["redis"]
        tasks = sum(sum(s["tasks"].values()) for s in p["per_set"].values())
        lines.append(
            f"| {len(p['sets'])} | {per(net, requests, 1000)} | {per(proc, a, 1000)} | "
            f"{per(p['postgres_cpu_s'], a, 1000)} | {per(d['xact_commit'], a, digits=1)} | "
            f"{per(d['tup_inserted'] + d['tup_updated'] + d['tup_deleted'], a, digits=1)} | "
            f"{per(d['tup_fetched'], a, digits=0)} | {per(d['database_bytes'], a, 1 / 1024, 1)} | "
            f"{per(tasks, a)} | {per(r['commands'], a, digits=0)} | "
            f"{per(r['net_in_bytes'] + r['net_out_bytes'], a, digits=0)} |"
        )
    return lines


def intro_lines(phases: list[dict], args) -> list[str]:
    one, two = phases
    ratio = (two["articles_per_s"] or 0) / (one["articles_per_s"] or 1)
    return [
        "# Two hosts, one database",
        "",
        f"`make bench-hosts` ({time.strftime('%Y-%m-%d')}): {args.sites} synthetic demo sites (bench-webmon's: each "
        f"on its own loopback address, {args.published} published articles each), PostgreSQL + Redis, politeness "
        f"delay {args.delay:g} s per host. A worker set is what one machine runs: a thread worker "
        f"(`-P threads -c {args.threads}`, queues celery, poll, fetch) and a prefork worker (`-c {args.processes}`, "
        "queue process), with node names and a `var/` folder (`WIMS_VAR_DIR`, metrics included) of their own. "
        "Two phases in one run, each on a fresh database and fresh sites, one cold cycle each (every site due at "
        "once, robots.txt first): **one set**, then **two sets** sharing the database and the broker. "
        f"Machine: {os.cpu_count()} cores, shared by the demo server, every worker, PostgreSQL and Redis: the two "
        "sets compete for the same cores (and with anything else running), so the ratio is not the capacity a "
        "second machine adds; CPU per article is the figure that carries over.",
        "",
        f"**Two sets against one: ×{ratio:.2f} articles/s** (cold cycle, all fetched and processed).",
        "",
        *phase_rows(phases),
        "",
        "*Article pages GET once / more / never*: counted on the sites' side (the demo server's request log), "
        "whichever set asked. *ok fetches per article >1*: the fetch log's view (`FetchAttempt`, kind article, "
        f"outcome ok). *Gaps < delay*: consecutive requests to one site's address less than the delay apart "
        f"(tolerance {args.tolerance:g} s for the server's own timing), both sets together.",
        "",
        "Work per set in the two-set phase (its own metrics folder):",
        "",
        "| set | polls | fetches | processed | requests by kind:outcome |",
        "|---|---|---|---|---|",
    ]


def per_set_lines(two: dict) -> list[str]:
    lines = []
    for name, figures in two["per_set"].items():
        t = figures["tasks"]
        lines.append(
            f"| {name} | {t.get('poll_site', 0)} | {t.get('fetch_article', 0)} | {t.get('process_article', 0)} | "
            + ", ".join(f"{k} {v}" for k, v in sorted(figures["fetches"].items()))
            + " |"
        )
    return lines


def unit_lines(units: dict, checks: list[dict]) -> list[str]:
    return [
        f"## Unit costs (one process, politeness off, {units['sample_sites']} sites, {units['articles']} articles)",
        "",
        "| stage | SQL statements | CPU-ms (Python) | CPU-ms (its PostgreSQL backend) |",
        "|---|---|---|---|",
        *(
            f"| {stage} | {units[stage]['statements']:.1f} | {units[stage]['cpu_ms']:.2f} | "
            f"{units[stage]['pg_cpu_ms']:.2f} |"
            for stage in STAGES
        ),
        "",
        f"Sample articles' states after processing: {units['states']}. CPU is counted in 10 ms clock ticks: "
        "the figures are means over the sample.",
        "",
        "## The unit costs against the two-set run",
        "",
        "The two-set phase predicted from the one-set phase's costs per article (what docs/capacity.md does), and "
        "from the unit costs (polls × poll + articles × (fetch + processing) + tasks × a new database connection: "
        "the work without Celery's own costs), against what it measured:",
        "",
        "| measure | model: one set's cost per article | model: unit costs | measured | measured / one set's model |",
        "|---|---|---|---|---|",
        *(
            f"| {c['measure']} | {fmt(c['per_article_model'])} | {fmt(c['unit_model'])} | {fmt(c['measured'])} | "
            f"{fmt(c['ratio'], 2)} |"
            for c in checks
        ),
        "",
    ]


def storage_lines(storage: dict) -> list[str]:
    return [
        f"## Storage after the two-set phase ({storage['articles']} articles)",
        "",
        "| table | rows | bytes | bytes per row | KB per article |",
        "|---|---|---|---|---|",
        *(
            f"| {t['table']} | {t['rows']:,} | {t['bytes']:,} | {per(t['bytes'], t['rows'], digits=0)} | "
            f"{per(t['bytes'], storage['articles'], 1 / 1024, 2)} |"
            for t in storage["tables"][:12]
        ),
        "",
    ]


def write_report(phases: list[dict], units: dict, storage: dict, checks: list[dict], args) -> Path:
    tasks_two = Counter()
    for figures in phases[1]["per_set"].values():
        tasks_two.update(figures["tasks"])
    lines = [
        *intro_lines(phases, args),
        *per_set_lines(phases[1]),
        "",
        "## Costs measured in the run",
        "",
        *cost_rows(phases),
        "",
        "¹ Redis's counters are the server's (`INFO`): any other user of this Redis server during the run adds to "
        "them, so they are an upper bound; so is the PostgreSQL server's CPU (`/proc`: the postmaster, its processes "
        "and the ended backends it reaped; Celery opens a connection, so a backend, per task), which counts other "
        "databases' work too. Workers' CPU: utime + stime of each worker's process tree from the start of the "
        "cycle to its end. Rows and transactions: "
        "`pg_stat_database` of this database.",
        "",
        f"Tasks in the two-set phase: {', '.join(f'{k} {v}' for k, v in sorted(tasks_two.items()))}.",
        "",
        *unit_lines(units, checks),
        *storage_lines(storage),
        "Raw numbers:",
        "",
        "```json",
        json.dumps({"phases": phases, "units": units, "checks": checks, "storage": storage}, indent=1),
        "```",
        "",
    ]
    out = ROOT / "docs" / "benchmarks" / args.report
    out.write_text("\n".join(lines))
    return out


def measure_storage() -> dict:
    from wims import storage

    s = storage.measure()
    return {"articles": s.articles, "total": s.total, "tables": [t.__dict__ for t in s.tables]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sites", type=int, default=1000)
    parser.add_argument("--published", type=int, default=2, help="articles per site at start")
    parser.add_argument("--threads", type=int, default=24, help="threads of each set's network worker")
    parser.add_argument("--processes", type=int, default=os.cpu_count() or 2, help="each set's processing worker")
    parser.add_argument("--delay", type=float, default=2.0, help="politeness delay per host (s)")
    parser.add_argument("--tolerance", type=float, default=0.05, help="timing slack when checking gaps (s)")
    parser.add_argument("--timeout", type=float, default=900)
    parser.add_argument("--sample", type=int, default=50, help="sites for the unit costs")
    parser.add_argument("--report", default="hosts.md", help="file name under docs/benchmarks/")
    parser.add_argument("--units-only", action="store_true", help="the unit costs alone, printed (no report)")
    args = parser.parse_args()
    webmon.ensure_database()
    webmon.setup_django()
    webmon.reset_database()
    if args.units_only:
        print(json.dumps(unit_costs(args), indent=1))
        return
    phases = []
    for sets in (["host-a"], ["host-a", "host-b"]):
        print(f"{len(sets)} worker set(s), {args.sites} sites ...", flush=True)
        phases.append(run_phase(sets, args))
    storage = measure_storage()
    print("unit costs ...", flush=True)
    units = unit_costs(args)
    checks = model_check(phases, units)
    print(json.dumps({"units": units, "checks": checks}), flush=True)
    print(f"report: {write_report(phases, units, storage, checks, args)}")


if __name__ == "__main__":
    main()
