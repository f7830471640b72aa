"""Benchmark of the link level (issue 33 item 2; ``make bench-sources``): which links of a real page WIMS takes for
article candidates, with no hand-written pattern, beside courlan (trafilatura's crawler filter) in the same run.

What is measured, per page and per link of the page's site (its registrable domain: sibling hosts included):
**precision** - the share of candidates that are article links; **recall** - the share of article links that are
candidates. A link counts once per page it is on (each poll of a watched page sees it again).

Pages (``$WIMS_DATASETS``, default ``../shared/datasets``):

* ``crawl-to-the-future``: archived article pages of 10 news sites with their real navigation (menus, footers,
  related stories, sidebars). The Wayback Machine's toolbar is cut out and its link rewriting undone, so links
  are the site's own. The page's site: the host of its address (the archive's ``wbCurrentUrl``, else its
  rel=canonical, else the dataset's site). **Tuning split**: years 2000 and 2005; **held-out**: 2010 and 2015,
  read once, after tuning (``--split tune`` reads no held-out page; ``held`` and ``both`` read every year).
* home pages, when ``--home-pages DIR`` holds them (default ``var/home-pages``): newspaper4k's test pages
  ``cnn_main_site.html`` (www.cnn.com), ``yahoo_main_site.html`` (uk.yahoo.com) and ``wired_main_site.html``
  (www.wired.com), from its repository (MIT licence) at commit 540bff3e; not in the datasets folder. CNN's and
  Yahoo's were looked at while tuning (tuning), Wired's was not (held-out).

Ground truth (labels written by hand, never WIMS's rules): a link is an **article link** when its address is one
of the dataset's article pages, or has the article address shape of its site in :data:`ARTICLE_SHAPES`, written
from the dataset's own article addresses (all years: these are labels, not tuning) and, for the home pages, from
their story links (CNN: a dated path; Yahoo: a story id ``-123456789.html``; Wired: a dated path or ``/story/``).
Everything else of the site is not an article (section fronts, tags, authors, services, galleries, video pages,
files), and so are pages of article shape whose address says they are none (:data:`NOT_ARTICLES`: help, legal and
service pages, print and e-mail versions, advertisements, list landings and fronts). Both were corrected once after
reading a sample of the tuning split's disagreements both ways (refused "articles" that were help or legal pages;
taken "non-articles" that were LA Times columns, New York Metro and Fox News stories), never on the held-out one.
The labels are an address rule, so they miss odd article addresses and take a few non-articles of article shape:
read the figures as a comparison of rules on the same labels.

Rules, each on a site of *Only articles* without patterns:

* **WIMS**: ``LinkRules.judge`` with the link's position on the page, sibling hosts on;
* **WIMS, address only**: the same without positions (what main did before: ``filters.kind.link_kind``);
* **WIMS + templates**: with URL templates learned from the site's other pages of the same year (leave one page
  out): every candidate WIMS would have fetched from them, with its label standing for processing's page kind
  (which is right about 9 times in 10, ``docs/benchmarks/sources.md``): a simulation of a site polled for a while;
* **courlan**: ``check_url(strict=True, with_nav=False)`` on the same links of the site's hosts (as the page kind
  table above it);
* **every link of the site**: what a site without *Only articles* takes.

    .venv/bin/python tests/bench/bench_links.py [--split tune|held|both] [--limit N] [--home-pages DIR]
"""

from __future__ import annotations

import argparse
import csv
import gzip
import re
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from monitor.canonical import canonicalise, host_of, registrable_domain  # noqa: E402
from monitor.discovery import LinkRules, links_from_html, page_metadata  # noqa: E402
from monitor.links import Position, UrlTemplates, url_template  # noqa: E402
from tests.bench.bench_env import commit_id, load_average, take_lock  # noqa: E402
from tests.bench.bench_sources import CTF, CTF_HELD_YEARS, DATASETS, courlan_refuses  # noqa: E402
from tests.bench.generated_part import write_section  # noqa: E402

HOME_PAGES = {  # file -> (home page, held out)
    "cnn_main_site.html": ("http://www.cnn.com/", False),
    "yahoo_main_site.html": ("http://uk.yahoo.com/", False),
    "wired_main_site.html": ("https://www.wired.com/", True),
}
#: article address shapes by registrable domain: labels (see the module docstring), not WIMS's rules
ARTICLE_SHAPES = {
    "cnn.com": r"/(?:19|20)\d\d/(?:[A-Za-z_]+/)+\d\d/\d\d/[^/]+|/(?:19|20)\d\d/\d\d/\d\d/[^/]+",
    "bbc.co.uk": r"/hi/.+/\d{5,}\.stm$",
    "bbc.com": r"/news/[a-z-]+-\d{6,}$",
    "yahoo.com": r"/[hs]/[a-z]+/\d{8}/|tmpl=story|-\d{6,}(?:--\w+)?\.html$|/b/\w+/\w+\d{3,}$",
    "thenation.com": r"/issue/\d{6}/\w+\.shtml|doc\.mhtml\?i=\d+|/(?:article|blog|audio|video)/\d+/",
    "esquire.com": r"/\d{6}_\w+\.html$|/features/.+-\d{4}(?:-\d)?$|/blogs/[a-z-]+/[a-z0-9]+(?:-[a-z0-9]+){2,}/?$"
    r"|/the-side/[a-z-]+/[a-z0-9-]+-\d{6}$",
    "forbes.com": r"/(?:19|20)\d\d/\d\d/\d\d/|/\d\d/\d{4}/\d+\w*\.html?$|/\d\d/\w+/\d{4}/\d+\.html?$",
    "foxnews.com": r"/story/0,\d+,\d+,00\.html|/(?:19|20)\d\d/\d\d/\d\d/[^/]+|/\d{6}/[\w-]+\.sml$",
    "latimes.com": r",\d,\d+(?:,\w+)?\.(?:story|htmlstory|column)|/lat_\w+\d{6}\.htm|-\d{8}-(?:story|column)\.html"
    r"|/\d{8}/t\d+\.html",
    "nymag.com": r"/(?:19|20)\d\d/\d\d/[\w-]+\.html|/news/features/\d+/|page\.cfm\?page_id=\d+"
    r"|/nymetro/.+/\d{4,}/(?:index\d*\.html)?$",
    "newyorkmetro.com": r"/news/features/\d+/|/(?:19|20)\d\d/\d\d/[\w-]+\.html|/nymetro/.+/\d{4,}/(?:index\d*\.html)?$",
    "msn.com": r"article\.aspx\?news=\d+|/story/|/interview/|/news/eonline/\d+/|/articles/\d+/|/ar-[A-Za-z0-9]+$",
    "wired.com": r"/(?:19|20)\d\d/\d\d/[\w-]+/?$|/story/[\w-]+/?$",
}
_SHAPES = {domain: re.compile(shape) for domain, shape in ARTICLE_SHAPES.items()}
#: pages of article shape that are none, by their address: help, legal and service pages, print and e-mail
#: versions, advertisements' click-throughs, section fronts and list landings that the shapes above also match
NOT_ARTICLES = re.compile(
    r"/help/|/services?/|privacy|terms|/ads?/|RealMedia|placead|sectionfront|[,/](?:print|email)[,./]|/pagetools/"
    r"|/lists/|land\.html$|front[,.]",
    re.I,
)
_TOOLBAR = re.compile(rb"<!-- BEGIN WAYBACK TOOLBAR INSERT -->.*?<!-- END WAYBACK TOOLBAR INSERT -->", re.S)
_ARCHIVED = re.compile(rb"""((?:href|src)\s*=\s*["']?)(?:https?://web\.archive\.org)?/web/\d+[a-z_]*/""", re.I)
_WAYBACK_URL = re.compile(rb'wbCurrentUrl = "([^"]+)"')


@dataclass(frozen=True)
class Page:
    """A page read for the bench: its address, its group (site and year, for templates), its links and positions,
    the dataset's article addresses it knows, and whether it is held out."""

    ident: str
    url: str
    group: str
    links: list[str]
    positions: dict[str, Position]
    held: bool
    #: its address is known (archived or canonical), not the dataset's site standing in for it
    addressed: bool = True


def unarchived(data: bytes) -> tuple[bytes, str | None]:
    """The page without the Wayback Machine's toolbar and link rewriting, and the address it archived."""
    found = _WAYBACK_URL.search(data[:300000])
    url = found.group(1).decode("utf-8", "replace").replace("&amp;", "&") if found else None
    return _ARCHIVED.sub(rb"\1", _TOOLBAR.sub(b"", data)), url


def read_page(ident: str, data: bytes, url: str | None, fallback: str, group: str, held: bool) -> Page:
    if url is None:
        url = page_metadata(data, fallback)[0]
    address = canonicalise(url) if url else None
    positions: dict[str, Position] = {}
    links = links_from_html(data, address or fallback, positions)
    return Page(ident, address or fallback, group, links, positions, held, address is not None)


def ctf_pages(root: Path = DATASETS, limit: int | None = None, split: str = "both") -> list[Page]:
    """crawl-to-the-future's pages of the split asked: ``tune`` reads the tuning years only, never a held-out page
    (``held`` and ``both`` read every year: the held-out pages' labels know the earlier years' addresses)."""
    folder = root / CTF
    with (folder / "manifest.csv").open(newline="") as fh:
        rows = list(csv.DictReader(fh))
    per_group: Counter[str] = Counter()
    pages = []
    for row in rows:
        held = row["year"] in CTF_HELD_YEARS
        if held and split == "tune":
            continue
        group = f"{row['site']} {row['year']}"
        per_group[group] += 1
        if limit and per_group[group] > limit:
            continue
        data, url = unarchived(gzip.decompress((folder / row["html"]).read_bytes()))
        pages.append(read_page(row["html"], data, url, f"http://{row['site']}/", group, held))
    return pages


def home_pages(folder: Path) -> list[Page]:
    pages = []
    for name, (home, held) in HOME_PAGES.items():
        path = folder / name
        if path.exists():
            pages.append(read_page(name, path.read_bytes(), home, home, name, held))
    return pages


def is_article(url: str, known: set[str]) -> bool:
    """The label of a link: one of the dataset's article pages, or of its site's article address shape."""
    if url in known:
        return True
    shape = _SHAPES.get(registrable_domain(host_of(url)))
    return bool(shape and shape.search(url)) and not NOT_ARTICLES.search(url)


def site_links(page: Page) -> list[str]:
    """The page's links on its site's hosts (its registrable domain), itself left out."""
    domain = registrable_domain(host_of(page.url)) or host_of(page.url)
    return [u for u in page.links if u != page.url and (registrable_domain(host_of(u)) or host_of(u)) == domain]


@dataclass
class Score:
    """Candidates, article links and both, counted per page and link."""

    candidates: int = 0
    articles: int = 0
    both: int = 0
    misses: Counter[str] = field(default_factory=Counter)  # reasons given to the article links refused
    wrong: Counter[str] = field(default_factory=Counter)  # templates of the non-articles taken

    def cells(self) -> str:
        precision = f"{self.both}/{self.candidates} = {self.both / self.candidates:.3f}" if self.candidates else "-"
        recall = f"{self.both}/{self.articles} = {self.both / self.articles:.3f}" if self.articles else "-"
        return f"{precision} | {recall}"


Judge = Callable[[Page, str], tuple[bool, str]]


def rules_for(page: Page, templates: UrlTemplates | None = None) -> LinkRules:
    return LinkRules(
        f"{page.url.split('://', 1)[0]}://{host_of(page.url)}/",
        articles_only=True,
        sibling_hosts=True,
        templates=templates or UrlTemplates(),
    )


def learned_templates(pages: list[Page], known: set[str]) -> dict[str, UrlTemplates]:
    """For each page, the templates learned from its group's other pages: every link WIMS would have fetched
    there (position and address), each with its label standing for the page kind (leave one page out)."""
    per_page: dict[str, list[tuple[str, bool]]] = {}
    per_group: dict[str, UrlTemplates] = defaultdict(UrlTemplates)
    for page in pages:
        rules = rules_for(page)
        fetched = [(u, is_article(u, known)) for u in site_links(page) if rules.judge(u, page.positions.get(u))[0]]
        per_page[page.ident] = fetched
        group = per_group[page.group]
        for url, article in fetched:
            (group.articles if article else group.others)[url_template(url)] += 1
    out = {}
    for page in pages:
        group = per_group[page.group]
        own = UrlTemplates.learn(per_page[page.ident])
        out[page.ident] = UrlTemplates(group.articles - own.articles, group.others - own.others)
    return out


def score(pages: list[Page], known: set[str], judge: Judge) -> Score:
    result = Score()
    for page in pages:
        for url in site_links(page):
            article = is_article(url, known)
            taken, reason = judge(page, url)
            result.candidates += taken
            result.articles += article
            result.both += taken and article
            if article and not taken:
                result.misses[re.sub(r"\(\d+ of \d+\)", "(N)", reason)] += 1
            if taken and not article:
                result.wrong[url_template(url)] += 1
    return result


def judges(pages: list[Page], known: set[str]) -> dict[str, Judge]:
    templates = learned_templates(pages, known)
    out: dict[str, Judge] = {
        "WIMS (position, address, sibling hosts)": lambda p, u: rules_for(p).judge(u, p.positions.get(u)),
        "WIMS + URL templates learned from the site's other pages": lambda p, u: rules_for(p, templates[p.ident]).judge(
            u, p.positions.get(u)
        ),
        "WIMS, address only (no position)": lambda p, u: rules_for(p).judge(u),
    }
    courlan = courlan_refuses()
    if courlan is not None:
        out["courlan `check_url(strict=True, with_nav=False)`"] = lambda p, u: (not courlan(u), "courlan")
    out["every link of the site"] = lambda p, u: (True, "")
    return out


def table(pages: list[Page], known: set[str]) -> tuple[str, dict[str, Score]]:
    rows = ["| rule | candidates that are articles | article links that are candidates |", "|---|---:|---:|"]
    scores = {}
    for name, judge in judges(pages, known).items():
        scores[name] = score(pages, known, judge)
        rows.append(f"| {name} | {scores[name].cells()} |")
    return "\n".join(rows), scores


def detail(scores: dict[str, Score], name: str) -> list[str]:
    s = scores[name]
    lines = [f"Article links {name} refused, by reason: " + "; ".join(f"{n} x {r}" for r, n in s.misses.most_common(6))]
    lines.append("Non-articles it took, by template: " + "; ".join(f"{n} x `{t}`" for t, n in s.wrong.most_common(8)))
    return lines


START, END = "<!-- links:start (written by tests/bench/bench_links.py) -->", "<!-- links:end -->"


def report(split: str, ctf: list[Page], homes: list[Page], known: set[str]) -> list[str]:
    held = split == "held"
    lines = []
    chosen = [p for p in ctf if p.held == held]
    if chosen:
        years = "2010 and 2015" if held else "2000 and 2005"
        text, scores = table(chosen, known)
        lines += [f"#### crawl-to-the-future, {years} ({len(chosen)} pages)", "", text, ""]
        lines += [f"- {line}" for line in detail(scores, "WIMS (position, address, sibling hosts)")] + [""]
    for page in (p for p in homes if p.held == held):
        text, scores = table([page], known)
        lines += [f"#### Home page {page.ident} ({page.url})", "", text, ""]
        lines += [f"- {line}" for line in detail(scores, "WIMS (position, address, sibling hosts)")] + [""]
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--split", choices=("tune", "held", "both"), default="both")
    ap.add_argument("--limit", type=int, default=None, help="the first N pages of each site and year")
    ap.add_argument("--home-pages", type=Path, default=ROOT / "var" / "home-pages")
    ap.add_argument("--no-report", action="store_true")
    args = ap.parse_args(argv)
    lock_fh, lock_note = take_lock()
    load_start, t0 = load_average(), time.time()
    ctf = ctf_pages(limit=args.limit, split=args.split)
    known = {p.url for p in ctf if p.addressed}
    homes = home_pages(args.home_pages)
    run = f"Run: {time.strftime('%Y-%m-%d %H:%M')}, commit {commit_id()}, {time.time() - t0:.0f} s to read"
    lines = [START, "", run]
    lines[-1] += f" the pages; {lock_note}; load average at the start {load_start}"
    lines[-1] += (f", **subsample --limit {args.limit}**" if args.limit else "") + "; home pages: "
    lines[-1] += ", ".join(p.ident for p in homes) or f"none found in {args.home_pages}"
    lines.append("")
    for split in ("held", "tune"):
        if args.split in (split, "both"):
            lines += [f"### {'Held-out' if split == 'held' else 'Tuning'} pages", "", *report(split, ctf, homes, known)]
    lines += [f"Run time {time.time() - t0:.0f} s; load average at the end {load_average()}.", "", END]
    block = "\n".join(lines)
    print(block)
    if not args.no_report:
        heading = "## The link level on real pages (issue 33 item 2)\n\n"
        write_section(ROOT / "docs" / "benchmarks" / "sources.md", block, START, END, heading)
    del lock_fh
    return 0


if __name__ == "__main__":
    sys.exit(main())
