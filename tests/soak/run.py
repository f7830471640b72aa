"""The soak test of the live stack: ``make soak`` (``python -m tests.soak.run --minutes N``).

It starts the real stack as ``make run`` does (``manage.py runall --demo``: web, three workers, beat and the
demo sites, each supervised) on a database and broker of its own, plus the hostile sites of
``tests/soak/hostile.py``; an expert accepts suggestions through the web while it runs. Faults come on a
schedule: SIGKILL of each worker, of the beat and of the web server, and, on Redis, a 60 s broker outage (a
redis-server of its own, stopped and started again). Then it lets the work drain and asserts:

* no process is left dead (runall restarted each killed one);
* every article the demo sites published (all but the last two minutes' worth) was processed exactly once,
  by canonical URL and by content, with one case each;
* no row stayed in a working state past its lease (sampled all along);
* every processed article's page and filter view, and every feed entry, answer 200;
* each hostile case left its own recorded error;
* the demo sites' polls kept their schedule while the hostile sites misbehaved;
* worker memory stayed bounded.

Backends: ``DATABASE_URL`` (PostgreSQL: a database ``<name>_soak`` is created and dropped) or SQLite;
``CELERY_BROKER_URL`` set to ``redis://…`` runs a redis-server of its own on a free port, else the embedded
filesystem broker. ``--report FILE`` writes the figures as Markdown (docs/benchmarks/soak.md).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict
from datetime import UTC, datetime, timedelta
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import requests

from tests.redis_server import RedisServer, free_port

ROOT = Path(__file__).resolve().parents[2]
LEASE_GRACE = 60  # seconds a row may stay in a working state past its lease before the sweep must have acted
DRAIN_MARGIN = 150  # articles published this close to the end need not be processed yet
OUTAGE = 60
MIN_MINUTES = 6
MEMORY_CAP_MB = 600  # per role (a worker with its pool processes)
ROLES = ("web", "worker-dispatch", "worker-net", "worker-process", "beat", "demo-sites")


def log(text: str) -> None:
    print(f"[soak {datetime.now(UTC):%H:%M:%S}] {text}", flush=True)


# --------------------------------------------------------------------------- processes


def children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return [int(p) for p in f.read().split()]
    except OSError:
        return []


def cmdline(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def rss_mb(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def role_of(command: str) -> str | None:
    if "runserver" in command:
        return "web"
    for name in ("dispatch", "net", "process"):
        if f"-n {name}@" in command:
            return f"worker-{name}"
    if " beat " in command:
        return "beat"
    if "-m demo" in command:
        return "demo-sites"
    return None


def stack_processes(runall_pid: int) -> dict[str, int]:
    """The supervised children of runall, by role."""
    found = {}
    for pid in children(runall_pid):
        role = role_of(cmdline(pid))
        if role:
            found[role] = pid
    return found


def role_memory(pid: int) -> float:
    """RSS of a process and its children (a prefork worker's pool)."""
    return rss_mb(pid) + sum(rss_mb(c) for c in children(pid))


# --------------------------------------------------------------------------- backends


def postgres_admin(url: str, sql: str) -> None:
    import psycopg2

    parts = urlsplit(url)
    conn = psycopg2.connect(urlunsplit(parts._replace(path="/postgres")))
    try:
        conn.autocommit = True
        with conn.cursor() as cursor:
            cursor.execute(sql)
    finally:
        conn.close()


# --------------------------------------------------------------------------- the run


class Soak:
    def __init__(self, minutes: float, workdir: Path):
        self.duration = minutes * 60
        self.workdir = workdir
        self.env = dict(os.environ)
        self.env.update(
            DEBUG="1",
            PYTHONUNBUFFERED="1",
            WIMS_VAR_DIR=str(workdir / "var"),
            WIMS_ADDR=f"127.0.0.1:{free_port()}",
            WIMS_DEMO_PORT=str(free_port()),
            # the 404-then-200 case is retried within the run (production waits 15 min, then doubles)
            WIMS_MISSING_PAGE_DELAY="20",
            # the memory-bomb case: a page within the door's limits (6.5 MB, 996,000 tags, 475 MB to read in a
            # bare process) whose processing runs past a processing child's data cap (wims/worker.py)
            WIMS_MAX_BYTES=str(8 * 1024 * 1024),
            WIMS_TASK_MEMORY_MB="384",
            # and a child grown by it is replaced after its task (its freed heap stays with the process otherwise:
            # two children kept 740 MB after the bombs, past MEMORY_CAP_MB)
            WIMS_MAX_MEMORY_PER_CHILD_MB="300",
        )
        self.redis: RedisServer | None = None
        self.db_name = None
        broker = os.environ.get("CELERY_BROKER_URL", "")
        if broker.startswith("redis://"):
            self.redis = RedisServer(workdir)
            self.env["CELERY_BROKER_URL"] = self.redis.url
            self.env.pop("CELERY_RESULT_BACKEND", None)
        else:
            self.env.pop("CELERY_BROKER_URL", None)
        database = os.environ.get("DATABASE_URL", "")
        if database.startswith("postgres"):
            parts = urlsplit(database)
            self.db_name = (parts.path.strip("/") or "wims") + "_soak"
            self.env["DATABASE_URL"] = urlunsplit(parts._replace(path="/" + self.db_name))
            self.admin_url = database
        self.backend = f"{'PostgreSQL' if self.db_name else 'SQLite'} + {'Redis' if self.redis else 'embedded broker'}"
        self.faults: list[dict] = []
        self.samples: list[dict] = []
        self.memory: dict[str, list[float]] = defaultdict(list)
        self.overdue: list[str] = []
        self.expert = Counter()
        self.stack: subprocess.Popen | None = None
        self.hostile = None
        self.intruder = None
        self.stop_event = threading.Event()

    # -- set-up ------------------------------------------------------------------------------------------
    def manage(self, *args: str) -> None:
        subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=self.env, check=True)

    def setup(self) -> None:
        if self.db_name:
            postgres_admin(self.admin_url, f'DROP DATABASE IF EXISTS "{self.db_name}" WITH (FORCE)')
            postgres_admin(self.admin_url, f'CREATE DATABASE "{self.db_name}"')
        if self.redis:
            self.redis.start()
        self.manage("migrate", "--noinput", "-v", "0")
        self.manage("bootstrap", "--demo")
        os.environ.update({k: v for k, v in self.env.items() if k.startswith(("WIMS_", "DATABASE_URL", "DEBUG"))})
        if not self.db_name:
            os.environ.pop("DATABASE_URL", None)
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "wims.settings")
        sys.path.insert(0, str(ROOT))
        import django

        django.setup()
        from tests.soak.hostile import HostileServer

        self.hostile = HostileServer(port=free_port()).start()
        from monitor.models import Site

        for site in self.hostile.sites:
            Site.objects.create(
                name=f"Hostile: {site.case}",
                home_url=site.home_url(self.hostile.port),
                include_patterns=r"/story/",
                allow_private_addresses=True,
                poll_interval=60,
            )
        from tests.soak.intruder import Intruder

        self.intruder = Intruder()
        self.intruder.setup("Hostile: deep-nesting")
        self.stack_log = open(self.workdir / "stack.log", "w")  # noqa: SIM115 - closed in teardown
        self.stack = subprocess.Popen(
            [sys.executable, "manage.py", "runall", "--demo"],
            cwd=ROOT,
            env=self.env,
            stdout=self.stack_log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self.web = "http://" + self.env["WIMS_ADDR"]
        self.wait(lambda: self._get(self.web + "/healthz").status_code in (200, 503), 120, "the web app")
        self.wait(lambda: set(stack_processes(self.stack.pid)) == set(ROLES), 120, "every process of the stack")

    def _get(self, url: str, session=None, **kw):
        try:
            return (session or requests).get(url, timeout=10, **kw)
        except requests.RequestException:
            return requests.Response()

    def wait(self, predicate, timeout: float, what: str) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if predicate():
                return
            time.sleep(1)
        raise RuntimeError(f"timed out waiting for {what}")

    # -- faults ------------------------------------------------------------------------------------------
    def schedule(self) -> list[tuple[float, str]]:
        """Faults at fixed fractions of each 10-minute cycle (a 2-hour run goes through 12 cycles)."""
        cycle = min(600.0, self.duration)
        plan = [
            (0.15, "kill worker-net"),
            (0.25, "kill worker-process"),
            (0.35, "kill worker-dispatch"),
            (0.45, "kill web"),
            (0.50, "kill beat"),
            (0.60, "site administrator edits URLs"),
        ]
        if self.redis:
            plan.append((0.55, "broker outage"))
        events = []
        start = 0.0
        while start < self.duration:
            events += [(start + f * cycle, what) for f, what in plan if start + f * cycle < self.duration - 60]
            start += cycle
        return events

    def inject(self, what: str) -> None:
        assert self.stack is not None
        at = datetime.now(UTC)
        if what == "site administrator edits URLs":
            assert self.intruder is not None
            self.intruder.attempt(self.web)
        elif what == "broker outage":
            assert self.redis is not None
            self.redis.stop()
            time.sleep(OUTAGE)
            self.redis.start()
        else:
            role = what.split(" ", 1)[1]
            pid = stack_processes(self.stack.pid).get(role)
            if pid is None:
                self.faults.append({"at": at.isoformat(), "fault": what, "result": "no such process"})
                return
            os.kill(pid, signal.SIGKILL)
        self.faults.append({"at": at.isoformat(), "fault": what, "result": "done"})
        log(f"fault: {what}")

    # -- observation -------------------------------------------------------------------------------------
    def sample(self) -> None:
        from django.db import close_old_connections
        from django.utils import timezone

        from monitor.models import Article

        close_old_connections()
        assert self.stack is not None
        procs = stack_processes(self.stack.pid)
        for role, pid in procs.items():
            self.memory[role].append(role_memory(pid))
        late = timezone.now() - timedelta(seconds=LEASE_GRACE)
        overdue = list(
            Article.objects.filter(state__in=("fetching", "processing"), lease_until__lt=late).values_list(
                "url", "state", "lease_until"
            )
        )
        for url, state, lease in overdue:
            self.overdue.append(f"{url} {state} lease {lease:%H:%M:%S}")
        counts = Counter(Article.objects.values_list("state", flat=True))
        self.samples.append({"t": time.monotonic(), "procs": sorted(procs), "states": dict(counts)})

    def expert_loop(self) -> None:
        """An expert in the browser: logs in, opens the inbox, accepts what a rule suggested."""
        from django.db import close_old_connections

        from classifier.models import Classification

        session = requests.Session()
        logged_in = False
        while not self.stop_event.wait(30):
            close_old_connections()
            try:
                if not logged_in:
                    page = session.get(self.web + "/accounts/login/", timeout=10)
                    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text)
                    resp = session.post(
                        self.web + "/accounts/login/",
                        data={"username": "demo", "password": "demo-wims", "csrfmiddlewaretoken": token.group(1)},
                        headers={"Referer": self.web + "/accounts/login/"},
                        timeout=10,
                    )
                    logged_in = resp.ok and "sessionid" in session.cookies
                    continue
                self.expert["inbox " + str(session.get(self.web + "/", timeout=10).status_code)] += 1
                pending = Classification.objects.filter(state="suggested").values_list("case__article_id", flat=True)
                for article_id in list(pending[:3]):
                    resp = session.post(
                        f"{self.web}/articles/{article_id}/accept",
                        headers={"X-CSRFToken": session.cookies.get("csrftoken", ""), "Referer": self.web + "/"},
                        timeout=10,
                    )
                    self.expert["accept " + str(resp.status_code)] += 1
            except (requests.RequestException, AttributeError) as exc:
                self.expert["error " + type(exc).__name__] += 1

    def seed_rule(self) -> None:
        """A rule on a frequent keyword of the first processed demo articles, so that feeds have entries."""
        from django.contrib.auth import get_user_model

        from classifier import services
        from classifier.models import Case

        cases = list(Case.objects.exclude(article__site__name__startswith="Hostile").order_by("id")[:6])
        if not cases:
            return
        common = Counter(k for c in cases for k in set(c.keywords)).most_common(1)[0][0]
        user = get_user_model().objects.get(username="demo")
        folder = services.create_folder("Soak/Common", user, public=True)
        services.commit_rule(cases[0], "new", user, folder=folder, conditions=[common])
        log(f"seeded rule: {common!r} -> Soak/Common")

    # -- the run -----------------------------------------------------------------------------------------
    def run(self) -> dict:
        started = time.monotonic()
        self.started_at = datetime.now(UTC)
        events = self.schedule()
        expert = threading.Thread(target=self.expert_loop, daemon=True)
        expert.start()
        seeded = False
        next_sample = 0.0
        while (elapsed := time.monotonic() - started) < self.duration:
            if events and elapsed >= events[0][0]:
                self.inject(events.pop(0)[1])
            if elapsed >= next_sample:
                self.sample()
                next_sample = elapsed + 15
                if not seeded and elapsed > 120:
                    self.seed_rule()
                    seeded = True
            if self.stack.poll() is not None:
                raise RuntimeError(f"runall exited with {self.stack.returncode}; see {self.workdir / 'stack.log'}")
            time.sleep(1)
        self.ended_at = datetime.now(UTC)
        log("load phase over; draining")
        self.drain()
        self.stop_event.set()
        expert.join(timeout=15)
        return self.verify()

    def demo_published(self) -> dict[str, datetime]:
        from demo.sites import DEMO_SITES

        port = self.env["WIMS_DEMO_PORT"]
        published = {}
        for spec in DEMO_SITES:
            data = requests.get(f"http://{spec.address}:{port}/_control/articles.json", timeout=10).json()
            for entry in data["articles"]:
                published[entry["url"]] = datetime.fromisoformat(entry["published"])
        return published

    def expected(self) -> set[str]:
        cutoff = self.ended_at - timedelta(seconds=DRAIN_MARGIN)
        return {url for url, when in self.demo_published().items() if when <= cutoff}

    def drain(self, timeout: float = 300) -> None:
        from django.db import close_old_connections

        from monitor.models import Article

        expected = self.expected()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            close_old_connections()
            done = set(Article.objects.filter(state="processed").values_list("canonical_url", flat=True))
            if expected <= done:
                return
            time.sleep(5)
        log(f"drain: {len(expected - done)} articles still not processed after {timeout:g} s")

    # -- checks ------------------------------------------------------------------------------------------
    def verify(self) -> dict:
        from django.db import close_old_connections
        from django.db.models import Count

        from monitor.models import Article, Site

        close_old_connections()
        failures: list[str] = []
        assert self.stack is not None
        alive = stack_processes(self.stack.pid)
        dead = sorted(set(ROLES) - set(alive))
        if self.stack.poll() is not None or dead:
            failures.append(f"processes dead at the end: {dead or 'runall itself'}")

        demo_sites = Site.objects.exclude(name__startswith="Hostile")
        articles = self.check_articles(demo_sites, failures)
        if self.overdue:
            failures.append(f"{len(self.overdue)} rows past their lease: {self.overdue[:5]}")

        rows = Article.objects.filter(site__in=demo_sites)
        pages = self.check_pages(rows.filter(state="processed").values_list("id", flat=True))
        if pages["failed"]:
            failures.append(f"pages not answering 200: {pages['failed'][:5]}")

        hostile = self.check_hostile()
        failures += [f"hostile {case}: {problem}" for case, problem in hostile["problems"].items()]
        assert self.intruder is not None
        hostile["seen"]["site administrator"], problems = self.intruder.verify()
        failures += [f"site administrator: {problem}" for problem in problems]

        polls = self.check_polls(demo_sites, failures)
        memory = self.check_memory(failures)
        stack_text = (self.workdir / "stack.log").read_text(errors="replace")
        restarts = Counter(re.findall(r"^(\S+): starting again", stack_text, re.M))
        errors_by_kind = Counter(
            _kind(e) for e in Article.objects.exclude(last_error="").values_list("last_error", flat=True)
        )
        states = dict(Article.objects.values_list("state").annotate(n=Count("id")).order_by())
        from wims import storage  # after django.setup()

        results_dir = self.workdir / "var" / "broker" / "results"
        return {
            "storage": storage.as_markdown(storage.measure()),
            "result_files": sum(1 for _ in results_dir.iterdir()) if results_dir.is_dir() else None,
            "backend": self.backend,
            "minutes": round(self.duration / 60, 1),
            "started": self.started_at.isoformat(timespec="seconds"),
            "faults": Counter(f["fault"] for f in self.faults if f["result"] == "done"),
            "restarts": dict(restarts),
            **articles,
            "states": states,
            "errors_by_kind": dict(errors_by_kind.most_common()),
            "pages": {k: v for k, v in pages.items() if k != "failed"},
            "hostile": hostile["seen"],
            "polls": polls,
            "memory_mb": memory,
            "overdue_rows": len(self.overdue),
            "expert": dict(self.expert),
            "failures": failures,
        }

    def check_articles(self, demo_sites, failures: list[str]) -> dict:
        """Every article the demo sites published processed once, nothing else fetched, a case for each; the
        figures of the report, the problems added to ``failures``."""
        from classifier.models import Case
        from demo.sites import DEMO_SITES, report_url
        from monitor.models import Article

        expected = self.expected()
        rows = Article.objects.filter(site__in=demo_sites)
        by_canonical = Counter(rows.filter(state="processed").values_list("canonical_url", flat=True))
        missing = sorted(u for u in expected if by_canonical[u] == 0)
        twice = sorted(u for u, n in by_canonical.items() if n > 1)
        hashes = Counter(rows.filter(state="processed").values_list("content_hash", flat=True))
        same_content = sorted(h for h, n in hashes.items() if n > 1 and h)
        # the demo sites link tag, writer, archive, pagination, shop and forum pages too (issue 33): none is fetched;
        # their special reports, at a story's address, are fetched and kept out by their kind
        port = self.env["WIMS_DEMO_PORT"]
        reports = dict.fromkeys(u for s in DEMO_SITES if (u := report_url(s, f"http://{s.address}:{port}")))
        reports |= dict(rows.filter(url__in=reports).values_list("url", "state"))
        not_ok = list(
            rows.exclude(state="processed").exclude(url__in=reports).values_list("url", "state", "last_error")
        )
        published = set(self.demo_published()) | set(reports)
        not_articles = sorted(u for u, c in rows.values_list("url", "canonical_url") if not {u, c} & published)
        not_articles += sorted(u for u, state in reports.items() if state not in (None, "not_article"))
        cases = Case.objects.filter(article__site__in=demo_sites).count()
        processed = sum(by_canonical.values())
        if missing:
            failures.append(f"{len(missing)} published articles never processed: {missing[:5]}")
        if twice:
            failures.append(f"{len(twice)} articles processed twice: {twice[:5]}")
        if same_content:
            failures.append(f"{len(same_content)} contents processed twice")
        if not_articles:
            failures.append(f"{len(not_articles)} demo pages that are no article fetched: {not_articles[:5]}")
        if cases != processed:
            failures.append(f"{cases} cases for {processed} processed articles")
        return {
            "demo_published_expected": len(expected),
            "demo_processed": processed,
            "missing": len(missing),
            "processed_twice": len(twice),
            "same_content_twice": len(same_content),
            "demo_not_processed": not_ok[:10],
            "demo_not_articles": len(not_articles),
            "cases": cases,
        }

    def check_polls(self, demo_sites, failures: list[str]) -> dict:
        """Each demo site polled on its schedule (a gap allowed across an outage or a killed worker)."""
        from monitor.models import FetchAttempt
        from monitor.services import POLL_RUN_LEASE

        polls = {}
        net_kills = [datetime.fromisoformat(f["at"]) for f in self.faults if f["fault"] == "kill worker-net"]
        for site in demo_sites:
            times = sorted(
                FetchAttempt.objects.filter(site=site, url=site.home_url).values_list("started_at", flat=True)
            )
            gaps = [(b - a).total_seconds() for a, b in zip(times, times[1:], strict=False)]
            polls[site.name] = {
                "polls": len(times),
                "interval": site.poll_interval,
                "median_gap": round(statistics.median(gaps), 1) if gaps else None,
                "max_gap": round(max(gaps), 1) if gaps else None,
            }
            limit = 2 * site.poll_interval + (OUTAGE + 30 if self.redis else 30)
            # A poll in flight when its worker was killed comes back once its run lease is over, at the next beat.
            killed_limit = max(limit, POLL_RUN_LEASE.total_seconds() + 60 + (OUTAGE if self.redis else 0))
            over = [
                (a, gap)
                for a, gap in zip(times, gaps, strict=False)
                if gap > (killed_limit if any(a <= kill <= a + timedelta(seconds=gap) for kill in net_kills) else limit)
            ]
            if not gaps:
                failures.append(f"{site.name}: {len(times)} poll(s) in the run, too few to judge the schedule")
            elif over:
                a, gap = max(over, key=lambda item: item[1])
                failures.append(
                    f"{site.name}: polls off schedule ({gap:.0f} s without a poll after {a:%H:%M:%S}; limit {limit} s,"
                    f" {killed_limit:.0f} s across a kill of worker-net)"
                )
            elif statistics.median(gaps) > 1.25 * site.poll_interval:  # the beat's rhythm, not a beat late
                failures.append(f"{site.name}: polls every {statistics.median(gaps):.0f} s, not {site.poll_interval} s")
        return polls

    def check_memory(self, failures: list[str]) -> dict:
        """Each role's memory: first, peak, and the highest once settled (after the first quarter), under the cap."""
        memory = {}
        for role, values in self.memory.items():
            settled = values[len(values) // 4 :] or values
            memory[role] = {
                "first_mb": round(values[0], 1),
                "max_mb": round(max(settled), 1),
                "peak_mb": round(max(values), 1),
            }
            if max(settled) > MEMORY_CAP_MB:
                failures.append(f"{role} memory {max(settled):.0f} MB > {MEMORY_CAP_MB} MB")
        return memory

    def check_pages(self, ids) -> dict:
        """Every processed article's page and filter view, and every entry of the feeds, answer 200."""
        session = requests.Session()
        page = session.get(self.web + "/accounts/login/", timeout=10)
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text).group(1)
        session.post(
            self.web + "/accounts/login/",
            data={"username": "demo", "password": "demo-wims", "csrfmiddlewaretoken": token},
            headers={"Referer": self.web + "/accounts/login/"},
            timeout=10,
        )
        checked, failed = Counter(), []
        for pk in ids:
            for path in (f"/articles/{pk}/", f"/articles/{pk}/filters"):
                status = session.get(self.web + path, timeout=30).status_code
                checked[path.rsplit("/", 2)[-1] or "page"] += 1
                if status != 200:
                    failed.append(f"{path} {status}")
        feed = session.get(self.web + "/feeds/all/rss/", timeout=30)
        if feed.status_code != 200:
            failed.append(f"/feeds/all/rss/ {feed.status_code}")
        entries = re.findall(r"<link>([^<]+)</link>", feed.text)[1:]  # the first is the channel's
        for link in entries:
            status = session.get(link, timeout=30).status_code
            checked["feed entry"] += 1
            if status != 200:
                failed.append(f"feed entry {link} {status}")
        return {"article pages": len(list(ids)), "feed entries": len(entries), "failed": failed}

    def check_hostile(self) -> dict:
        from monitor.models import Article, Site
        from tests.soak.hostile import CASES

        seen, problems = {}, {}
        for case, (where, text) in CASES.items():
            site = Site.objects.get(name=f"Hostile: {case}")
            errors = list(Article.objects.filter(site=site).values_list("state", "last_error"))
            if where == "site":
                found = text in site.last_error
                seen[case] = site.last_error.splitlines()[0][:160] if site.last_error else "(no error)"
            elif where == "some":  # some stories refused with the error, the others processed
                found = any(text in e for _, e in errors) and all(s == "processed" or text in e for s, e in errors)
                found = found and _learned_without_refused(site)
                seen[case] = "; ".join(sorted({f"{s}: {e[:100]}" for s, e in errors})) or "(no article)"
            elif where == "processed":
                found = bool(errors) and all(state == "processed" for state, _ in errors)
                seen[case] = ", ".join(sorted(state for state, _ in errors)) or "(no article)"
            else:  # "a|b": either error (a bound, or the quarantine of work that killed its worker)
                found = bool(errors) and all(any(t in error for t in text.split("|")) for _, error in errors)
                seen[case] = "; ".join(sorted({f"{s}: {e[:100]}" for s, e in errors})) or "(no article)"
            if not found:
                problems[case] = f"expected {text!r} ({where}), got {seen[case]!r}"
        return {"seen": seen, "problems": problems}

    # -- tear-down ---------------------------------------------------------------------------------------
    def teardown(self) -> None:
        self.stop_event.set()
        if self.stack and self.stack.poll() is None:
            os.killpg(self.stack.pid, signal.SIGTERM)
            try:
                self.stack.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(self.stack.pid, signal.SIGKILL)
        if self.hostile:
            self.hostile.stop()
        if self.intruder:
            self.intruder.stop()
        if self.redis:
            self.redis.stop()
        from django.db import connections

        connections.close_all()
        if self.db_name:
            postgres_admin(self.admin_url, f'DROP DATABASE IF EXISTS "{self.db_name}" WITH (FORCE)')


def _learned_without_refused(site) -> bool:
    """The site learned its filter profile from its readable pages only (none that the door refused)."""
    from filters.models import SiteProfile
    from monitor.models import Article

    profile = SiteProfile.objects.filter(site=site, learned_at__isnull=False).first()
    refused = set(Article.objects.filter(site=site, state="failed").values_list("url", flat=True))
    return profile is not None and bool(profile.learned_from) and not refused & set(profile.learned_from)


def _kind(error: str) -> str:
    """An error message without its URLs and numbers, to count errors by kind."""
    first = error.splitlines()[0] if error else ""
    first = re.sub(r"https?://\S+|'[^']*'|\d[\d.,]*", "…", first)
    return first[:80]


def report_markdown(result: dict, command: str) -> str:
    failures = "\n".join(f"- {f}" for f in result["failures"])
    verdict = f"FAILED:\n{failures}" if failures else "PASSED: no failure."
    lines = [
        "# Soak test of the live stack",
        "",
        f"`{command}` on {result['backend']}, {result['minutes']} minutes from {result['started']} (UTC).",
        "Generated by tests/soak/run.py; what it does and asserts is in its docstring.",
        "",
        "## Verdict",
        "",
        verdict,
        "",
        "## Faults injected and restarts",
        "",
        "| fault | times |",
        "|---|---:|",
        *[f"| {k} | {v} |" for k, v in sorted(result["faults"].items())],
        "",
        "Restarts by runall: " + (", ".join(f"{k} {v}" for k, v in sorted(result["restarts"].items())) or "none"),
        "",
        "## Articles",
        "",
        f"**Lost: {result['missing']} · doubled: {result['processed_twice'] + result['same_content_twice']}** "
        "(published and never processed; processed twice by canonical URL or by content).",
        "",
        f"- demo articles published (up to {DRAIN_MARGIN} s before the end): {result['demo_published_expected']}",
        f"- processed: {result['demo_processed']}; never processed: {result['missing']}; "
        f"processed twice (canonical URL): {result['processed_twice']}; same content twice: "
        f"{result['same_content_twice']}; cases: {result['cases']}",
        f"- demo pages fetched that are no article (tags, writers, listings, shop, forum...): "
        f"{result['demo_not_articles']}",
        f"- rows past their lease (sampled every 15 s): {result['overdue_rows']}",
        f"- all articles by state: {json.dumps(result['states'], sort_keys=True)}",
        f"- pages checked (200 each): {json.dumps(result['pages'])}",
        f"- the expert in the browser: {json.dumps(result['expert'], sort_keys=True)}",
        "",
        "## Errors by kind (articles' last error)",
        "",
        "| error | articles |",
        "|---|---:|",
        *[f"| {k.replace('|', '/')} | {v} |" for k, v in result["errors_by_kind"].items()],
        "",
        "## Hostile sites: what each left",
        "",
        "| case | recorded |",
        "|---|---|",
        *[f"| {k} | {v.replace('|', '/')} |" for k, v in result["hostile"].items()],
        "",
        "## Demo sites' polls (home page reads)",
        "",
        "| site | polls | interval s | median gap s | max gap s |",
        "|---|---:|---:|---:|---:|",
        *[
            f"| {k} | {v['polls']} | {v['interval']} | {v['median_gap']} | {v['max_gap']} |"
            for k, v in result["polls"].items()
        ],
        "",
        "## Storage (`manage.py storage` at the end)",
        "",
        result["storage"],
        "",
        f"Task result files in the embedded broker: {result['result_files']}"
        if result["result_files"] is not None
        else "Task results: Redis (none stored but the health check's)",
        "",
        "## Memory (RSS of each role with its pool, MB)",
        "",
        "| role | first sample | peak | max after the first quarter |",
        "|---|---:|---:|---:|",
        *[
            f"| {k} | {v['first_mb']} | {v.get('peak_mb', '')} | {v['max_mb']} |"
            for k, v in sorted(result["memory_mb"].items())
        ],
        "",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.soak.run", description=__doc__.split("\n")[0])
    parser.add_argument("--minutes", type=float, default=float(os.environ.get("SOAK_MINUTES", "10")))
    parser.add_argument("--report", help="write the figures as Markdown to this file")
    parser.add_argument("--json", help="write the figures as JSON to this file")
    parser.add_argument("--keep", action="store_true", help="keep the work directory (logs, SQLite, broker)")
    args = parser.parse_args(argv)
    if args.minutes < MIN_MINUTES:
        # Shorter runs cannot judge what the soak asserts: a site's poll schedule needs two polls after the
        # faults, and a poll killed mid-flight comes back only after its run lease (POLL_RUN_LEASE).
        parser.error(f"--minutes {args.minutes:g}: a soak needs at least {MIN_MINUTES} minutes to judge the stack")
    if shutil.which("redis-server") is None and os.environ.get("CELERY_BROKER_URL", "").startswith("redis://"):
        parser.error("CELERY_BROKER_URL is Redis but redis-server is not installed")
    workdir = Path(tempfile.mkdtemp(prefix="wims-soak-"))
    soak = Soak(args.minutes, workdir)
    log(f"{soak.backend}, {args.minutes:g} minutes, work directory {workdir}")
    try:
        soak.setup()
        result = soak.run()
    finally:
        soak.teardown()
    command = f"make soak SOAK_MINUTES={args.minutes:g}"
    if args.report:
        Path(args.report).write_text(report_markdown(result, command))
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1, default=str))
    print(json.dumps(result, indent=1, default=str))
    if result["failures"]:
        log("FAILED:\n  " + "\n  ".join(result["failures"]) + f"\nlogs: {workdir}")
        return 1
    log("passed")
    if not args.keep:
        shutil.rmtree(workdir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
