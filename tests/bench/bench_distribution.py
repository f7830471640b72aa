"""Speed of search, the REST API and digests on PostgreSQL with 100,000 articles (issue 15, item 5).

    make bench-distribution
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/wims python tests/bench/bench_distribution.py [--articles 100000]

Targets: search p95 under 100 ms for one- and three-word queries with a filter; API list pages p95 under
50 ms; a daily digest of 1,000 subscribers built in under a minute.

Data (generated into a separate database `<name>_bench_distribution`, kept between runs and regenerated when
the size differs): 100,000 articles made of real English, BBC News sentences (the shared datasets' bbc-news:
each article one story's title and first two sentences, then six sentences of other stories of its
category), collected over 100 days on 10 sites, with DocView-like keywords and abstracts; each classified into
one of the five BBC folders under "News", a third accepted by an expert. The search index is built with
`search.services.reindex` (timed). Requests go through Django's test Client (routing, middleware, session or
token authentication, permissions, queries, rendering).

Side by side, in the same run: search against the `icontains` scan a Django site gets without a search index
(Django admin's search), the API's list against the inbox page over the same filter, and the digests' time
against the target.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import statistics
import sys
import time
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "wims.settings")
os.environ.setdefault("WIMS_ENV", "development")  # a benchmark on this machine (wims/settings.py)
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/wims")
os.environ.setdefault("DATABASE_CONN_MAX_AGE", "600")  # persistent connections, as production runs them

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.db.models import Max, Q  # noqa: E402
from django.test import Client  # noqa: E402

from api.services import issue_token  # noqa: E402
from classifier import services  # noqa: E402
from classifier.models import Case, Classification, Folder  # noqa: E402
from foundation.roles import EXPERTS, SITE_ADMINISTRATORS, ensure_groups  # noqa: E402
from monitor.models import Article, Site  # noqa: E402
from processing.models import ArticleContent  # noqa: E402
from search import services as search  # noqa: E402
from tests.conftest import datasets_dir  # noqa: E402

REPORT = ROOT / "docs" / "benchmarks" / "distribution.md"
SEARCH_TARGET_MS, API_TARGET_MS, DIGEST_TARGET_S = 100, 50, 60
SUBSCRIBERS = 1_000
ZONES = ("UTC", "Europe/Berlin", "America/New_York", "Asia/Tokyo", "Australia/Sydney")

# --------------------------------------------------------------------------- data
CATEGORIES = ("business", "entertainment", "politics", "sport", "tech")
WORD = re.compile(r"[a-z]+")


def bbc_pool(datasets_dir: Path) -> dict[str, list[tuple[str, list[str]]]]:
    """Per BBC category: (title, sentences) of each story."""
    pool: dict[str, list[tuple[str, list[str]]]] = {}
    for category in CATEGORIES:
        stories = []
        for path in sorted((datasets_dir / "bbc-news" / category).glob("*.txt")):
            lines = [line.strip() for line in path.read_text(encoding="latin-1").splitlines() if line.strip()]
            sentences = [s for line in lines[1:] for s in re.split(r"(?<=[.!?])\s+(?=[A-Z\"])", line) if s]
            stories.append((lines[0], sentences))
        pool[category] = stories
    return pool


def use_bench_database() -> str:
    name = f"{settings.DATABASES['default']['NAME']}_bench_distribution"
    settings.DATABASES["default"].setdefault("TEST", {})["NAME"] = name
    connection.creation.create_test_db(verbosity=0, keepdb=True, serialize=False)
    return name


def have_data(n_articles: int) -> bool:
    return Article.objects.count() == n_articles


@transaction.atomic
def generate(n_articles: int, datasets_dir: Path, seed: int = 1) -> None:
    """n_articles stories of BBC sentences (real English, as search meets it), classified into the five
    BBC folders (a third accepted), collected over 100 days on 10 sites."""
    rng = random.Random(seed)
    pool = bbc_pool(datasets_dir)
    sentences = {c: [s for _title, ss in stories for s in ss] for c, stories in pool.items()}
    t0 = time.perf_counter()
    with connection.cursor() as cursor:
        cursor.execute(
            "TRUNCATE classifier_classification, classifier_casekeyword, classifier_rule, classifier_case, "
            "classifier_folder, classifier_auditentry, processing_articlecontent, monitor_article, monitor_site "
            "RESTART IDENTITY CASCADE"
        )
    sites = [Site.objects.create(name=f"Site {i}", home_url=f"https://site{i}.example/") for i in range(10)]
    news = Folder.objects.create(name="News", path="News")
    folders = {c: Folder.objects.create(name=c.title(), parent=news, path=f"News/{c.title()}") for c in CATEGORIES}
    span = 100 * 24 * 3600
    now = datetime.now(UTC)
    batch = 5000
    for start in range(0, n_articles, batch):
        size = min(batch, n_articles - start)
        drafts = []
        contents = []  # (core text, its sentences, DocView keywords) of each draft
        for i in range(start, start + size):
            category = rng.choice(CATEGORIES)
            title, own = rng.choice(pool[category])
            body = own[:2] + rng.sample(sentences[category], 6)
            text = "\n".join(body)
            counts = Counter(w for w in WORD.findall(text.lower()) if len(w) > 3)
            keywords = [[w, round(n / len(body), 3)] for w, n in counts.most_common(8)]
            collected = now - timedelta(seconds=(n_articles - i) * span / n_articles)
            contents.append((text, body, keywords))
            drafts.append(
                (
                    category,
                    collected,
                    Article(
                        site=sites[i % len(sites)],
                        url=f"https://site{i % len(sites)}.example/news/{i}.html",
                        title=title,
                        state=Article.State.PROCESSED,
                        published_at=collected,
                        processed_at=collected,
                    ),
                )
            )
        articles = Article.objects.bulk_create([a for _c, _t, a in drafts])
        ArticleContent.objects.bulk_create(
            ArticleContent(article=a, core_text=text, abstract=" ".join(body[:2]), keywords=keywords)
            for a, (text, body, keywords) in zip(articles, contents, strict=True)
        )
        cases = Case.objects.bulk_create(
            [
                Case(article_id=a.pk, keywords=sorted(set(WORD.findall(text.lower()))), source=a.url)
                for a, (text, _body, _keywords) in zip(articles, contents, strict=True)
            ]
        )
        rows = []
        for (category, collected, _a), case in zip(drafts, cases, strict=True):
            accepted = rng.random() < 1 / 3
            rows.append(
                Classification(
                    case_id=case.pk,
                    folder=folders[category],
                    state="accepted" if accepted else "suggested",
                    decided_at=collected + timedelta(hours=1) if accepted else None,
                )
            )
        Classification.objects.bulk_create(rows)
        services.refresh_review_states(c.pk for c in cases)
        print(f"  articles {start + size:,}/{n_articles:,}  {time.perf_counter() - t0:.0f} s", end="\r", flush=True)
    print()
    # collected_at is auto_now_add (bulk_create ignores given values): spread it over 100 days, newest = highest id
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE monitor_article SET collected_at = %s - (%s - id) * interval '1 second' * %s",
            [now, n_articles, span / n_articles],
        )
    print(f"  generated {n_articles:,} articles in {time.perf_counter() - t0:.0f} s")


# --------------------------------------------------------------------------- measurements
def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    k = (len(ordered) - 1) * p / 100
    lo, hi = int(k), min(int(k) + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def stats(times: list[float]) -> dict:
    return {"n": len(times), "p50": statistics.median(times), "p95": percentile(times, 95), "max": max(times)}


def timed(fn, calls) -> dict:
    """Time ``fn(*args)`` for each args tuple of ``calls`` (ms); the first two calls warm up and are measured too."""
    times = []
    for args in calls:
        start = time.perf_counter()
        fn(*args)
        times.append((time.perf_counter() - start) * 1000)
    return stats(times)


def get(client: Client, url: str, **headers) -> None:
    response = client.get(url, **headers)
    if response.status_code != 200:
        raise SystemExit(f"{url}: HTTP {response.status_code}: {response.content[:300]!r}")


def query_words(rng: random.Random) -> dict[str, list[str]]:
    """Words of the articles by how many articles hold them (sampled from 2,000 articles): common (over 10 %),
    middling (1-10 %), rare (under 1 %)."""
    sample = Article.objects.order_by("?").values_list("content__core_text", flat=True)[:2000]
    df = Counter(w for text in sample for w in set(WORD.findall(text.lower())) if len(w) > 3)
    n = len(sample)
    bands = {"common": [], "middling": [], "rare": []}
    for word, count in df.items():
        share = count / n
        band = "common" if share > 0.10 else "middling" if share > 0.01 else "rare" if count >= 2 else None
        if band:
            bands[band].append(word)
    return {band: sorted(words) for band, words in bands.items()}


def run_search(client: Client, rng: random.Random, repeat: int) -> dict:
    words = query_words(rng)
    site_ids = list(Site.objects.values_list("id", flat=True))
    folder_ids = list(Folder.objects.values_list("id", flat=True))

    def one():
        band = rng.choice(("common", "middling", "rare"))
        return rng.choice(words[band])

    def three():
        return " ".join(rng.choice(words[b]) for b in ("common", "middling", "middling"))

    def with_filter(q):
        return (q, {"site": rng.choice(site_ids)} if rng.random() < 0.5 else {"folder": rng.choice(folder_ids)})

    cases = {
        "one word + a filter": [with_filter(one()) for _ in range(repeat)],
        "three words + a filter": [with_filter(three()) for _ in range(repeat)],
        "one common word, no filter": [(rng.choice(words["common"]), {}) for _ in range(repeat // 2)],
        '"two-word phrase" + a filter': [with_filter(f'"{two_word(rng)}"') for _ in range(repeat // 2)],
    }
    out = {}
    for name, queries in cases.items():
        out[f"service: {name}"] = timed(lambda q, f: search.search(q, **f), queries)
        urls = [(f"/search/?q={q}&" + "&".join(f"{k}={v}" for k, v in f.items()),) for q, f in queries]
        out[f"page /search/: {name}"] = timed(lambda url: get(client, url), urls)

    # the alternative: what Django gives without a search index (the admin's search): icontains on title and
    # text, newest first, the same filter, a page of 50 and a count capped like the page's
    def icontains(q, f):
        words_ = q.strip('"').split() if not q.startswith('"') else [q.strip('"')]
        qs = Article.objects.all()
        for w in words_:
            qs = qs.filter(Q(title__icontains=w) | Q(core_text__icontains=w))
        if "site" in f:
            qs = qs.filter(site_id=f["site"])
        if "folder" in f:
            qs = qs.filter(case__classifications__folder_id=f["folder"])
        list(qs.order_by("-collected_at", "-id").values_list("id", flat=True)[:50])
        qs.order_by()[: search.COUNT_CAP + 1].count()

    alt = {}
    for name in ("one word + a filter", "three words + a filter"):
        queries = cases[name][: max(10, repeat // 4)]
        alt[name] = (
            timed(lambda q, f: search.search(q, **f), queries)["p50"],
            timed(icontains, queries)["p50"],
        )
    return {"results": out, "alternatives": alt, "bands": {b: len(w) for b, w in words.items()}}


_SENTENCE_WORDS: list[list[str]] = []


def two_word(rng: random.Random) -> str:
    """Two consecutive words of a random article (a phrase that exists)."""
    if not _SENTENCE_WORDS:
        for text in Article.objects.order_by("?").values_list("core_text", flat=True)[:200]:
            _SENTENCE_WORDS.append([w for w in WORD.findall(text.lower()) if len(w) > 3])
    words = rng.choice([s for s in _SENTENCE_WORDS if len(s) > 2])
    i = rng.randrange(len(words) - 1)
    return f"{words[i]} {words[i + 1]}"


def run_api(client: Client, expert, rng: random.Random, repeat: int) -> dict:
    _row, token = issue_token(expert, f"bench {datetime.now(UTC):%Y-%m-%d %H:%M:%S.%f}")
    auth = {"HTTP_AUTHORIZATION": f"Token {token}"}
    site_ids = list(Site.objects.values_list("id", flat=True))
    folder_ids = list(Folder.objects.values_list("id", flat=True))
    cases = {
        "articles, first page": ["/api/articles/"] * repeat,
        "articles, one site": [f"/api/articles/?site={rng.choice(site_ids)}" for _ in range(repeat)],
        "articles, one folder": [f"/api/articles/?folder={rng.choice(folder_ids)}" for _ in range(repeat)],
        "articles, state = reviewed": ["/api/articles/?state=reviewed"] * repeat,
        "folders": ["/api/folders/"] * repeat,
        "sites": ["/api/sites/"] * repeat,
        "feeds": ["/api/feeds/"] * repeat,
    }
    out = {name: timed(lambda url: get(client, url, **auth), [(u,) for u in urls]) for name, urls in cases.items()}
    # deeper pages: follow the next links of the article list five pages down
    times = []
    for _ in range(max(4, repeat // 10)):
        url = "/api/articles/?page_size=50"
        for _page in range(5):
            start = time.perf_counter()
            response = client.get(url, **auth)
            times.append((time.perf_counter() - start) * 1000)
            url = response.json()["next"]
    out["articles, next pages (5 deep)"] = stats(times)
    # the same lists as the workspace's inbox pages (HTML, session)
    alt = {
        "one site": (
            out["articles, one site"]["p50"],
            timed(lambda url: get(client, url), [(f"/?site={rng.choice(site_ids)}",) for _ in range(repeat)])["p50"],
        ),
        "state = reviewed": (
            out["articles, state = reviewed"]["p50"],
            timed(lambda url: get(client, url), [("/?state=reviewed",)] * repeat)["p50"],
        ),
    }
    return {"results": out, "alternatives": alt}


def run_digests(subscribers: int, rng: random.Random) -> dict:
    """1,000 users with a daily digest of one folder each, due now; scan, then build and send every digest
    (Django's locmem e-mail backend: the messages are built and handed over, not delivered)."""
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    from django.core import mail

    from alerts import services as alerts
    from alerts.models import Delivery, Subscription

    mail.outbox = []
    users = get_user_model()
    Subscription.objects.all().delete()
    users.objects.filter(username__startswith="bench-subscriber-").delete()
    folders = list(Folder.objects.all())
    last = Classification.objects.aggregate(m=Max("decided_at"))["m"]
    now = last + timedelta(minutes=1)
    day_before = now - timedelta(days=1)
    made = users.objects.bulk_create(
        [users(username=f"bench-subscriber-{i}", email=f"subscriber{i}@example.org") for i in range(subscribers)]
    )
    ensure_groups()[EXPERTS].user_set.add(*made)  # alerts go to active experts only (alerts.services.entitled)
    Subscription.objects.bulk_create(
        [
            Subscription(
                user=user,
                folder=rng.choice(folders),
                frequency=Subscription.Frequency.DAILY,
                time_zone=rng.choice(ZONES),
                created_at=day_before,
                cursor=day_before,
                next_digest_at=now,
            )
            for user in made
        ]
    )
    start = time.perf_counter()
    due = alerts.scan(now)
    scanned = time.perf_counter() - start
    for subscription_id in due:
        alerts.send(subscription_id, now)
    total = time.perf_counter() - start
    sent = Delivery.objects.filter(state=Delivery.State.SENT).count()
    failed = Delivery.objects.filter(state=Delivery.State.FAILED).count()
    sizes = [len(m.body) for m in mail.outbox]
    return {
        "subscribers": subscribers,
        "digests": len(mail.outbox),
        "articles sent": sent,
        "failed": failed,
        "scan_s": scanned,
        "total_s": total,
        "mean_articles": sent / max(len(mail.outbox), 1),
        "mean_text_kb": statistics.mean(sizes) / 1024 if sizes else 0,
    }


# --------------------------------------------------------------------------- report
def verdict(value: float, target: float) -> str:
    return "yes" if value < target else "**no**"


def report(data: dict, db_name: str) -> str:
    lines = [
        "# Search, API and digest speed",
        "",
        "Generated by `make bench-distribution` (tests/bench/bench_distribution.py) on PostgreSQL "
        f"{connection.pg_version // 10000} (`{db_name}`) on this machine ({os.cpu_count()} shared cores), "
        f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC. Machine load (1-minute average): {data['load'][0]:.1f} before, "
        f"{data['load'][1]:.1f} after; other work slows every figure, which is reported as measured.",
        "",
        "Data: " + ", ".join(f"{v:,} {k}" for k, v in data["sizes"].items()) + ". "
        f"Building the search index of all articles (`search.services.reindex`, the command "
        f"`manage.py search_reindex`) took {data['reindex_s']:.0f} s.",
        "",
        "## Search",
        "",
        f"Target: p95 under {SEARCH_TARGET_MS} ms for one- and three-word queries with a filter. Query words are "
        "drawn from the articles by how many hold them: "
        + ", ".join(f"{n:,} {band}" for band, n in data["search"]["bands"].items())
        + " (common: over 10 % of articles; middling: 1-10 %; rare: under 1 %). One-word queries take a "
        "band at random; three-word queries one common and two middling words (all must match); the filter is a "
        "site or a folder at random. *service* is `search.services.search` (count up to 1,000, rank, one page of "
        "50 with highlighted snippets and folders); *page* is the whole request to `/search/`.",
        "",
        "| what | queries | median ms | p95 ms | max ms | p95 under target |",
        "|---|---:|---:|---:|---:|---|",
    ]
    lines += _search_rows(data["search"]) + _api_section(data["api"]) + _digest_section(data["digests"])
    return "\n".join(lines)


def _search_rows(search: dict) -> list[str]:
    """The search table's rows, then the search index against ``icontains``."""
    lines = []
    for name, m in search["results"].items():
        lines.append(
            f"| {name} | {m['n']} | {m['p50']:.1f} | {m['p95']:.1f} | {m['max']:.1f} | "
            f"{verdict(m['p95'], SEARCH_TARGET_MS)} |"
        )
    lines += [
        "",
        "Side by side, the same queries and filters without a search index: `icontains` on title and text (what "
        "Django's admin search does), newest first, a page of 50 and the capped count (no ranking, no snippets):",
        "",
        "| queries | search service median ms | icontains median ms | icontains / search |",
        "|---|---:|---:|---:|",
    ]
    for name, (ours, theirs) in search["alternatives"].items():
        lines.append(f"| {name} | {ours:.1f} | {theirs:.1f} | {theirs / ours:.1f}× |")
    return lines


def _api_section(api: dict) -> list[str]:
    """The REST API's list pages, then the workspace's inbox page over the same filter."""
    lines = [
        "",
        "## REST API",
        "",
        f"Target: list pages p95 under {API_TARGET_MS} ms. Token authentication (`Authorization: Token …`), "
        "50 items a page.",
        "",
        "| list | requests | median ms | p95 ms | max ms | p95 under target |",
        "|---|---:|---:|---:|---:|---|",
    ]
    for name, m in api["results"].items():
        lines.append(
            f"| {name} | {m['n']} | {m['p50']:.1f} | {m['p95']:.1f} | {m['max']:.1f} | "
            f"{verdict(m['p95'], API_TARGET_MS)} |"
        )
    lines += [
        "",
        "Side by side, the workspace's inbox page over the same filter (HTML, session):",
        "",
        "| filter | API median ms | inbox page median ms | inbox / API |",
        "|---|---:|---:|---:|",
    ]
    for name, (ours, theirs) in api["alternatives"].items():
        lines.append(f"| {name} | {ours:.1f} | {theirs:.1f} | {theirs / ours:.1f}× |")
    return lines


def _digest_section(d: dict) -> list[str]:
    """The daily digests' scan, build and send."""
    return [
        "",
        "## Daily digests",
        "",
        f"Target: a daily digest of {SUBSCRIBERS:,} subscribers built in under {DIGEST_TARGET_S} s. "
        f"{d['subscribers']:,} users, each subscribed to one of the six folders with a daily digest due now (five "
        "time zones); the scan records the day's accepted articles as deliveries, then every digest is built "
        "(HTML and plain text, each article with its folder path, site, abstract and links) and handed to "
        "Django's locmem e-mail backend, one `alerts.services.send` per subscriber, as the worker runs them.",
        "",
        "| subscribers | digests sent | articles in them | mean articles / digest | mean text size | failed | "
        "scan s | scan + build + send s | under target |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---|",
        f"| {d['subscribers']:,} | {d['digests']:,} | {d['articles sent']:,} | {d['mean_articles']:.1f} | "
        f"{d['mean_text_kb']:.1f} KB | {d['failed']} | {d['scan_s']:.1f} | {d['total_s']:.1f} | "
        f"{verdict(d['total_s'], DIGEST_TARGET_S)} ({d['total_s'] / DIGEST_TARGET_S:.2f} of the target) |",
        "",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--articles", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=100, help="queries / requests per scenario")
    parser.add_argument("--subscribers", type=int, default=SUBSCRIBERS)
    parser.add_argument("--regenerate", action="store_true")
    parser.add_argument("--parts", default="search,api,digests", help="which measurements (comma-separated)")
    parser.add_argument("--no-report", action="store_true", help="print only; do not write docs/benchmarks")
    args = parser.parse_args()
    if connection.vendor != "postgresql":
        raise SystemExit(f"bench-distribution measures PostgreSQL; DATABASE_URL points to {connection.vendor}")
    name = use_bench_database()
    if args.regenerate or not have_data(args.articles):
        print(f"generating {args.articles:,} articles in {name} ...")
        generate(args.articles, datasets_dir())
    start = time.perf_counter()
    search.reindex()
    reindex_s = time.perf_counter() - start
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")
    rng = random.Random(7)
    expert, _ = get_user_model().objects.get_or_create(username="bench-expert")
    groups = ensure_groups()
    expert.groups.add(groups[EXPERTS], groups[SITE_ADMINISTRATORS])  # an expert who also runs the sites
    client = Client()
    client.force_login(expert)
    load_before = os.getloadavg()[0]
    parts = set(args.parts.split(","))
    print("search ...")
    search_data = run_search(client, rng, args.repeat) if "search" in parts else None
    print("api ...")
    api_data = run_api(client, expert, rng, args.repeat) if "api" in parts else None
    print("digests ...")
    digest_data = run_digests(args.subscribers, rng) if "digests" in parts else None
    load_after = os.getloadavg()[0]
    data = {
        "sizes": {
            "articles": Article.objects.count(),
            "classifications": Classification.objects.count(),
            "accepted": Classification.objects.filter(state="accepted").count(),
            "sites": Site.objects.count(),
            "folders": Folder.objects.count(),
        },
        "reindex_s": reindex_s,
        "search": search_data,
        "api": api_data,
        "digests": digest_data,
        "load": (load_before, load_after),
    }
    if parts != {"search", "api", "digests"}:
        print(data)
        return
    text = report(data, name)
    print(text)
    if not args.no_report:
        REPORT.parent.mkdir(parents=True, exist_ok=True)
        REPORT.write_text(text)
        print(f"wrote {REPORT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
