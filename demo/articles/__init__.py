"""The article pool of the demo news sites: 60 short health articles written for WIMS.

The texts are in one module per site (:mod:`demo.articles.healthwatch`, ``courier``, ``wellbeing``, ``pulse``).

Each article belongs to one of the four demo sites (``site``), one section of that site, and carries
1-3 topic labels from :data:`TOPICS`. The labels are the ground truth for classification experiments;
:meth:`Article.core_lines` is the ground truth for the noise filters (every phrase a filter must keep).

The text is written in a tiny line markup so that the pool stays readable:

``# title`` / ``> standfirst`` / ``## sub-heading`` / ``### sub-heading`` / ``- bullet item`` /
``1. numbered item``; any other non-empty line is a paragraph (blank lines separate blocks).

The order of articles per site in this file is their publication order on the demo server.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from demo.articles import courier, healthwatch, pulse, wellbeing

#: Fixed topic vocabulary used as classification labels.
TOPICS: tuple[str, ...] = (
    "diabetes",
    "asthma",
    "obesity",
    "mental-health",
    "vaccines",
    "pregnancy",
    "sleep",
    "heart",
    "flu",
    "nutrition",
    "exercise",
    "allergies",
    "dementia",
    "cancer",
    "smoking",
    "child-health",
)

#: Sections of each demo site, in navigation order.
SECTIONS: dict[str, tuple[str, ...]] = {
    "healthwatch": ("conditions", "research", "lifestyle"),
    "courier": ("clinic-news", "patients", "prevention"),
    "wellbeing": ("mind", "body", "family"),
    "pulse": ("care", "science", "living"),
}


@dataclass(frozen=True)
class Block:
    """One block of an article body: ``p``, ``h2``, ``h3`` (text) or ``ul``/``ol`` (items)."""

    kind: str
    text: str = ""
    items: tuple[str, ...] = ()


@dataclass(frozen=True)
class Article:
    slug: str
    site: str
    section: str
    topics: tuple[str, ...]
    title: str
    standfirst: str
    blocks: tuple[Block, ...]

    def core_lines(self) -> list[str]:
        """Ground-truth core phrases: title, standfirst, then headings, paragraphs and list items in order."""
        lines = [self.title, self.standfirst]
        for block in self.blocks:
            if block.items:
                lines.extend(block.items)
            else:
                lines.append(block.text)
        return lines

    @property
    def core_text(self) -> str:
        return "\n".join(self.core_lines())

    @property
    def word_count(self) -> int:
        return len(self.core_text.split())


def parse_markup(slug: str, site: str, section: str, topics: tuple[str, ...], text: str) -> Article:
    """Build an :class:`Article` from the line markup described in the module docstring."""
    if site not in SECTIONS:
        raise ValueError(f"{slug}: unknown site {site!r}")
    if section not in SECTIONS[site]:
        raise ValueError(f"{slug}: section {section!r} is not one of {SECTIONS[site]}")
    if not 1 <= len(topics) <= 3 or any(t not in TOPICS for t in topics):
        raise ValueError(f"{slug}: topics {topics!r} must be 1-3 labels from TOPICS")
    title = standfirst = ""
    blocks: list[Block] = []
    for raw in text.strip().splitlines():
        line = raw.strip()
        if not line:
            continue
        if line.startswith("### "):
            blocks.append(Block("h3", line[4:].strip()))
        elif line.startswith("## "):
            blocks.append(Block("h2", line[3:].strip()))
        elif line.startswith("# "):
            title = line[2:].strip()
        elif line.startswith("> "):
            standfirst = line[2:].strip()
        elif line.startswith("- ") or re.match(r"\d+\. ", line):
            kind = "ul" if line.startswith("- ") else "ol"
            item = line[2:].strip() if kind == "ul" else line.split(" ", 1)[1].strip()
            if blocks and blocks[-1].kind == kind:
                blocks[-1] = Block(kind, items=blocks[-1].items + (item,))
            else:
                blocks.append(Block(kind, items=(item,)))
        else:
            blocks.append(Block("p", line))
    if not title or not standfirst or not blocks:
        raise ValueError(f"{slug}: an article needs a title, a standfirst and a body")
    return Article(slug, site, section, tuple(topics), title, standfirst, tuple(blocks))


#: The whole pool, in publication order per site.
ARTICLES: tuple[Article, ...] = tuple(
    parse_markup(*piece)
    for pieces in (healthwatch.PIECES, courier.PIECES, wellbeing.PIECES, pulse.PIECES)
    for piece in pieces
)
_BY_KEY: dict[tuple[str, str], Article] = {(a.site, a.slug): a for a in ARTICLES}
if len(_BY_KEY) != len(ARTICLES):
    raise RuntimeError("duplicate article slug within a demo site")


def articles_for_site(site: str) -> tuple[Article, ...]:
    """The pool articles of one of the four demo sites, in publication order."""
    return tuple(a for a in ARTICLES if a.site == site)


def get_article(site: str, slug: str) -> Article:
    try:
        return _BY_KEY[(site, slug)]
    except KeyError:
        raise KeyError(f"no article {slug!r} on demo site {site!r}") from None
