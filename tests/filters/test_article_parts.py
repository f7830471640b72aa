"""The article's headline and body as fields of their own (Extraction.headline, Extraction.body)."""

from __future__ import annotations

from filters import extract

BODY = """<p>Health officials reported forty new measles cases this week, most of them among children who had not
been vaccinated, and urged parents to check their records.</p>
<p>Vaccination clinics will open on Saturday mornings until the end of the month, the authority said.</p>"""


def page(body: str) -> str:
    return f"<!doctype html><html><head><title>Measles | Daily Health</title></head><body>{body}</body></html>"


def test_the_headline_is_a_field_and_the_body_is_the_core_text_without_it():
    ex = extract(page(f"<article><h1>Measles cases rise in the north</h1>{BODY}</article>"))
    assert ex.headline == "Measles cases rise in the north"
    assert ex.text.startswith("Measles cases rise in the north\n")
    assert ex.body == ex.text.split("\n", 1)[1]
    assert ex.body.startswith("Health officials reported")


def test_an_h1_after_the_body_starts_is_no_headline():
    ex = extract(page(f"<article>{BODY}<h1>Related coverage of the outbreak</h1>{BODY}</article>"))
    assert ex.headline == ""
    assert ex.body == ex.text


def test_a_page_without_a_headline_has_the_whole_core_text_as_body():
    ex = extract(page(f"<article>{BODY}</article>"))
    assert (ex.headline, ex.body) == ("", ex.text)


def test_the_thesis_profile_skips_the_title_phrase():
    ex = extract(page(f"<article><h1>Measles cases rise in the north</h1>{BODY}</article>"), profile="thesis")
    assert ex.headline == "Measles cases rise in the north"
    assert "Measles | Daily Health" in ex.body  # the thesis keeps <title> as a phrase of its text


LEAD = (
    "<header><h1>Measles cases rise in the north</h1>"
    "<p class=dek>Forty new cases this week, most among children who were not vaccinated</p>"
    "<p class=byline>By Jane Smith</p><time>4 March 2025</time></header>"
)


def test_the_standfirst_byline_and_date_beside_the_headline_are_fields():
    lead = extract(page(f"<article>{LEAD}<div>{BODY}</div></article>")).lead
    assert lead.standfirst == "Forty new cases this week, most among children who were not vaccinated"
    assert (lead.byline, lead.date) == ("By Jane Smith", "4 March 2025")
    # the thesis profile has no blocks to place the standfirst by, but finds the byline and date
    thesis = extract(page(f"<article>{LEAD}<div>{BODY}</div></article>"), profile="thesis").lead
    assert (thesis.standfirst, thesis.byline, thesis.date) == ("", "By Jane Smith", "4 March 2025")


def test_the_first_paragraph_of_a_body_beside_the_headline_is_no_standfirst():
    lead = extract(page(f"<article><h1>Measles cases rise in the north</h1>{BODY}</article>")).lead
    assert (lead.standfirst, lead.byline, lead.date) == ("", "", "")


def test_a_page_without_a_headline_has_no_lead_parts():
    lead = extract(page(f"<article><p>By Jane Smith</p><p>4 March 2025</p>{BODY}</article>")).lead
    assert (lead.standfirst, lead.byline, lead.date) == ("", "", "")
