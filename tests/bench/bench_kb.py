"""Speed of the stored knowledge base on PostgreSQL: validation and rule commits among 100,000 cases.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/wims python tests/bench/bench_kb.py [--cases 100000]

Targets (issue 4): validation (cornerstone cases + difference list) with 100,000 stored cases at most
200 ms; committing a rule that affects cases among 100,000 stored ones, with their classifications
updated in PostgreSQL, at most 2 s. Measured through the real services (classifier/services.py).

Data (synthetic, shaped like filtered news text, generated with bulk_create into a separate database
`<name>_bench_kb`, kept between runs; cases, rules and classifications by bulk_create, the
millions of index rows by COPY): a Zipf vocabulary of 30,000 words, each case the distinct
words of a 120-token text; 40 folders; rules grown like an expert would (ground-breaking rules on
mid-frequency words of a random case, refining and stopping rules under the rules that fire on a
random case), every case classified by inference. Each case belongs to an article (title and URL only),
as collected cases do, so that commits pay for keeping the articles' review state (the inbox's state
filter) in step with their classifications.

Side by side: the commit re-inferring only the cases that hold the rule's keywords (the CaseKeyword
inverted index) against re-inferring every stored case, as without the index.
"""

from __future__ import annotations

import argparse
import io
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "wims.settings")
os.environ.setdefault("WIMS_ENV", "development")  # a benchmark on this machine (wims/settings.py)
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/wims")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management.color import no_style  # noqa: E402
from django.db import connection, transaction  # noqa: E402

from classifier import kb, services  # noqa: E402
from classifier.engine import Rule as EngineRule  # noqa: E402
from classifier.engine import RuleTree  # noqa: E402
from classifier.models import (  # noqa: E402
    AuditEntry,
    Case,
    CaseKeyword,
    Classification,
    Folder,
    KnowledgeBase,
    Rule,
)
from classifier.services import classifications  # noqa: E402
from classifier.services import rules as kb_rules  # noqa: E402
from monitor.models import Article, Site  # noqa: E402
from tests.bench.generated_part import write_part  # noqa: E402

VOCABULARY = 30_000
TOKENS = 120
REPORT = ROOT / "docs" / "benchmarks" / "mcrdr-storage.md"


def zipf_sampler(rng: random.Random, n: int = VOCABULARY, s: float = 1.05):
    cum, total = [], 0.0
    for rank in range(1, n + 1):
        total += 1 / rank**s
        cum.append(total)
    words = [f"w{i}" for i in range(n)]
    return lambda k: rng.choices(words, cum_weights=cum, k=k)


# --------------------------------------------------------------------------- data
def use_bench_database() -> str:
    """Create (or reuse) a separate database for the benchmark, migrated, and connect to it."""
    name = f"{settings.DATABASES['default']['NAME']}_bench_kb"
    settings.DATABASES["default"].setdefault("TEST", {})["NAME"] = name
    connection.creation.create_test_db(verbosity=0, keepdb=True, serialize=False)
    return name


def drop_index_constraints(table: str) -> list[str]:
    """Drop the table's secondary indexes and constraints for a bulk load; returns the SQL recreating them.

    Loading millions of rows into an indexed table is dominated by random b-tree inserts; building the
    index once afterwards is several times faster. Runs inside the generation transaction, so a failed
    load leaves the schema as it was.
    """
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT conname, pg_get_constraintdef(oid), conindid FROM pg_constraint "
            "WHERE conrelid = %s::regclass AND contype <> 'p'",
            [table],
        )
        constraints = cursor.fetchall()
        cursor.execute(
            "SELECT i.indexname, i.indexdef FROM pg_indexes i WHERE i.tablename = %s "
            "AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexname::regclass)",
            [table],
        )
        indexes = cursor.fetchall()
        for name, _definition, _index in constraints:
            cursor.execute(f'ALTER TABLE {table} DROP CONSTRAINT "{name}"')
        for name, _definition in indexes:
            cursor.execute(f'DROP INDEX "{name}"')
    return [f'ALTER TABLE {table} ADD CONSTRAINT "{name}" {definition}' for name, definition, _ in constraints] + [
        definition for _name, definition in indexes
    ]


def recreate(statements: list[str]) -> None:
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL maintenance_work_mem = '256MB'")
        for sql in statements:
            cursor.execute(sql)


def generate(n_cases: int, n_rules: int, seed: int = 1) -> None:
    rng = random.Random(seed)
    t0 = time.perf_counter()
    with connection.cursor() as cursor:
        cursor.execute(
            "TRUNCATE classifier_classification, classifier_casekeyword, classifier_rule, classifier_case, "
            "classifier_folder, classifier_auditentry, monitor_article, monitor_site RESTART IDENTITY CASCADE"
        )
    site = Site.objects.create(name="Bench", home_url="https://bench.example/")
    folders = []
    for top in range(10):
        parent = Folder.objects.create(name=f"Topic {top}", path=f"Topic {top}")
        folders.append(parent)
        for sub in range(3):
            folders.append(Folder.objects.create(name=f"Sub {sub}", parent=parent, path=f"Topic {top}/Sub {sub}"))
    cases = generate_cases(site, n_cases, zipf_sampler(rng), t0)
    tree, rules = grow_rules(rng, cases, [f.pk for f in folders], n_rules)
    Rule.objects.bulk_create(rules, batch_size=2000)
    with connection.cursor() as cursor:
        for sql in connection.ops.sequence_reset_sql(no_style(), [Rule]):
            cursor.execute(sql)
    made = []
    for case_id, words in cases:
        seen = set()
        for conclusion in tree.infer(words):
            if conclusion.folder not in seen:
                seen.add(conclusion.folder)
                made.append(Classification(case_id=case_id, folder_id=conclusion.folder, rule_id=conclusion.rule_id))
    Classification.objects.bulk_create(made, batch_size=10_000)
    services.refresh_review_states(case_id for case_id, _words in cases)
    KnowledgeBase.objects.update_or_create(pk=1, defaults={"version": 1, "stamp": KnowledgeBase.new_stamp()})
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    print(
        f"  generated {n_cases:,} cases, {CaseKeyword.objects.count():,} index rows, {len(rules):,} rules, "
        f"{len(made):,} classifications in {time.perf_counter() - t0:.0f} s"
    )


def generate_cases(site: Site, n_cases: int, sample, t0: float) -> list[tuple[int, frozenset]]:
    """``n_cases`` articles of ``site`` and their cases (words drawn by ``sample``), with the keyword index;
    each case's id and words."""
    cases: list[tuple[int, frozenset]] = []
    batch = 5000
    restore = drop_index_constraints("classifier_casekeyword")
    for start in range(0, n_cases, batch):
        size = min(batch, n_cases - start)
        articles = Article.objects.bulk_create(
            [
                Article(site=site, url=f"https://bench.example/{start + i}", title=f"article {start + i}")
                for i in range(size)
            ]
        )
        rows = [Case(article=article, keywords=sorted(set(sample(TOKENS))), source=article.url) for article in articles]
        Case.objects.bulk_create(rows)
        # the ~8 million index rows go in by COPY: 4x faster than bulk_create measured here
        buffer = io.StringIO("".join(f"{row.pk}\t{w}\n" for row in rows for w in row.keywords))
        with connection.cursor() as cursor:
            cursor.cursor.copy_expert("COPY classifier_casekeyword (case_id, keyword) FROM STDIN", buffer)
        cases.extend((row.pk, frozenset(row.keywords)) for row in rows)
        print(f"  cases {start + len(rows):,}/{n_cases:,}  {time.perf_counter() - t0:.0f} s", end="\r", flush=True)
    print()
    recreate(restore)
    print(f"  index rebuilt  {time.perf_counter() - t0:.0f} s")
    return cases


def grow_rules(
    rng: random.Random, cases: list[tuple[int, frozenset]], folder_ids: list[int], n_rules: int
) -> tuple[RuleTree, list[Rule]]:
    """``n_rules`` rules grown on the cases, as the simulated expert would: the engine's tree and the rows."""
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


def timed(fn, *args, **kwargs):
    start = time.perf_counter()
    result = fn(*args, **kwargs)
    return (time.perf_counter() - start) * 1000, result


def keyword_with_frequency(target: int, exclude: set[str]) -> tuple[str, int]:
    """A keyword held by about ``target`` cases (from the index, not yet a rule condition)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT keyword, count(*) AS n FROM classifier_casekeyword GROUP BY keyword "
            "HAVING count(*) BETWEEN %s AND %s ORDER BY abs(count(*) - %s), keyword LIMIT 50",
            [int(target * 0.7), int(target * 1.3), target],
        )
        for word, n in cursor.fetchall():
            if word not in exclude:
                return word, n
    raise SystemExit(f"no keyword held by about {target} cases")


def bench_validation(rng: random.Random, repeat: int) -> dict:
    stones = set(kb.current().cornerstones)
    ids = list(Case.objects.order_by("?").values_list("id", flat=True)[: repeat * 3])
    folder_ids = list(Folder.objects.values_list("id", flat=True))
    kb.clear_cache()
    first = Case.objects.get(pk=next(i for i in ids if i not in stones))
    # cold: load rules + cornerstones, build the cornerstone index, explain every cornerstone once
    cold, _ = timed(services.validate_rule, first, "new", folder=folder_ids[0])
    new_ms, refine_ms, empty_ms, shown = [], [], [], []
    for case_id in [i for i in ids if i not in stones][:repeat]:
        case = Case.objects.get(pk=case_id)
        word = rng.choice(case.keywords)
        ms, v = timed(services.validate_rule, case, "new", folder=rng.choice(folder_ids), conditions=[word])
        # the expert selects the cornerstone cases shown: the difference list is recomputed
        ms2, v = timed(
            services.validate_rule,
            case,
            "new",
            folder=v.proposal.folder,
            conditions=[word],
            selected_cornerstones=[c.case for c in v.cornerstone_cases[:5]],
        )
        new_ms += [ms, ms2]
        shown.append(len(v.cornerstone_cases))
        ms, _ = timed(services.validate_rule, case, "new", folder=rng.choice(folder_ids))
        empty_ms.append(ms)
        fired = services.infer(case)
        if fired:
            wrong = fired[0].folder
            target = rng.choice([f for f in folder_ids if f != wrong])
            ms, _ = timed(services.validate_rule, case, "refine", folder=target, wrong_folder=wrong)
            refine_ms.append(ms)
    return {
        "cold_load_ms": cold,
        "new": new_ms,
        "refine": refine_ms,
        "empty": empty_ms,
        "cornerstones": len(stones),
        "shown_median": statistics.median(shown),
    }


def commit_once(case, folder, word, user) -> tuple[float, int, float]:
    ms, rules = timed(services.commit_rule, case, "new", user, folder=folder, conditions=[word])
    entry = AuditEntry.objects.filter(action="rule.commit").first()
    changed = entry.details["reclassified"]["cases"]
    undo_ms, _ = timed(services.undo_last_rule, user)
    return ms, changed, undo_ms


def bench_commit(rng: random.Random, user, targets: list[int], repeat: int, full_scan: bool) -> list[dict]:
    used = {w for conds in Rule.objects.values_list("conditions", flat=True) for w in conds}
    folder_ids = list(Folder.objects.values_list("id", flat=True))
    results = []
    original = kb_rules.add_ground_breaking  # the name commit_rule calls
    if full_scan:
        # the alternative: no inverted index, so every stored case is re-inferred with the old and new tree
        def reinfer_everything(rule, now):
            old = kb.current()  # the cache still holds the pre-commit tree until the transaction commits
            new = old.derive(add=[rule])
            everything = classifications.cases_holding(frozenset())
            return classifications.sync_classifications(classifications.reclassified(old.tree, new.tree, everything))

        kb_rules.add_ground_breaking = reinfer_everything
    try:
        for target in targets:
            word, holders = keyword_with_frequency(target, used)
            case = Case.objects.filter(index_entries__keyword=word).order_by("id").first()
            folder = next(f for f in folder_ids if f not in {c.folder for c in services.infer(case)})
            runs = [commit_once(case, folder, word, user) for _ in range(repeat)]
            results.append(
                {
                    "holders": holders,
                    "changed": runs[0][1],
                    "commit": [r[0] for r in runs],
                    "undo": [r[2] for r in runs],
                }
            )
            used.add(word)
    finally:
        kb_rules.add_ground_breaking = original
    return results


def bench_refine(rng: random.Random, user, repeat: int) -> list[dict]:
    """Refining rules under the rule that gave a random case its folder, on one of its mid-frequency words."""
    folder_ids = list(Folder.objects.values_list("id", flat=True))
    pool = {f"w{i}" for i in range(300, 3_000)}
    results = []
    for case_id in Case.objects.order_by("?").values_list("id", flat=True)[:200]:
        case = Case.objects.get(pk=case_id)
        fired = services.infer(case)
        words = sorted(set(case.keywords) & pool)
        if not fired or not words:
            continue
        wrong = fired[0].folder
        ms, rules = timed(
            services.commit_rule,
            case,
            "refine",
            user,
            folder=rng.choice([f for f in folder_ids if f != wrong]),
            wrong_folder=wrong,
            conditions=[rng.choice(words)],
        )
        entry = AuditEntry.objects.filter(action="rule.commit").first()
        results.append({"ms": ms, "changed": entry.details["reclassified"]["cases"], "rules": len(rules)})
        services.undo_last_rule(user)
        if len(results) >= repeat:
            break
    return results


# --------------------------------------------------------------------------- report
def fmt(values) -> str:
    return f"{statistics.median(values):.1f}"


def p95(values) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(0.95 * (len(values) - 1))))]


VALIDATION_INTRO = """\
Served from the process's cached rule tree, cornerstone index and cornerstone case rows (one query
for the version row, one for the folders named); the 100,000 ordinary cases are not read (they only
matter for the on-request duplicated-cases list). The words' rarity among them is one KeywordFrequency
row a word (kept by triggers on the keyword index), not a count of the index's rows: the widest draft's
count read about 1.5 million of those (0.5-1 s). The folder lists of a changed cornerstone case are
built when the page shows it, not for every case that may change."""
COMMIT_INTRO = """\
End to end through `services.commit_rule` (lock, proposal re-check, rule rows, re-inference,
classification updates, KB version, audit entry, transaction commit); then `undo_last_rule` restores
the state for the next run ({repeat} runs each). Alternative: the same commit re-inferring every
stored case with the old and the new tree (no inverted index, no ground-breaking shortcut)."""
NOTES = """\
Notes: the keyword index is the CaseKeyword table with its unique (keyword, case) b-tree; candidate
cases are found with one join per condition keyword, which works unchanged on SQLite (no
PostgreSQL-specific index). A ground-breaking rule is stored with one INSERT ... SELECT over that
join (no inference: it only adds its folder where no row exists); refining and stopping rules
re-infer only the cases holding every keyword of their rule path. Undo re-infers the cases whose
suggestions point at the removed rule (two inferences each), hence slower than the commit.
Every case belongs to an article, and each commit and undo also keeps the review state of the articles
whose classifications it changed (`services.refresh_review_states`, one UPDATE ... FROM reading their
cases' rows; for the cases a ground-breaking rule gives a suggestion, `mark_suggested`, which
reads no row) and, through triggers on the classifications, the folders each article's search document
is filtered by (search_documentfolders: an insert adds its folders to the stored ones)."""
VACUUM_AND_EARLIER = """\
PostgreSQL here runs with autovacuum off; the benchmark runs VACUUM ANALYZE before measuring, as
autovacuum would have after the bulk load and earlier runs.

Earlier figures: before this version (commit 8b4859e; cases without articles, so no review state to
keep; load 1.7) the widest validation took 100.0 ms median and 205.0 ms p95 (201.6 ms p95 over all
kinds: the target missed) and the 20,025-holder commit 1,398 ms. With the review state kept, before
the benchmark vacuumed (about 480,000 dead rows left by the bulk load and earlier commit/undo cycles;
load 1.4-1.6 with other tests running), the 20,025-holder commit took 2,076 ms median and 2,324 ms
p95, over the target: the largest commit needs vacuumed tables, as autovacuum keeps them.
"""


def write_report(args, db_name, validation, commits, full, data_ms, refines) -> str:
    n_rules = Rule.objects.count()
    n_index = CaseKeyword.objects.count()
    lines = [
        "# MCRDR knowledge base storage: speed on PostgreSQL",
        "",
        "Produced by `make bench-kb` (`python tests/bench/bench_kb.py`); numbers from the last run on the",
        f"development machine (2 shared cores), PostgreSQL {connection.pg_version // 10000}, database `{db_name}`.",
        "",
        f"Data: {args.cases:,} stored cases ({n_index:,} CaseKeyword index rows; each case the distinct words of a",
        f"{TOKENS}-token Zipf text over {VOCABULARY:,} words), {n_rules:,} rules with "
        f"{validation['cornerstones']:,} cornerstone cases,",
        f"{Classification.objects.count():,} classifications, generated with bulk_create"
        + (f" in {data_ms / 1000:.0f} s." if data_ms else " (kept from an earlier run)."),
    ]
    lines += targets_section(args, validation, commits, refines)
    lines += validation_section(validation)
    lines += commit_section(args, commits, full)
    lines += [
        "",
        NOTES,
        "",
        f"Load average (1 minute, {os.cpu_count()} cores): {LOAD[0]:.1f} when the measurements started, "
        f"{os.getloadavg()[0]:.1f} when they ended.",
        VACUUM_AND_EARLIER,
    ]
    # only the bench's own part of the report: the sections written by hand around it stay
    return write_part(REPORT, "\n".join(lines), "tests/bench/bench_kb.py")


def targets_section(args, validation, commits, refines) -> list[str]:
    """The figures against issue 4's targets: validation, a refining rule's commit, each commit size."""
    val_all = validation["new"] + validation["refine"] + validation["empty"]
    lines = [
        "",
        "## Against the targets of issue 4",
        "",
        "| measure | median | p95 | target | target / median |",
        "|---|---:|---:|---:|---:|",
        f"| validation (cornerstone cases + difference list), all kinds, n={len(val_all)} | {fmt(val_all)} ms | "
        f"{p95(val_all):.1f} ms | 200 ms | {200 / statistics.median(val_all):.0f}x |",
    ]
    if refines:
        ms = [r["ms"] for r in refines]
        lines.append(
            f"| commit of a refining rule (random case and word, {len(refines)} runs; reclassified "
            f"{min(r['changed'] for r in refines):,}-{max(r['changed'] for r in refines):,}) | "
            f"{statistics.median(ms):.0f} ms | {p95(ms):.0f} ms | 2000 ms | {2000 / statistics.median(ms):.1f}x |"
        )
    for row in commits:
        median = statistics.median(row["commit"])
        lines.append(
            f"| commit of a rule among {args.cases:,} cases, {row['holders']:,} holding its keyword "
            f"({row['changed']:,} reclassified) | {median:.0f} ms | {p95(row['commit']):.0f} ms | 2000 ms | "
            f"{2000 / median:.1f}x |"
        )
    return lines


def validation_section(validation) -> list[str]:
    return [
        "",
        "## Validation, by kind of rule",
        "",
        VALIDATION_INTRO,
        "",
        "| validation | n | median | p95 |",
        "|---|---:|---:|---:|",
        f"| new rule, one condition (then again with 5 cornerstones selected) | {len(validation['new'])} | "
        f"{fmt(validation['new'])} ms | {p95(validation['new']):.1f} ms |",
        f"| new rule, no condition yet (widest: every cornerstone case may change) | {len(validation['empty'])} | "
        f"{fmt(validation['empty'])} ms | {p95(validation['empty']):.1f} ms |",
        f"| refining rule, no condition yet | {len(validation['refine'])} | {fmt(validation['refine'])} ms | "
        f"{p95(validation['refine']):.1f} ms |"
        if validation["refine"]
        else "| refining rule | 0 | - | - |",
        f"| first validation after a KB change (reload rules + cornerstones, explain each cornerstone once) | 1 | "
        f"{validation['cold_load_ms']:.0f} ms | |",
        "",
        f"Median cornerstone cases shown for a one-condition new rule: {validation['shown_median']:.0f}.",
    ]


def commit_section(args, commits, full) -> list[str]:
    """Each commit size, with the index and re-inferring every case."""
    lines = [
        "",
        "## Commit, by the number of cases holding the rule's keyword",
        "",
        COMMIT_INTRO.format(repeat=args.repeat),
        "",
        "| cases holding the keyword | reclassified | commit, index | undo | commit, all cases | all cases / index |",
        "|---:|---:|---:|---:|---:|---:|",
    ]
    for idx, row in enumerate(commits):
        other = full[idx] if idx < len(full) else None
        alt = f"{fmt(other['commit'])} ms" if other else "-"
        ratio = f"{statistics.median(other['commit']) / statistics.median(row['commit']):.1f}x" if other else "-"
        lines.append(
            f"| {row['holders']:,} | {row['changed']:,} | {fmt(row['commit'])} ms | {fmt(row['undo'])} ms | "
            f"{alt} | {ratio} |"
        )
    return lines


LOAD = [0.0]  # load average when the measurements start (after any data generation)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cases", type=int, default=100_000)
    parser.add_argument("--rules", type=int, default=2_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--sizes", default="100,1000,5000,20000", help="cases holding the rule keyword")
    parser.add_argument("--regenerate", action="store_true")
    parser.add_argument("--no-report", action="store_true")
    parser.add_argument(
        "--validation-only", action="store_true", help="measure validation only, print each kind's median and p95"
    )
    args = parser.parse_args()
    if connection.vendor != "postgresql":
        raise SystemExit("this benchmark measures PostgreSQL; set DATABASE_URL=postgres://...")
    db_name = use_bench_database()
    data_ms = 0.0
    if (
        args.regenerate
        or Case.objects.count() != args.cases
        or Rule.objects.count() != args.rules
        or Case.objects.filter(article__isnull=True).exists()
    ):  # data of a version without articles
        print(f"generating data in {db_name} ...")
        start = time.perf_counter()
        with transaction.atomic():
            generate(args.cases, args.rules)
        data_ms = (time.perf_counter() - start) * 1000
    else:
        print(f"reusing the data in {db_name}")
    # this machine's PostgreSQL runs with autovacuum off: vacuum and analyze as autovacuum would have
    # after the bulk load and earlier runs' commit/undo cycles, so dead rows of those do not weigh here
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")
    user, _ = get_user_model().objects.get_or_create(username="bench-expert")
    LOAD[0] = os.getloadavg()[0]
    rng = random.Random(5)
    validation = bench_validation(rng, args.repeat * 4)
    print(f"validation median {fmt(validation['new'] + validation['empty'] + validation['refine'])} ms")
    if args.validation_only:
        every = validation["new"] + validation["empty"] + validation["refine"]
        for kind, values in (*((k, validation[k]) for k in ("new", "empty", "refine")), ("all kinds", every)):
            print(f"  {kind}: n={len(values)} median {fmt(values)} ms p95 {p95(values):.1f} ms")
        return
    sizes = [int(s) for s in args.sizes.split(",")]
    commits = bench_commit(rng, user, sizes, args.repeat, full_scan=False)
    for row in commits:
        print(f"commit, {row['holders']:,} holders: {fmt(row['commit'])} ms (undo {fmt(row['undo'])} ms)")
    refines = bench_refine(rng, user, args.repeat * 3)
    print(f"refining commits: median {statistics.median([r['ms'] for r in refines]):.0f} ms")
    full = bench_commit(rng, user, sizes[:2], max(1, args.repeat // 2), full_scan=True)
    for row in full:
        print(f"commit re-inferring all cases, {row['holders']:,} holders: {fmt(row['commit'])} ms")
    if not args.no_report:
        print(write_report(args, db_name, validation, commits, full, data_ms, refines))


if __name__ == "__main__":
    main()
