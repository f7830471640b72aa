"""DocView elements (filters.docview): keywords, abstract, relevant links, near-duplicate fingerprints.

Small pages and texts written here; the near-duplicate check also runs over the demo sites' article pool.
"""

from __future__ import annotations

import itertools

import pytest

from filters import docview, extract

STORY = """
<header class="site-header"><nav><a href="/">Home</a> <a href="/health/">Health</a></nav></header>
<article>
<h1>Measles cases rise in the north</h1>
<p class="byline">By Ann Reporter | Published 3 March 2024</p>
<p>Health officials reported forty new measles cases this week, most of them among children who had not
been vaccinated, and urged parents to check their vaccination records.</p>
<h2>Where the outbreak began</h2>
<p>The measles outbreak began in a primary school in March and has since spread to three neighbouring towns,
according to the <a href="/reports/weekly-bulletin">regional health authority's weekly bulletin</a>.</p>
<p>Vaccination clinics will open on Saturday mornings until the end of the month, the authority said,
and no appointment is needed. Dr. Ruth Ellis of the <a href="https://nhs.example.org/measles">national
measles programme</a> said two doses protect almost every child.</p>
<p>Parents can read the <a href="javascript:alert(1)">advice sheet</a>, write to the
<a href="mailto:clinic@example.org">clinic office</a>, jump to <a href="#faq">common questions</a> or
reload <a href="https://news.example.com/2024/measles-north#top">this very story</a> for updates.</p>
</article>
<aside class="related"><h2>Related stories</h2><ul>
<li><a href="/2024/flu-season">Flu season arrives early as GP visits rise across the region</a></li>
<li><a href="/2024/asthma-inhalers">Most people with asthma use their inhaler the wrong way</a></li>
</ul></aside>
<footer class="site-footer"><a href="/about">About us</a> <a href="/privacy">Privacy policy</a></footer>
"""
URL = "https://news.example.com/2024/measles-north"


def page(body: str, title: str = "Measles cases rise in the north | Daily Health") -> str:
    return f"<!doctype html><html><head><title>{title}</title></head><body>{body}</body></html>"


@pytest.fixture(scope="module")
def story():
    return extract(page(STORY), url=URL)


# --------------------------------------------------------------------------- keywords


def test_keywords_weigh_the_headline_and_headings_and_are_normalised(story):
    weights = docview.term_weights(story)
    # "measles": the headline, the lead (the first sentence paragraph, not the byline), two more paragraphs
    assert weights["measles"] == pytest.approx(docview.HEADLINE_WEIGHT + docview.LEAD_WEIGHT + 2 * 1.0)
    assert weights["outbreak"] == pytest.approx(docview.HEADING_WEIGHT + 1.0)  # sub-heading and body
    assert "the" not in weights and "of" not in weights, "stop words are not terms"
    assert not {"home", "privacy", "flu", "inhaler"} & set(weights), "only the core content's terms"
    top = docview.keywords(weights, {}, 0)
    assert top[0][0] == "measles"
    assert len(top) == docview.KEYWORDS and all(0 < w <= 1 for _, w in top)
    assert [w for _, w in top] == sorted((w for _, w in top), reverse=True)


def test_inverse_document_frequency_demotes_terms_every_article_has(story):
    weights = docview.term_weights(story)
    alone = dict(docview.keywords(weights, {}, 0, limit=100))
    # "health" is in nearly every article of a health site, "vaccination" in few
    common = dict(docview.keywords(weights, {"health": 990, "vaccination": 3}, 1000, limit=100))
    assert alone["health"] > alone["vaccination"] * 0.9
    assert common["vaccination"] > 2 * common["health"]
    assert docview.keywords({}, {}, 0) == []


# --------------------------------------------------------------------------- abstract


def test_sentences_are_not_cut_after_abbreviations_or_initials():
    text = 'Dr. Ruth Ellis said so. J. Smith agreed! "Really?" Yes. The U.K. rate fell 2.5 per cent. Then 40 more.'
    assert docview.sentences(text) == [
        "Dr. Ruth Ellis said so.",
        "J. Smith agreed!",
        '"Really?"',
        "Yes.",
        "The U.K. rate fell 2.5 per cent.",
        "Then 40 more.",
    ]


def test_abstract_is_central_sentences_in_order_without_byline_or_headings(story):
    text = docview.abstract(story)
    assert 100 < len(text) <= docview.ABSTRACT_CHARS
    assert text.startswith("Health officials reported forty new measles cases")
    assert "By Ann Reporter" not in text and "Where the outbreak began" not in text
    # in document order
    sentences = [s for line in story.text.splitlines() for s in docview.sentences(line) if s in text]
    assert sentences and text == " ".join(sentences)


def test_abstract_of_one_long_sentence_is_cut_at_a_word_and_empty_without_text():
    long = "<p>" + " ".join(["Measles vaccination saves lives"] * 40) + ".</p>"
    text = docview.abstract(extract(page(long)), limit=100)
    assert len(text) <= 100 and text.endswith("…") and not text[:-1].endswith(" ")
    assert docview.abstract(extract(page("<nav><a href='/'>Home</a></nav>"))) == ""


# --------------------------------------------------------------------------- relevant links


def test_relevant_links_are_the_links_of_the_topic_content_resolved(story):
    assert docview.relevant_links(story) == [
        ("https://news.example.com/reports/weekly-bulletin", "regional health authority's weekly bulletin"),
        ("https://nhs.example.org/measles", "national measles programme"),
    ]  # not the menu, the related stories or the footer; no javascript:, mailto:, fragment or same page


def test_no_relevant_links_without_the_html5_walk():
    assert docview.relevant_links(extract(page(STORY), url=URL, profile="thesis")) == []


# --------------------------------------------------------------------------- near-duplicates

ORIGINAL = """Council approves new cycle lanes on the ring road
The city council voted on Tuesday to build protected cycle lanes along the whole of the ring road.
By Sam Writer | Published 3 March 2024, 09:15
The lanes will be separated from traffic by a low kerb and will run in both directions on the outer side
of the road. Work is due to start in the spring and to take about eighteen months, the council said.
Councillors said the scheme would make cycling safer for commuters and schoolchildren, and that the
number of people cycling to work had doubled since the first lanes opened in the city centre.
Some businesses on the ring road objected that the loss of parking spaces would cost them customers,
and the council promised a review of loading bays before construction begins."""

REPUBLISHED = ORIGINAL.replace(
    "By Sam Writer | Published 3 March 2024, 09:15", "By Alex Editor, transport correspondent | Updated 5 March 2024"
)

SAME_TOPIC = """Cyclists welcome plan for lanes on the ring road
Cycling groups said on Wednesday that the council's plan for protected lanes on the ring road was overdue.
By Sam Writer | Published 4 March 2024, 10:30
The groups said that two cyclists had been injured on the road this year and that the lanes should be
built before the spring. They asked the council to lower the speed limit to thirty miles an hour while
work goes on. Shop owners on the ring road repeated that they fear losing customers along with parking,
and the council said a review of loading bays would come first."""


def test_a_republication_with_a_new_byline_and_date_is_a_near_duplicate():
    a, b = docview.fingerprint(ORIGINAL), docview.fingerprint(REPUBLISHED)
    assert len(a) == docview.PERMUTATIONS and a != b
    assert docview.resemblance(a, b) >= docview.NEAR_DUPLICATE
    assert set(docview.band_keys(a)) & set(docview.band_keys(b)), "found through a shared band"


def test_another_article_on_the_same_topic_is_not_a_near_duplicate():
    a, c = docview.fingerprint(ORIGINAL), docview.fingerprint(SAME_TOPIC)
    assert docview.resemblance(a, c) < 0.2


def test_fingerprints_round_trip_and_are_blind_to_case_and_spacing():
    a = docview.fingerprint(ORIGINAL)
    assert docview.fingerprint(ORIGINAL.upper().replace(" ", "  ")) == a
    assert docview.fingerprint_from_bytes(docview.fingerprint_bytes(a)) == a
    assert docview.fingerprint("") == () and docview.band_keys(()) == [] and docview.fingerprint_bytes(()) == b""
    assert docview.resemblance(a, ()) == 0.0 and docview.fingerprint_from_bytes(None) == ()
    assert all(-(2**63) <= k < 2**63 for k in docview.band_keys(a)), "fits a signed 64-bit column"


def test_near_duplicates_over_the_demo_pool():
    """Every demo article re-published with another byline and date is found; no two different articles
    (131 pairs share a topic) are taken for one another."""
    from demo.articles import ARTICLES

    def text(article, byline):
        lines = article.core_lines()
        return "\n".join([*lines[:2], byline, *lines[2:]])

    originals = [docview.fingerprint(text(a, "By Health Watch Daily staff | Published 3 May 2024")) for a in ARTICLES]
    copies = [docview.fingerprint(text(a, "By Jane Smith, health correspondent | 17 June 2025")) for a in ARTICLES]
    assert all(docview.resemblance(a, b) >= docview.NEAR_DUPLICATE for a, b in zip(originals, copies, strict=True))
    pairs = list(itertools.combinations(range(len(ARTICLES)), 2))
    assert max(docview.resemblance(originals[i], originals[j]) for i, j in pairs) < 0.2
