"""The small article page the main-content tests build their pages around (filters.content): a few sentences
on measles whose every sentence must survive whatever noise a test puts beside it."""

from __future__ import annotations

from filters import extract

ARTICLE = """
<h1>Measles cases rise in the north</h1>
<p>Health officials reported forty new measles cases this week, most of them among children who had not
been vaccinated, and urged parents to check their records.</p>
<p>The outbreak began in a primary school in March and has since spread to three neighbouring towns,
according to the regional health authority's weekly bulletin.</p>
<p>Vaccination clinics will open on Saturday mornings until the end of the month, the authority said,
and no appointment is needed for children under twelve.</p>
"""
SENTENCES = ("forty new measles cases", "three neighbouring towns", "no appointment is needed")


def page(body: str, title: str = "Measles cases rise in the north | Daily Health") -> str:
    return f"<!doctype html><html><head><title>{title}</title></head><body>{body}</body></html>"


def core(html: str, profile="default"):
    return extract(html, profile=profile)


def assert_article_kept(ex) -> None:
    for sentence in SENTENCES:
        assert sentence in ex.text, f"lost: {sentence!r}\n{ex.explain()}"


def removed_with(ex, fragment: str) -> list:
    return [p for p in ex.phrases if fragment in p.text and p.removed_by]


def assert_kept_as_text(lines, profile="default") -> None:
    """Each of ``lines``, a paragraph of its own after the article, is kept as the article's text (and so is the
    article)."""
    ex = core(page(f"<article>{ARTICLE}" + "".join(f"<p>{s}</p>" for s in lines) + "</article>"), profile)
    assert_article_kept(ex)
    for line in lines:
        assert line in ex.text, ex.explain()
