"""Benchmark of the page kind (issue 33 item 3; ``make bench-sources``): only articles go on to the experts.

Every page is read once (``filters.read_page``, its HTML5 tree parsed), then judged twice on the same evidence:
by WIMS (``filters.kind.page_kind``: metadata, URL and structure) and by the plain metadata rule
(``filters.kind.metadata_kind``: an article when ``og:type`` is ``article`` or a JSON-LD ``@type`` is an article
type).  Datasets (``$WIMS_DATASETS``, default ``../shared/datasets``; see its README):

* ``wcxb-dev-kinds`` - 1,358 pages with their page type (article, collection, documentation, forum, listing,
  product, service) and URL.  **Held-out split**: the pages whose domain's SHA-256 (hex, first 8 digits as an
  integer) is 0, 1 or 2 modulo 10, about 30 % (no domain is in both splits: a site's pages go together);
  the **tuning split** is the rest.  Rules, thresholds and weights were chosen on the tuning split only
  (``--fit`` refits the weights there); the held-out split was read once, at the end.
* ``crawl-to-the-future`` - 10 news sites, article pages only (old pages, real navigation): article recall
  by site.  Tuning split: years 2000 and 2005; held-out: 2010 and 2015 (as the other filter benchmarks).
  The URL is the one the Wayback Machine archived (its toolbar's ``wbCurrentUrl``), else none (the page's
  canonical link stands for it).

Time: the page's parse (the HTML5 tree) and, apart, the kind's own time on that tree (median, p90).

    .venv/bin/python tests/bench/bench_sources.py [--split tune|held|both] [--limit N] [--no-report]
    .venv/bin/python tests/bench/bench_sources.py --fit     # refit WEIGHTS on the tuning split (scikit-learn)

Writes ``docs/benchmarks/sources.md``.  The run takes the exclusive benchmark lock ``/tmp/wims-bench.lock``.
"""

from __future__ import annotations

import argparse
import csv
import gzip
import hashlib
import os
import platform
import re
import statistics
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from filters import ExtractionError, read_page  # noqa: E402
from filters.kind import (  # noqa: E402
    Kind,
    PageKind,
    facts,
    gather,
    link_kind,
    metadata_kind,
    page_kind,
    settle,
    url_shape,
)
from tests.bench.bench_env import commit_id, load_average, take_lock  # noqa: E402
from tests.bench.generated_part import write_section  # noqa: E402

DATASETS = Path(os.environ.get("WIMS_DATASETS", ROOT.parent / "shared" / "datasets"))
REPORT = ROOT / "docs" / "benchmarks" / "sources.md"
KINDS, CTF = "wcxb-dev-kinds", "crawl-to-the-future"
SPLITS = ("held", "tune")  # the order of the report: the held-out split is what counts
CTF_HELD_YEARS = frozenset({"2010", "2015"})
PAGE_TYPES = ("article", "listing", "collection", "forum", "product", "documentation", "service")
#: the targets of issue 33 item 3, on pages never tuned on
TARGET_RECALL = 0.97
TARGET_KEPT_OUT = 0.90
TARGET_MS = 1.0
#: the held-out figures of the committed report, rounded down: tests/filters/test_kind.py keeps them from falling.
#: They are under the targets (article recall 194/208, kept out 158/181): see docs/benchmarks/sources.md
FLOOR_RECALL = 0.93
FLOOR_KEPT_OUT = 0.87
FLOOR_CTF_RECALL = 0.99
_WAYBACK_URL = re.compile(r'wbCurrentUrl = "([^"]+)"')


def held_out(domain: str) -> bool:
    """The held-out split of wcxb-dev-kinds: by the domain's hash, so that no site is in both splits."""
    return int(hashlib.sha256(domain.encode()).hexdigest()[:8], 16) % 10 < 3


@dataclass(frozen=True)
class Source:
    """A page of a dataset: its id, page type, URL (or None), file, and the site it reports under."""

    ident: str
    page_type: str
    url: str | None
    path: Path
    site: str


def kinds_pages(split: str, root: Path = DATASETS) -> list[Source]:
    """The wcxb-dev-kinds pages of a split ("tune" or "held")."""
    folder = root / KINDS
    with (folder / "manifest.csv").open(newline="") as fh:
        rows = list(csv.DictReader(fh))
    return [
        Source(r["id"], r["page_type"], r["url"], folder / r["html"], r["domain"])
        for r in rows
        if held_out(r["domain"]) == (split == "held")
    ]


def ctf_pages(split: str, root: Path = DATASETS) -> list[Source]:
    """The crawl-to-the-future article pages of a split (tuning 2000 and 2005, held-out 2010 and 2015)."""
    folder = root / CTF
    with (folder / "manifest.csv").open(newline="") as fh:
        rows = list(csv.DictReader(fh))
    return [
        Source(r["html"], "article", None, folder / r["html"], r["site"])
        for r in rows
        if (r["year"] in CTF_HELD_YEARS) == (split == "held")
    ]


@dataclass
class Judged:
    """One page's verdicts and times (ms); ``unread`` when ``read_page`` refused it (no verdict)."""

    source: Source
    wims: PageKind | None = None
    metadata: PageKind | None = None
    settled: bool = False  # WIMS's verdict came from a rule that settles it, not from the weights
    parse_ms: float = 0.0
    kind_ms: float = 0.0
    kind_cpu_ms: float = 0.0  # the thread's CPU time: the kind's own cost, whatever else the machine runs
    unread: str = ""


def page_url(source: Source, page) -> str | None:
    """The page's address: the source's, else (crawl-to-the-future) the archived one its Wayback toolbar names."""
    if source.url is not None:
        return source.url
    found = _WAYBACK_URL.search(page.text[:30000])
    return found.group(1).replace("&amp;", "&") if found else None


def judge_pages(sources: list[Source]) -> Iterator[Judged]:
    """Read each page once; time its parse and the kind on its tree apart; judge it by WIMS and by metadata."""
    for source in sources:
        data = source.path.read_bytes()
        data = gzip.decompress(data) if source.path.name.endswith(".gz") else data
        try:
            page = read_page(data)
            t0 = time.perf_counter()
            page.tree  # noqa: B018 - the parse, timed apart
            t1 = time.perf_counter()
        except ExtractionError as exc:
            yield Judged(source, unread=str(exc))
            continue
        url = page_url(source, page)
        c2, t2 = time.thread_time(), time.perf_counter()
        wims = page_kind(page, url)
        t3, c3 = time.perf_counter(), time.thread_time()
        ev = gather(page, url)  # again, for the baseline and the bookkeeping (not timed)
        settled = settle(ev, url_shape(ev.url), facts(ev, url_shape(ev.url))) is not None
        yield Judged(source, wims, metadata_kind(ev), settled, (t1 - t0) * 1000, (t3 - t2) * 1000, (c3 - c2) * 1000)


# --------------------------------------------------------------------------- scores


@dataclass
class Tally:
    """Right verdicts out of pages, per group (page type or site), for WIMS and the metadata rule."""

    right: Counter[str] = field(default_factory=Counter)
    metadata: Counter[str] = field(default_factory=Counter)
    pages: Counter[str] = field(default_factory=Counter)

    def add(self, group: str, judged: Judged) -> None:
        article = judged.source.page_type == "article"
        assert judged.wims is not None and judged.metadata is not None
        self.pages[group] += 1
        self.right[group] += judged.wims.is_article == article
        self.metadata[group] += judged.metadata.is_article == article

    def ratio(self, group: str, metadata: bool = False) -> float:
        n = self.pages[group]
        return (self.metadata if metadata else self.right)[group] / n if n else float("nan")

    def cell(self, group: str, metadata: bool = False) -> str:
        """``right/pages = ratio``, for a table."""
        return _ratio((self.metadata if metadata else self.right)[group], self.pages[group])


@dataclass
class Result:
    """A split's scores: by page type (wcxb), by site (crawl-to-the-future), kinds given, times, misses."""

    types: Tally = field(default_factory=Tally)
    sites: Tally = field(default_factory=Tally)
    kinds: dict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    hidden: Counter[str] = field(default_factory=Counter)  # reasons WIMS gave to the articles it hid
    settled: Counter[str] = field(default_factory=Counter)  # pages per type that a rule settled
    parse_ms: list[float] = field(default_factory=list)
    kind_ms: list[float] = field(default_factory=list)
    kind_cpu_ms: list[float] = field(default_factory=list)
    unread: list[str] = field(default_factory=list)

    def add_kinds(self, judged: Judged) -> None:
        if judged.unread:
            self.unread.append(f"{judged.source.ident} ({judged.source.page_type}): {judged.unread}")
            return
        assert judged.wims is not None
        page_type = judged.source.page_type
        self.types.add(page_type, judged)
        if page_type != "article":
            self.types.add("non-article", judged)
        self.kinds[page_type][judged.wims.kind] += 1
        self.settled[page_type] += judged.settled
        self._time(judged)
        if page_type == "article" and not judged.wims.is_article:
            self.hidden[_reason_class(judged.wims)] += 1

    def add_site(self, judged: Judged) -> None:
        if judged.unread:
            self.unread.append(f"{judged.source.ident}: {judged.unread}")
            return
        self.sites.add(judged.source.site, judged)
        self.sites.add("all sites", judged)
        self._time(judged)
        if judged.wims is not None and not judged.wims.is_article:
            self.hidden[_reason_class(judged.wims)] += 1

    def _time(self, judged: Judged) -> None:
        self.parse_ms.append(judged.parse_ms)
        self.kind_ms.append(judged.kind_ms)
        self.kind_cpu_ms.append(judged.kind_cpu_ms)

    def recall(self, metadata: bool = False) -> float:
        return self.types.ratio("article", metadata)

    def kept_out(self, metadata: bool = False) -> float:
        return self.types.ratio("non-article", metadata)


def _reason_class(verdict: PageKind) -> str:
    """A verdict's reason without its numbers, to count alike ones together."""
    return f"{verdict.kind}: " + re.sub(r"[+-]?\d[\d,.]*", "N", verdict.reason)


def run(split: str, limit: int | None = None, root: Path = DATASETS) -> Result:
    result = Result()
    kinds = kinds_pages(split, root)
    ctf = ctf_pages(split, root)
    if limit:
        kinds, ctf = kinds[:limit], ctf[:limit]
    for judged in judge_pages(kinds):
        result.add_kinds(judged)
    for judged in judge_pages(ctf):
        result.add_site(judged)
    return result


# --------------------------------------------------------------------------- report


def _ratio(right: int, n: int) -> str:
    return f"{right}/{n} = {right / n:.3f}" if n else "-"


def _ms(values: list[float], q: float = 0.5) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def courlan_refuses():
    """courlan's filter of a crawler's links (trafilatura's: ``check_url(strict=True, with_nav=False)``), or None
    when courlan is not installed (``make .venv/.installed-bench``)."""
    try:
        import courlan
    except ImportError:
        return None
    return lambda url: courlan.check_url(url, strict=True, with_nav=False) is None


def links_table(split: str, root: Path = DATASETS) -> str:
    """The link level: how many page addresses of the split each rule refuses before any fetch, articles (lost)
    and other pages (spared a fetch), WIMS's ``link_kind`` beside courlan's filter."""
    pages = [p for p in kinds_pages(split, root) if p.url]
    articles = [p.url for p in pages if p.page_type == "article"]
    others = [p.url for p in pages if p.page_type != "article"]
    rules = {"WIMS (`filters.kind.link_kind`)": lambda url: link_kind(url) is not None}
    courlan_rule = courlan_refuses()
    if courlan_rule is not None:
        rules["courlan `check_url(strict=True, with_nav=False)`"] = courlan_rule
    rows = ["| rule | article addresses refused (lost) | other addresses refused (not fetched) |", "|---|---:|---:|"]
    for name, refuses in rules.items():
        lost, spared = sum(map(refuses, articles)), sum(map(refuses, others))
        rows.append(f"| {name} | {_ratio(lost, len(articles))} | {_ratio(spared, len(others))} |")
    if courlan_rule is None:
        rows.append("| courlan | not installed | |")
    return "\n".join(rows)


def demo_links_table() -> str:
    """The link level on the demo sites (every pool story published, fixed dates): the links of each home page and
    of its section pages (first and second pages), read with the site's rules as WebMon builds them
    (``monitor.services._rules`` on the registration of ``demo.registration``: no include pattern, *Only articles*).
    The site left to register (The Morning Pulse) is registered as the README says, by its home page alone."""
    from demo.registration import demo_site_settings
    from demo.sites import LEFT_TO_REGISTER, SERVED_SITES, article_url, fixed_context, template_for
    from monitor.discovery import LinkRules, links_from_html, select_candidates

    base = "http://127.0.0.1:9"
    rows = [
        "| site | pages | links to the site | candidates | articles among candidates | article links taken "
        "| other links taken | other links taken without *Only articles* |",
        "|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    for spec in SERVED_SITES:
        site = demo_site_settings(spec, base, sections=spec is not LEFT_TO_REGISTER)
        watched = site["section_urls"].split("\n") + ([site["feed_url"]] if site["feed_url"] else [])
        rules = LinkRules(site["home_url"], [], site["exclude_patterns"].split("\n"), watched, articles_only=True)
        plain = LinkRules(site["home_url"], [], site["exclude_patterns"].split("\n"), watched)
        tpl, ctx = template_for(spec), fixed_context(spec, base)
        articles = {article_url(spec, a, base) for a, _ in ctx.published}
        sections = [tpl.section(ctx, s, p) for s in spec.sections for p in (1, 2) if p == 1 or
                    len(ctx.published_in(s)) > tpl.page_size]  # fmt: skip
        for name, pages in (("home", [tpl.home(ctx)]), (f"{len(sections)} section pages", sections)):
            links = {u for page in pages for u in links_from_html(page, base + "/") if u.startswith(base)}
            taken = set(select_candidates(sorted(links), rules))
            linked = links & articles
            rows.append(
                f"| {spec.name} | {name} | {len(links)} | {len(taken)} | {_ratio(len(taken & articles), len(taken))} "
                f"| {_ratio(len(taken & linked), len(linked))} | {len(taken - articles)} "
                f"| {len(set(select_candidates(sorted(links), plain)) - articles)} |"
            )
    return "\n".join(rows)


def demo_kinds_table() -> str:
    """The page kind on the demo sites' pages (every story published, fixed dates), as processing would judge them
    were they fetched (an include pattern that lets them through): the stories, and the pages that are no story
    (home, sections, the home's next page, tags, writers, archives, about; the shop, the forum, a special report)."""
    from demo.furniture import report_of
    from demo.listings import listings, route
    from demo.sites import INFO_PAGES, SERVED_SITES, fixed_context, template_for

    base = "http://127.0.0.1:9"
    rows = ["| site | stories shown | other pages kept out | other pages judged articles |", "|---|---:|---:|---|"]
    for spec in SERVED_SITES:
        tpl, ctx = template_for(spec), fixed_context(spec, base)
        stories = [(tpl.article_path(a), tpl.article(ctx, a)) for a, _ in ctx.published]
        about = {"healthwatch": "/about.html", "courier": "/about.php"}.get(spec.key, "/about/")
        others = [("/", tpl.home(ctx)), (about, tpl.info_page(ctx, *INFO_PAGES["about"]))]
        others += [(tpl.section_path(s), tpl.section(ctx, s)) for s in spec.sections]
        others += [(lst.path(lst.first), lst.render(ctx, tpl, lst.first)[0]) for lst in listings(ctx, tpl)]
        report = report_of(spec)  # a special report: a story's address, the page a listing's
        for path in ("/shop/", "/shop/products/bp200-blood-pressure-monitor/", "/community/",
                     *([tpl.report_path(report)] if report else [])):  # fmt: skip
            if (answer := route(ctx, path, "")) is not None:
                others.append((path, answer[0]))

        def is_article(path: str, html: str) -> bool:
            return page_kind(read_page(html.encode()), base + path).is_article

        shown = sum(is_article(p, h) for p, h in stories)
        passed = [p for p, h in others if is_article(p, h)]
        examples = ", ".join(f"`{p}`" for p in passed[:3]) + (f" and {len(passed) - 3} more" if len(passed) > 3 else "")
        rows.append(
            f"| {spec.name} | {_ratio(shown, len(stories))} | {_ratio(len(others) - len(passed), len(others))} "
            f"| {examples} |"
        )
    return "\n".join(rows)


def targets_table(held: Result) -> str:
    types, sites = held.types, held.sites
    kind_ms = statistics.median(held.kind_ms) if held.kind_ms else float("nan")
    kind_cpu = statistics.median(held.kind_cpu_ms) if held.kind_cpu_ms else float("nan")

    def met(ok: bool) -> str:
        return "yes" if ok else "**no**"

    rows = [
        "| target (held-out split) | WIMS | plain metadata rule | target | met |",
        "|---|---:|---:|---:|:-:|",
        f"| article recall (wcxb-dev-kinds) | {types.cell('article')} | {types.cell('article', metadata=True)} | "
        f">= {TARGET_RECALL} | {met(held.recall() >= TARGET_RECALL)} |",
        f"| non-article pages kept out | {types.cell('non-article')} | {types.cell('non-article', metadata=True)} | "
        f">= {TARGET_KEPT_OUT} | {met(held.kept_out() >= TARGET_KEPT_OUT)} |",
        f"| article recall, crawl-to-the-future 2010 and 2015 | {sites.cell('all sites')} | "
        f"{sites.cell('all sites', metadata=True)} | (a check) | |",
        f"| the kind's time beyond the parse, median | {kind_ms:.3f} ms | | <= {TARGET_MS} ms | "
        f"{met(kind_ms <= TARGET_MS)} |",
        f"| the same, the thread's CPU time (not the waits of a loaded machine) | {kind_cpu:.3f} ms | | "
        f"<= {TARGET_MS} ms | {met(kind_cpu <= TARGET_MS)} |",
    ]
    return "\n".join(rows)


def types_table(result: Result) -> str:
    t = result.types
    rows = [
        "| page type | pages | right: WIMS | right: plain metadata rule | settled by a rule (WIMS) |",
        "|---|---:|---:|---:|---:|",
    ]
    for group in (*PAGE_TYPES, "non-article"):
        if t.pages[group]:
            label = "article (shown)" if group == "article" else f"{group} (kept out)"
            settled = "" if group == "non-article" else str(result.settled[group])
            label = "**all non-article pages** (kept out)" if group == "non-article" else label
            rows.append(
                f"| {label} | {t.pages[group]} | {t.cell(group)} | {t.cell(group, metadata=True)} | {settled} |"
            )
    return "\n".join(rows)


def kinds_table(result: Result) -> str:
    kinds = [k.value for k in Kind]
    rows = ["| page type | " + " | ".join(kinds) + " |", "|---|" + "---:|" * len(kinds)]
    for page_type in PAGE_TYPES:
        got = result.kinds.get(page_type)
        if got:
            rows.append(f"| {page_type} | " + " | ".join(str(got[k]) or "" for k in kinds) + " |")
    return "\n".join(rows)


def sites_table(result: Result) -> str:
    s = result.sites
    rows = ["| site | pages | WIMS | metadata rule |", "|---|---:|---:|---:|"]
    for site in sorted(s.pages, key=lambda g: (g == "all sites", g)):
        rows.append(f"| {site} | {s.pages[site]} | {s.cell(site)} | {s.cell(site, metadata=True)} |")
    return "\n".join(rows)


def time_lines(results: dict[str, Result]) -> list[str]:
    parse = [ms for r in results.values() for ms in r.parse_ms]
    kind = [ms for r in results.values() for ms in r.kind_ms]
    cpu = [ms for r in results.values() for ms in r.kind_cpu_ms]
    if not parse:
        return []
    p50, k50 = statistics.median(parse), statistics.median(kind)
    ratios = [k / p for k, p in zip(kind, parse, strict=True) if p > 0]
    return [
        "| per page, all pages read | median | p90 | max |",
        "|---|---:|---:|---:|",
        f"| the parse (HTML5 tree, lexbor) | {p50:.3f} ms | {_ms(parse, 0.9):.3f} ms | {max(parse):.1f} ms |",
        f"| the kind on that tree (`page_kind`) | {k50:.3f} ms | {_ms(kind, 0.9):.3f} ms | {max(kind):.1f} ms |",
        f"| the kind, the thread's CPU time | {statistics.median(cpu):.3f} ms | {_ms(cpu, 0.9):.3f} ms | "
        f"{max(cpu):.1f} ms |",
        f"| the kind / the parse, per page | {statistics.median(ratios):.2f} | {_ms(ratios, 0.9):.2f} | |",
    ]


def hidden_lines(result: Result, split: str) -> list[str]:
    if not result.hidden:
        return []
    lines = [
        "",
        f"Why WIMS hid the articles it hid ({split} split, wcxb and crawl-to-the-future; numbers left out):",
        "",
    ]
    lines += [f"- {n} x {reason}" for reason, n in result.hidden.most_common(12)]
    return lines


#: why the demo's home pages have one candidate that is no story (``demo.furniture.REPORTS``)
DEMO_REPORTS_NOTE = (
    "The one other link taken on the Health Watch and Wellbeing home pages is the site's special report "
    "(`/news/conditions/special-report-winter-health-all-our-coverage.html`, "
    "`/mind/in-depth-feeling-better-when-the-nights-draw-in/`): a collection of the site's stories at a story's "
    "address, as real sites publish them, which no address tells from a story; it is fetched, and its page kind "
    "keeps it out (a listing: its dated headline links, or its `CollectionPage`)."
)
START, END = "<!-- results:start (written by tests/bench/bench_sources.py) -->", "<!-- results:end -->"
TITLES = {"held": "Held-out split (never tuned on)", "tune": "Tuning split"}


def write_report(results: dict[str, Result], meta: dict[str, str]) -> None:
    """Replace the results section of docs/benchmarks/sources.md; the prose around it is kept."""
    lines = [START, "", f"Run: {meta['run']}.", ""]
    if "held" in results:
        lines += ["### Targets (held-out split)", "", targets_table(results["held"])]
    lines += [
        "",
        "### The link level on the demo sites (no pattern, *Only articles*; every story published)",
        "",
        demo_links_table(),
        "",
        DEMO_REPORTS_NOTE,
        "",
        "Their page kind, were these pages fetched (an include pattern letting them through; the special reports are "
        "fetched without one):",
        "",
        demo_kinds_table(),
    ]
    for split in SPLITS:
        if split not in results:
            continue
        res = results[split]
        lines += [
            "",
            f"## {TITLES[split]}",
            "",
            f"### wcxb-dev-kinds by page type ({split} split; right = an article shown, another page kept out)",
            "",
            types_table(res),
            "",
            f"### The link level: addresses refused before the fetch ({split} split; a site with *Only articles*)",
            "",
            links_table(split),
            "",
            f"Kinds WIMS gave ({split} split; collections count as listings):",
            "",
            kinds_table(res),
            "",
            f"### crawl-to-the-future: article recall by site ({split} split: "
            f"{'2010 and 2015' if split == 'held' else '2000 and 2005'})",
            "",
            sites_table(res),
            *hidden_lines(res, split),
        ]
        if res.unread:
            lines += ["", f"Pages `read_page` refused (no kind; not counted): {'; '.join(res.unread)}."]
    lines += ["", "## Time per page", "", *time_lines(results), "", END]
    block = "\n".join(lines)
    write_section(REPORT, block, START, END, "# Page kind\n\n")


def print_summary(results: dict[str, Result]) -> None:
    print(demo_links_table())
    for split, res in results.items():
        print(f"== {split}")
        print(types_table(res))
        print(links_table(split))
        print(sites_table(res))
    print("\n".join(time_lines(results)))


# --------------------------------------------------------------------------- refitting the weights


#: facts the rules read but the weights do not (settled pages carry them; on the rest they say too little)
_NOT_WEIGHED = ("published", "byline_by", "short_headline", "time", "body_of_prose", "little_prose", "og_article")


def fit(root: Path = DATASETS, ctf_weight: float = 0.3) -> None:
    """Refit :data:`filters.kind.WEIGHTS` and ``BIAS`` on the tuning split and print them.

    Logistic regression (scikit-learn, C=1) on the facts of the pages no rule settles: wcxb-dev-kinds' tuning pages
    (an article or not), and crawl-to-the-future's tuning pages (articles) at ``ctf_weight`` each, so that the old
    pages count without outweighing the 2025 web.  The weights are rounded to tenths; 5-fold cross-validation on
    the same pages, folded by site, estimates recall and kept-out share for a few thresholds.
    """
    import numpy as np
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import GroupKFold

    rows: list[tuple[dict[str, bool], bool, float, str]] = []
    settled = Counter()
    for sources, weight in ((kinds_pages("tune", root), 1.0), (ctf_pages("tune", root), ctf_weight)):
        for source in sources:
            data = gzip.decompress(source.path.read_bytes())
            try:
                page = read_page(data)
            except ExtractionError:
                continue
            url = page_url(source, page)
            ev = gather(page, url)
            shape = url_shape(ev.url)
            found_facts = facts(ev, shape)
            article = source.page_type == "article"
            if weight == 1.0:
                settled["articles" if article else "others"] += 1
            if settle(ev, shape, found_facts) is not None:
                if weight == 1.0:
                    settled[("articles" if article else "others") + " settled"] += 1
                continue
            rows.append((found_facts, article, weight, source.site))
    names = [n for n in rows[0][0] if n not in _NOT_WEIGHED]
    x = np.array([[float(f[n]) for n in names] for f, _, _, _ in rows])
    y = np.array([a for _, a, _, _ in rows])
    w = np.array([weight for _, _, weight, _ in rows])
    sites = np.array([site for _, _, _, site in rows])
    model = LogisticRegression(C=1.0, max_iter=10000).fit(x, y, sample_weight=w)
    print(f"BIAS = {model.intercept_[0]:.1f}  ({model.intercept_[0]:.3f})")
    for name, coef in zip(names, model.coef_[0], strict=True):
        print(f"    {name!r}: {coef:.1f},")
    print(f"settled by a rule (tuning, wcxb): {dict(settled)}")
    scores = np.zeros(len(y))
    # folds by site: a site's pages are all on one side, as in the held-out split (pages of one site share a
    # template, so a fold that saw the site's other pages would flatter the weights)
    for train, test in GroupKFold(5).split(x, y, sites):
        part = LogisticRegression(C=1.0, max_iter=10000).fit(x[train], y[train], sample_weight=w[train])
        scores[test] = part.decision_function(x[test])
    kinds = w == 1.0
    articles, others = settled["articles"], settled["others"]
    for threshold in (-1.5, -1.0, -0.7, -0.5, -0.4, -0.3, 0.0):
        shown = scores >= threshold
        recall = (shown & y & kinds).sum() / articles
        out = (settled["others settled"] + (~shown & ~y & kinds).sum()) / others
        print(f"cross-validated, threshold {threshold:+.1f}: article recall {recall:.3f}, kept out {out:.3f}")


# --------------------------------------------------------------------------- run


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--split", choices=("tune", "held", "both"), default="both")
    ap.add_argument("--limit", type=int, default=None, help="the first N pages of each dataset and split")
    ap.add_argument("--no-report", action="store_true", help="print the tables, do not write docs/benchmarks")
    ap.add_argument("--fit", action="store_true", help="refit the weights on the tuning split and print them")
    ap.add_argument("--demo-links", action="store_true", help="print the demo sites' link-level table only")
    args = ap.parse_args(argv)
    if args.demo_links:
        print(demo_links_table())
        print(demo_kinds_table())
        return 0
    if not DATASETS.is_dir():
        print(f"datasets not found at {DATASETS}; set WIMS_DATASETS", file=sys.stderr)
        return 2
    if args.fit:
        fit()
        return 0
    lock_fh, lock_note = take_lock()
    started, load_start, t0 = time.strftime("%Y-%m-%d %H:%M"), load_average(), time.time()
    splits = [s for s in SPLITS if args.split in (s, "both")]
    results = {split: run(split, args.limit) for split in splits}
    meta = {
        "run": f"{started}, commit {commit_id()}, Python {platform.python_version()}, {os.cpu_count()} CPUs, "
        f"{time.time() - t0:.0f} s, "
        + (f"**subsample --limit {args.limit}**" if args.limit else "full datasets")
        + f"; {lock_note}; load average at the start {load_start}, at the end {load_average()} (1 / 5 / 15 min)"
    }
    print_summary(results)
    if not args.no_report:
        write_report(results, meta)
        print(f"wrote {REPORT.relative_to(ROOT)}")
    del lock_fh
    return 0


if __name__ == "__main__":
    sys.exit(main())
