"""Page speed of the experts' workspace on PostgreSQL: inbox and article pages.

    make bench-workspace
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/wims python tests/bench/bench_workspace.py [--articles 100000]

Target (issue 6): the inbox and article pages render in under 200 ms at the 95th percentile with
100,000 articles and 10,000 rules in PostgreSQL. Measured end to end through Django's test Client
(URL routing, middleware, session and user lookups, permission check, queries, template rendering),
with a warm knowledge-base cache, as a running server has it; the cold load is reported apart.

Data (synthetic, generated with bulk_create into a separate database `<name>_bench_workspace`, kept
between runs and regenerated when the sizes differ): 10 sites; 100,000 articles collected over 100 days,
each with a title and ~600 characters of core text from a Zipf vocabulary of 30,000 words and its
case (the distinct words of 120 tokens); 40 folders; 10,000 rules grown on the cases as an expert would
(ground-breaking on one or two topical words of a case, refining and stopping under rules that fire);
every case classified by inference, then a third of the articles accepted by an expert. The
CaseKeyword index is not generated: neither page reads it (bench-mcrdr measures it).

Side by side: keyset pagination (what the inbox does) against OFFSET pagination for a deep page, the
capped count against an exact COUNT(*), and the state filter on the stored, indexed review state against
the same filter computed from the classification rows (EXISTS / NOT EXISTS).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "wims.settings")
os.environ.setdefault("WIMS_ENV", "development")  # a benchmark on this machine (wims/settings.py)
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/wims")
# persistent connections, as a production deployment runs them
os.environ.setdefault("DATABASE_CONN_MAX_AGE", "600")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management.color import no_style  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.db.models import Count, Exists, OuterRef  # noqa: E402
from django.test import Client  # noqa: E402

from classifier import kb, selectors, services  # noqa: E402
from classifier.engine import Rule as EngineRule  # noqa: E402
from classifier.engine import RuleTree  # noqa: E402
from classifier.models import ArticleRead, Case, Classification, Folder, KnowledgeBase, Rule  # noqa: E402
from foundation.roles import EXPERTS, ensure_groups  # noqa: E402
from monitor.models import Article, Site  # noqa: E402
from processing.models import ArticleContent  # noqa: E402

VOCABULARY = 30_000
TOKENS = 120
REPORT = ROOT / "docs" / "benchmarks" / "workspace.md"
TARGET_MS = 200


def zipf_sampler(rng: random.Random, n: int = VOCABULARY, s: float = 1.05):
    cum, total = [], 0.0
    for rank in range(1, n + 1):
        total += 1 / rank**s
        cum.append(total)
    words = [f"w{i}" for i in range(n)]
    return lambda k: rng.choices(words, cum_weights=cum, k=k)


# --------------------------------------------------------------------------- data
def use_bench_database() -> str:
    name = f"{settings.DATABASES['default']['NAME']}_bench_workspace"
    settings.DATABASES["default"].setdefault("TEST", {})["NAME"] = name
    connection.creation.create_test_db(verbosity=0, keepdb=True, serialize=False)
    return name


def have_data(n_articles: int, n_rules: int) -> bool:
    return Article.objects.count() == n_articles and Rule.objects.count() == n_rules


@transaction.atomic
def generate(n_articles: int, n_rules: int, seed: int = 1) -> None:
    rng = random.Random(seed)
    sample = zipf_sampler(rng)
    t0 = time.perf_counter()
    with connection.cursor() as cursor:
        cursor.execute(
            "TRUNCATE classifier_classification, classifier_casekeyword, classifier_rule, classifier_case, "
            "classifier_articleread, "
            "classifier_folder, classifier_auditentry, classifier_phraselabel, monitor_article, monitor_site "
            "RESTART IDENTITY CASCADE"
        )
    sites = [Site.objects.create(name=f"Site {i}", home_url=f"https://site{i}.example/") for i in range(10)]
    folders = []
    for top in range(10):
        parent = Folder.objects.create(name=f"Topic {top}", path=f"Topic {top}")
        folders.append(parent)
        for sub in range(3):
            folders.append(Folder.objects.create(name=f"Sub {sub}", parent=parent, path=f"Topic {top}/Sub {sub}"))
    cases = generate_articles(sites, n_articles, sample, t0)
    tree, rules = grow_rules(rng, cases, [f.pk for f in folders], n_rules)
    Rule.objects.bulk_create(rules, batch_size=2000)
    with connection.cursor() as cursor:
        for sql in connection.ops.sequence_reset_sql(no_style(), [Rule]):
            cursor.execute(sql)
    made = classify(rng, tree, cases)
    Classification.objects.bulk_create(made, batch_size=10_000)
    services.refresh_review_states(pk for pk, _words in cases)
    KnowledgeBase.objects.update_or_create(pk=1, defaults={"version": 1, "stamp": KnowledgeBase.new_stamp()})
    print(
        f"  generated {n_articles:,} articles and cases, {len(rules):,} rules, {len(made):,} classifications "
        f"in {time.perf_counter() - t0:.0f} s"
    )


def generate_articles(sites: list[Site], n_articles: int, sample, t0: float) -> list[tuple[int, frozenset]]:
    """``n_articles`` articles over the sites, with their core text and case (words drawn by ``sample``),
    collected over 100 days; each case's id and words."""
    cases: list[tuple[int, frozenset]] = []
    batch = 5000
    for start in range(0, n_articles, batch):
        size = min(batch, n_articles - start)
        texts = [sample(TOKENS) for _ in range(size)]
        articles = [
            Article(
                site=sites[(start + i) % len(sites)],
                url=f"https://site{(start + i) % len(sites)}.example/news/{start + i}.html",
                title=" ".join(words[:9]).capitalize(),
            )
            for i, words in enumerate(texts)
        ]
        Article.objects.bulk_create(articles)
        ArticleContent.objects.bulk_create(
            ArticleContent(article=a, core_text=" ".join(words[:100])) for a, words in zip(articles, texts, strict=True)
        )
        rows = [
            Case(article_id=a.pk, keywords=sorted(set(words)), source=a.url)
            for a, words in zip(articles, texts, strict=True)
        ]
        Case.objects.bulk_create(rows)
        cases.extend((row.pk, frozenset(row.keywords)) for row in rows)
        print(f"  articles {start + size:,}/{n_articles:,}  {time.perf_counter() - t0:.0f} s", end="\r", flush=True)
    print()
    # collected over 100 days, newest = highest id (auto_now_add ignores values given to bulk_create)
    span = 100 * 24 * 3600
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE monitor_article SET collected_at = %s - (%s - id) * interval '1 second' * %s",
            [datetime.now(UTC), n_articles, span / n_articles],
        )
    return cases


def grow_rules(
    rng: random.Random, cases: list[tuple[int, frozenset]], folder_ids: list[int], n_rules: int
) -> tuple[RuleTree, list[Rule]]:
    """``n_rules`` rules grown on the cases, as an expert would: the engine's tree and the rows."""
    pool = {f"w{i}" for i in range(300, 10_000)}  # topical words: neither stop-like nor hapax
    tree = RuleTree()
    rules: list[Rule] = []
    while len(tree) < n_rules:
        case_id, words = rng.choice(cases)
        topical = sorted(words & pool)
        if len(topical) < 3:
            continue
        fired = tree.infer(words)
        rid = len(tree) + 1
        roll = rng.random()
        if fired and roll < 0.5:
            parent = tree.get(rng.choice(fired).rule_id)
            extra = sorted(set(topical) - parent.conditions)
            if not extra:
                continue
            folder = None if roll < 0.15 else rng.choice([f for f in folder_ids if f != parent.folder])
            rule = EngineRule(rid, parent.id, folder, frozenset(rng.sample(extra, 1)))
        else:
            rule = EngineRule(rid, None, rng.choice(folder_ids), frozenset(rng.sample(topical, rng.randint(1, 2))))
        tree.add(rule)
        rules.append(
            Rule(
                id=rid,
                parent_id=rule.parent_id,
                folder_id=rule.folder,
                conditions=sorted(rule.conditions),
                absent=[],
                cornerstone_id=case_id,
            )
        )
    return tree, rules


def classify(rng: random.Random, tree: RuleTree, cases: list[tuple[int, frozenset]]) -> list[Classification]:
    """Every case's classifications by inference; a third of the cases accepted by an expert."""
    made = []
    now = datetime.now(UTC)
    for case_id, words in cases:
        seen = set()
        accepted = rng.random() < 1 / 3
        for conclusion in tree.infer(words):
            if conclusion.folder not in seen:
                seen.add(conclusion.folder)
                made.append(
                    Classification(
                        case_id=case_id,
                        folder_id=conclusion.folder,
                        rule_id=conclusion.rule_id,
                        state="accepted" if accepted else "suggested",
                        decided_at=now if accepted else None,
                    )
                )
    return made


# --------------------------------------------------------------------------- measurements
def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    k = (len(ordered) - 1) * p / 100
    lo, hi = int(k), min(int(k) + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def measure(client: Client, urls: list[str], warmup: int = 3) -> dict:
    for url in urls[:warmup]:
        client.get(url)
    times, queries = [], []
    from django.db import reset_queries

    for url in urls:
        reset_queries()
        start = time.perf_counter()
        response = client.get(url)
        times.append((time.perf_counter() - start) * 1000)
        if response.status_code != 200:
            raise SystemExit(f"{url}: HTTP {response.status_code}")
        queries.append(len(connection.queries))
    return {
        "n": len(times),
        "p50": statistics.median(times),
        "p95": percentile(times, 95),
        "max": max(times),
        "queries": statistics.median(queries),
    }


def state_from_rows(qs, state: str):
    """The state filter computed from the classification rows (what the inbox did before the state was
    stored): EXISTS / NOT EXISTS over each article's rows."""
    rows = Classification.objects.filter(case__article_id=OuterRef("pk"))
    suggested = Exists(rows.filter(state=Classification.State.SUGGESTED))
    if state == selectors.SUGGESTED:
        return qs.filter(suggested)
    if state == selectors.REVIEWED:
        return qs.filter(Exists(rows)).exclude(suggested)
    return qs.exclude(Exists(rows))


def timed_ms(fn, repeat: int = 20) -> float:
    runs = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        runs.append((time.perf_counter() - start) * 1000)
    return statistics.median(runs)


def queue_data(user, colleague, rng: random.Random) -> None:
    """Per-user state for the queue scenarios (kept between runs): 2,000 articles assigned to the measuring
    expert and 8,000 to a colleague, a third of the articles read by the measuring expert."""
    if Article.objects.filter(assignee__isnull=False).exists():
        return
    chosen = rng.sample(list(Article.objects.values_list("id", flat=True)), 10_000)
    now = datetime.now(UTC)
    Article.objects.filter(pk__in=chosen[:2000]).update(assignee=user, assigned_by=colleague, assigned_at=now)
    Article.objects.filter(pk__in=chosen[2000:]).update(assignee=colleague, assigned_by=user, assigned_at=now)
    article_ids = list(Article.objects.values_list("id", flat=True))
    read = rng.sample(article_ids, len(article_ids) // 3)
    ArticleRead.objects.bulk_create(
        [ArticleRead(user=user, article_id=pk) for pk in read], batch_size=10_000, ignore_conflicts=True
    )
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE monitor_article, classifier_articleread")


def run(repeat: int, seed: int = 7) -> dict:
    rng = random.Random(seed)
    user_model = get_user_model()
    user, _ = user_model.objects.get_or_create(username="bench-expert")
    user.groups.add(ensure_groups()[EXPERTS])
    colleague, _ = user_model.objects.get_or_create(username="bench-colleague")
    colleague.groups.add(ensure_groups()[EXPERTS])
    queue_data(user, colleague, rng)
    client = Client()
    client.force_login(user)
    settings.DEBUG = True  # count queries (connection.queries); templates stay cached
    kb.clear_cache()
    start = time.perf_counter()
    kb.current()
    cold_kb = (time.perf_counter() - start) * 1000

    ids = list(Article.objects.values_list("id", flat=True))
    mid = Article.objects.order_by("-collected_at", "-id")[len(ids) // 2]
    deep_cursor = selectors.Cursor.of(mid).encode()
    scenarios = page_scenarios(rng, repeat, ids, deep_cursor, colleague)
    load_before = os.getloadavg()[0]
    results = {name: measure(client, urls) for name, urls in scenarios.items()}
    load_after = os.getloadavg()[0]
    # the same two main pages with the long-lived knowledge-base objects back in the cyclic garbage
    # collector's sight (kb.py freezes them after a load): how much of the tail full GC passes add
    import gc

    gc.unfreeze()
    main_pages = ("inbox, first page (waiting for review, the default)", "article page (random articles)")
    unfrozen = {name: measure(client, scenarios[name]) for name in main_pages}
    gc.freeze()

    settings.DEBUG = False
    return {
        "results": results,
        "alternatives": query_alternatives(deep_cursor, len(ids)),
        "sizes": data_sizes(len(ids)),
        "cold_kb_ms": cold_kb,
        "load": (load_before, load_after),
        "unfrozen": unfrozen,
    }


def page_scenarios(rng: random.Random, repeat: int, ids: list[int], deep_cursor: str, colleague) -> dict[str, list]:
    """The pages measured: each scenario's URLs."""
    site_ids = list(Site.objects.values_list("id", flat=True))
    newest = Article.objects.order_by("-collected_at").values_list("collected_at", flat=True).first()
    day = newest.date().isoformat()
    return {
        # the inbox opens on what waits for review (unreviewed, suggested, rejected-rule-pending): three states
        "inbox, first page (waiting for review, the default)": ["/"] * repeat,
        "inbox, first page, any state": ["/?state=any"] * repeat,
        "inbox, state = suggestions pending": ["/?state=pending"] * repeat,
        "inbox, state = reviewed": ["/?state=reviewed"] * repeat,
        "inbox, state = unreviewed": ["/?state=unreviewed"] * repeat,
        "inbox, one site": [f"/?state=any&site={rng.choice(site_ids)}" for _ in range(repeat)],
        "inbox, one site + date range + pending": [
            f"/?site={rng.choice(site_ids)}&date_from={day}&date_to={day}&state=pending" for _ in range(repeat)
        ],
        "inbox, page at article 50,000 (keyset)": [f"/?state=any&after={deep_cursor}"] * repeat,
        "inbox, assigned to me (2,000)": ["/?state=any&assigned=me"] * repeat,
        "inbox, assigned to a colleague (8,000)": [f"/?state=any&assigned={colleague.pk}"] * repeat,
        "inbox, unassigned (90,000)": ["/?state=any&assigned=none"] * repeat,
        "inbox, unread by me (66,667)": ["/?state=any&reading=unread"] * repeat,
        "inbox, assigned to me + unread + pending": ["/?assigned=me&reading=unread&state=pending"] * repeat,
        "article page (random articles)": [f"/articles/{rng.choice(ids)}/" for _ in range(repeat * 2)],
    }


def query_alternatives(deep_cursor: str, n_articles: int) -> dict[str, tuple[float, str, float]]:
    """The pages' queries against their alternatives, measured as the queries alone (no request around them)."""
    light = ("id", "title", "url", "collected_at", "published_at", "site__id", "site__name")
    cursor = selectors.Cursor.decode(deep_cursor)

    def keyset():
        qs = Article.objects.select_related("site").only(*light).filter(selectors._older(cursor))
        return list(qs.order_by("-collected_at", "-id")[: selectors.PAGE_SIZE])

    def offset():
        qs = Article.objects.select_related("site").only(*light)
        return list(qs.order_by("-collected_at", "-id")[n_articles // 2 : n_articles // 2 + selectors.PAGE_SIZE])

    def capped():
        return Article.objects.order_by()[: selectors.COUNT_CAP + 1].count()

    def exact():
        return Article.objects.count()

    def state_page(filtered):
        def run_query():
            qs = filtered(Article.objects.select_related("site").only(*light))
            return list(qs.order_by("-collected_at", "-id")[: selectors.PAGE_SIZE + 1])

        return run_query

    alternatives = {
        "deep page (article 50,000): keyset": (
            timed_ms(keyset, 10),
            "deep page (article 50,000): OFFSET",
            timed_ms(offset, 10),
        ),
        f"article count: capped at {selectors.COUNT_CAP:,}": (
            timed_ms(capped, 10),
            "article count: exact COUNT(*)",
            timed_ms(exact, 10),
        ),
    }
    for state in ("suggested", "reviewed", "unreviewed"):
        alternatives[f"{state} page: stored state (page query)"] = (
            timed_ms(state_page(lambda qs, state=state: selectors.filter_state(qs, state)), 10),
            f"{state} page: EXISTS on the rows (page query)",
            timed_ms(state_page(lambda qs, state=state: state_from_rows(qs, state)), 5),
        )
    return alternatives


def data_sizes(n_articles: int) -> dict[str, int]:
    state_counts = dict(Article.objects.values_list("review_state").annotate(n=Count("id")).order_by())
    return {
        "articles": n_articles,
        "rules": Rule.objects.count(),
        "classifications": Classification.objects.count(),
        **{f"{label.lower()} articles": state_counts.get(state, 0) for state, label in selectors.STATES.items()},
        "cornerstone cases": len(kb.current().cornerstones),
    }


#: the before/after of making the inbox and article pages lighter again (the note under the table)
LIGHTER_PAGES = (
    "Before the pages were made lighter again (commit 4c921d5, the same data and machine, run right after the table "
    "above at a load average of 2.2-2.6, four agents sharing the two cores): the inbox's first page 88.5 ms median, "
    "101.1 ms p95, 11 queries; the article page 83.2 / 140.5 ms, 22 queries. A quieter pair of runs a quarter of an "
    "hour earlier (load 0.9-1.3, before the last QuickSelect change): the inbox 83.5 -> 34.4 ms median (98.8 -> "
    "51.3 ms p95), the article page 79.6 -> 47.8 ms (93.3 -> 63.9 ms p95). The report committed with 93ce011 (load "
    "0.6-0.9) had 89.0 and 73.9 ms median; at 5facc75, before the features since, 26.9 ms, and 29.7 ms with 15 "
    "queries. What changed: an inbox row is written by one tag (it was some 20 template lookups and filters a row, "
    "and six chip tags), its chips made once per folder and state, the filter form's selects in Python, the sites "
    "read without a server-side cursor and the assignees with the rows (11 -> 9 queries); on the article page the "
    "links to its folders and rules reversed once a page, the assignment's usernames and the explanation's folders "
    "read with the article and the rules, the read mark one INSERT, the header's corrections count cached (22 -> 16 "
    "queries, BEGIN and COMMIT around the read mark counted)."
)

#: the before/after of the article page's folder blocks and position line (the second note under the table)
ARTICLE_PAGE_ROUND = (
    "The article page again (commit db7515a, its code as at 4672a4c, against c9ef427, the same data and machine, "
    "each run right after the other at load averages of 2.9-5.3, four agents sharing the two cores): 50.7 -> 27.7 "
    "ms median, 109.9 -> 36.4 ms p95, 16 queries both; over five such pairs of runs the medians were 33.5-63.5 ms "
    "before and 27.3-40.6 ms after, and the article-page scenario alone, six runs of each interleaved (load 1.8-2.3), "
    "36.7 -> 30.9 ms (median of the runs' medians), p95 about 49 -> 44 ms. What changed: the folder blocks (about "
    "19 here) are written by one tag in Python (workspace.suggestion_blocks: a dozen template lookups, filters "
    "and tags a block before; a test compares its HTML with the old template's), and the position line's "
    "statement is built from the view's SQL compiled once, its total reusing the capped count of the newer rows "
    "(5.5 -> 2.5 ms a call; the same results)."
)


def report(data: dict, db_name: str) -> str:
    r = data["results"]
    lines = [
        "# Workspace page speed",
        "",
        "Generated by `make bench-workspace` (tests/bench/bench_workspace.py) on PostgreSQL "
        f"(`{db_name}`, {connection.pg_version // 10000}) on this machine (2 shared cores). "
        "Each request goes through Django's test Client: routing, middleware, session and user, "
        "the experts-only check, the queries and the template, with the knowledge base already cached "
        "in the process (as in a running server).",
        "",
        "Data: " + ", ".join(f"{v:,} {k}" for k, v in data["sizes"].items()) + ".",
        "",
        f"Machine load while measuring (1-minute load average, {os.cpu_count()} cores): "
        f"{data['load'][0]:.1f} before, {data['load'][1]:.1f} after. Other work on the machine slows "
        "every figure below; they are what was measured, not corrected.",
        "",
        f"Target: under {TARGET_MS} ms at the 95th percentile for the inbox and article pages.",
        "",
        "| page | requests | median ms | p95 ms | max ms | queries | under target |",
        "|---|---:|---:|---:|---:|---:|---|",
    ]
    for name, m in r.items():
        ok = "yes" if m["p95"] < TARGET_MS else "**no**"
        lines.append(
            f"| {name} | {m['n']} | {m['p50']:.1f} | {m['p95']:.1f} | {m['max']:.1f} | {m['queries']:.0f} | {ok} |"
        )
    alt = data["alternatives"]
    lines += [
        "",
        LIGHTER_PAGES,
        "",
        ARTICLE_PAGE_ROUND,
        "",
        f"Cold start: loading the rule tree and its cornerstone cases into a fresh process took "
        f"{data['cold_kb_ms']:.0f} ms (once per process and knowledge-base version; every page after "
        "that uses the cached tree).",
        "",
        "Without `gc.freeze()` after the knowledge base is loaded (classifier/kb.py does it; see the note), "
        "the same requests:",
        "",
        "| page | median ms | p95 ms | max ms | max with freeze |",
        "|---|---:|---:|---:|---:|",
        *[
            f"| {name} | {m['p50']:.1f} | {m['p95']:.1f} | {m['max']:.1f} | {r[name]['max']:.1f} |"
            for name, m in data["unfrozen"].items()
        ],
        "",
        "## Side by side",
        "",
        "| what | median ms | alternative | median ms | ratio |",
        "|---|---:|---|---:|---:|",
    ]
    for name, (ms, other, other_ms) in alt.items():
        lines.append(f"| {name} | {ms:.1f} | {other} | {other_ms:.1f} | {other_ms / ms:.1f}× |")
    lines += [
        "",
        "The review state (unreviewed, suggestions pending, reviewed) is stored on the article "
        "(`Article.review_state`), recomputed from the classification rows by "
        "`classifier.services.refresh_review_states` in the same transaction as every change of those rows, "
        "and indexed as (review_state, collected_at, id) and (site, review_state, collected_at, id): a "
        'state-filtered page is one index range scan in inbox order, however rare the state ("unreviewed" '
        "matches no article of this data set, the worst case for any scan). The alternative computes the "
        "state from the rows in the query (EXISTS / NOT EXISTS), which PostgreSQL plans as a scan of the "
        "articles in inbox order probing each one's rows, reading every article when none matches. "
        f'Counts stop at {selectors.COUNT_CAP:,} ("more than 1,000"), for state filters too.',
        "",
        "Before the state was stored (a chunked scan of the articles in inbox order with EXISTS probes, "
        "commit 8b4859e, measured at load average 1.4-1.8): the unreviewed filter, which matches no article "
        "here, took 159.6 ms median and 325.1 ms p95, the classified filter 85.7 / 104.9 ms.",
        "",
        "Note on the data: the synthetic rules fire broadly (about 19 folders per article, against 1 to 3 "
        "for the demo sites), which makes every list heavier than real use. Note on the tail: the cold "
        "load makes a few hundred thousand long-lived objects (rule tree, cornerstone keywords); a full "
        "garbage-collector pass over them adds 100 ms and more to the request that triggers it. "
        "classifier/kb.py calls `gc.freeze()` after each load, which takes them out of those passes.",
        "",
    ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--articles", type=int, default=100_000)
    parser.add_argument("--rules", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=60, help="requests per inbox scenario")
    parser.add_argument("--regenerate", action="store_true")
    parser.add_argument("--no-report", action="store_true", help="print only; do not write docs/benchmarks")
    args = parser.parse_args()
    if connection.vendor != "postgresql":
        raise SystemExit(f"bench-workspace measures PostgreSQL; DATABASE_URL points to {connection.vendor}")
    # No setup_test_environment(): it instruments template rendering (copying every context for
    # response.context), which a real server does not do. ALLOWED_HOSTS already lists "testserver".
    name = use_bench_database()
    if args.regenerate or not have_data(args.articles, args.rules):
        print(f"generating {args.articles:,} articles and {args.rules:,} rules in {name} ...")
        generate(args.articles, args.rules)
    # fresh statistics and visibility map, as autovacuum leaves them after bulk writes (also after a
    # migration rewrote kept data): capped counts can then be index-only scans
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")
    data = run(args.repeat)
    text = report(data, name)
    print(text)
    if not args.no_report:
        REPORT.parent.mkdir(parents=True, exist_ok=True)
        REPORT.write_text(text)
        print(f"wrote {REPORT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
