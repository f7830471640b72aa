"""Main-content detection (filters.content), continued: where the main content starts and ends - the lead above
a narrowed block, sections and asides of the article's own, teasers and notices around it."""

from __future__ import annotations

from .article_page import ARTICLE, assert_article_kept, core, page, removed_with

MORE = "".join(
    f"<p>Paragraph {i} of the report: the regional health authority said that the outbreak was "
    f"contained to three towns and that clinics would stay open on Saturday mornings.</p>"
    for i in range(8)
)


def test_an_intro_above_a_twice_narrowed_main_content_is_the_lead():
    # the main content narrowed twice (outer -> mid -> the story): the intro sentence under the first block
    # narrowed from is the article's lead; a short dateline there is not
    intro = (
        "Forty new measles cases were reported this week in the north, and health officials say the outbreak "
        "is not yet under control."
    )
    html = page(
        f"<div class='outer'><p>{intro}</p><p>Health News - updated 8:28 AM ET Aug 14</p>"
        f"<div class='mid'><p>By Jane Doe, health correspondent, in Leeds</p>"
        f"<div class='story'>{ARTICLE}{MORE}</div></div></div>"
    )
    ex = core(html)
    assert_article_kept(ex)
    assert intro in ex.text, ex.explain()
    assert [p.note for p in ex.phrases if p.text == intro] == ["the article's lead"]
    assert "updated 8:28 AM" not in ex.text


def test_an_aside_of_the_articles_own_paragraphs_is_kept_but_not_a_related_aside():
    note = (
        "<aside><h3>A note on older vaccines</h3><p>Children vaccinated before 1990 received a single dose, "
        "which protects most of them but not all, so the authority asks adults born in those years to check "
        "their records too.</p>"
        "<p>Records from that time are kept by family doctors and can be requested by letter or at the surgery, "
        "free of charge, within two weeks.</p></aside>"
    )
    related = (
        "<aside><h3>Related</h3><ul><li><a href='/a'>Mumps cases in the south double in a year</a></li>"
        "<li><a href='/b'>What parents should know about the school vaccination programme</a></li>"
        "<li><a href='/c'>Flu season arrives early this winter in the north</a></li></ul></aside>"
    )
    ex = core(page(f"<div class='story'>{ARTICLE}{note}{MORE}{related}</div>"))
    assert_article_kept(ex)
    assert "received a single dose" in ex.text and "free of charge" in ex.text, ex.explain()
    assert "Mumps cases" not in ex.text
    assert removed_with(ex, "Mumps cases")[0].note == "aside"


def test_a_sentence_with_links_inside_the_article_is_kept_but_not_a_share_prompt():
    sentence = (
        "Read <a href='/report'>the regional health authority's weekly measles bulletin</a> for the figures by town."
    )
    ex = core(
        page(
            f"<div class='story'>{ARTICLE}<p>{sentence}</p>{MORE}<p><a href='/mail'>E-mail this story</a> "
            "to a friend.</p></div>"
        )
    )
    assert_article_kept(ex)
    assert "weekly measles bulletin for the figures by town." in ex.text, ex.explain()
    assert "to a friend" not in ex.text
    assert removed_with(ex, "to a friend")[0].removed_by == "tag"


def test_a_list_of_links_that_are_sentences_is_the_articles_but_not_a_bare_list_of_links():
    clinics = "".join(
        f"<li><a href='/c{i}'>{name} children's vaccination clinic</a>, open on Saturday mornings.</li>"
        for i, name in enumerate(("Leeds General Infirmary", "Hull Royal Infirmary", "York District Hospital"))
    )
    links = "".join(
        f"<li><a href='/r{i}'>{name}</a></li>"
        for i, name in enumerate(
            (
                "Measles vaccination records",
                "School health services",
                "Health news",
                "Hospital waiting times in the region",
                "Opening hours of the clinics",
            )
        )
    )
    ex = core(page(f"<div class='story'>{ARTICLE}<ul>{clinics}</ul>{MORE}<ul>{links}</ul></div>"))
    assert_article_kept(ex)
    assert "Hull Royal Infirmary children's vaccination clinic, open on Saturday mornings." in ex.text, ex.explain()
    assert "School health services" not in ex.text
    assert removed_with(ex, "School health services")[0].note == "list of links"


def test_a_section_whose_id_is_its_headings_slug_is_not_named_noise():
    # a table of contents' anchor: "menu-..." is the heading's first word, not a menu
    html = page(
        f"<div class='story'>{ARTICLE}<div id='menu-changes-for-school-lunches-during-the-outbreak'>"
        "<h2>Menu changes for school lunches during the outbreak</h2><p>School kitchens will serve packed lunches "
        "for the next two weeks, so that pupils from different classes do not meet in the dining hall.</p></div>"
        f"{MORE}<div class='menu'><p>Home</p><p>News</p></div></div>"
    )
    ex = core(html)
    assert_article_kept(ex)
    assert "School kitchens will serve packed lunches" in ex.text, ex.explain()
    assert "News" not in ex.text.split("\n")


def test_the_rest_of_the_article_in_a_sibling_section_of_the_same_kind_is_kept():
    # a page builder cuts the article into sibling sections of one kind; the main content is the biggest one
    rest = (
        "<div class='pb-section pb-section-2'><h2>What parents can do</h2><p>Parents who are unsure whether their "
        "children were vaccinated can ask their family doctor, who keeps the records and can book a catch-up "
        "dose.</p><p>Children who missed a dose can be vaccinated at any age, and two doses protect nearly all of "
        "them for life, the authority said.</p></div>"
    )
    signup = "<div class='pb-section pb-section-3'><p>Subscribe to our newsletter</p><p>Sign up</p></div>"
    ex = core(page(f"<div><div class='pb-section pb-section-1'>{ARTICLE}{MORE}</div>{rest}{signup}</div>"))
    assert_article_kept(ex)
    assert "can book a catch-up dose" in ex.text and "protect nearly all" in ex.text, ex.explain()
    assert "Subscribe to our newsletter" not in ex.text


def test_the_short_heading_of_a_details_section_is_kept_as_a_heading():
    details = (
        "<details><summary>Side effects</summary><p>Most children have no side effects; a few have a mild fever "
        "or a rash for a day or two about a week after the dose.</p></details>"
    )
    ex = core(page(f"<div class='story'>{ARTICLE}{details}{MORE}</div>"))
    assert_article_kept(ex)
    assert "Side effects" in ex.text.split("\n"), ex.explain()


def test_an_intro_beside_a_main_content_chosen_without_narrowing_is_the_lead():
    intro = (
        "Forty new measles cases were reported this week in the north, and health officials say the outbreak "
        "is not yet under control."
    )
    links = "".join(f"<li><a href='/t{i}'>Another health story from the region, number {i}</a></li>" for i in range(8))
    html = page(
        f"<div><p>{intro}</p><p>Health News - updated 8:28 AM ET Aug 14</p><div class='story'>{ARTICLE}{MORE}</div>"
        f"<ul>{links}</ul></div>"
    )
    ex = core(html)
    assert_article_kept(ex)
    assert [p.note for p in ex.phrases if p.text == intro] == ["the article's lead"], ex.explain()
    assert "updated 8:28 AM" not in ex.text
    assert "Another health story" not in ex.text


def test_teasers_before_a_main_content_that_was_not_narrowed_are_not_its_lead():
    # the main content's parent holds a grid of story teasers before it: their leads are no lead of the article
    lead = (
        "The new ward has twenty beds and a play room, and it will take its first patients in the spring of next year."
    )
    grid = "".join(
        f"<div><h3><a href='/s{i}'>Hospital number {i} opens a new ward</a></h3><p>{lead}</p></div>" for i in range(4)
    )
    links = "".join(f"<li><a href='/l{i}'>Link number {i}</a></li>" for i in range(60))
    ex = core(
        page(f"<div><div class='grid'>{grid}</div><div class='story'>{ARTICLE}{MORE}</div><ul>{links}</ul></div>")
    )
    assert_article_kept(ex)
    assert "play room" not in ex.text, ex.explain()


def test_a_related_list_with_one_line_deks_is_not_a_list_of_linked_sentences():
    related = "".join(
        f"<li><a href='/r{i}'>Mumps cases in the {town} double in a year</a> Officials urge caution.</li>"
        for i, town in enumerate(("south", "east", "west", "north"))
    )
    ex = core(page(f"<div class='story'>{ARTICLE}{MORE}<ul>{related}</ul></div>"))
    assert_article_kept(ex)
    assert "Officials urge caution" not in ex.text, ex.explain()


def test_a_notice_at_the_top_of_the_page_is_not_the_lead_of_a_main_content_under_the_body():
    notice = (
        "<div class='notice'><p>We use cookies to improve your experience of this website. By continuing to browse "
        "it you agree to our use of cookies.</p></div>"
    )
    links = "".join(f"<li><a href='/l{i}'>Link number {i}</a></li>" for i in range(60))
    ex = core(page(f"{notice}<div class='story'>{ARTICLE}{MORE}</div><ul>{links}</ul>"))
    assert_article_kept(ex)
    assert "cookies" not in ex.text, ex.explain()


def test_a_column_teaser_above_the_article_is_not_its_lead():
    # New York Magazine 2005: beside the story, a column's name, its linked headline, the writer and a dek
    teaser = (
        "<p>THE CITY COLUMN <a href='/columns/city/1'>Clinics Stay Open</a> <i>By Jane Doe</i> But what about the "
        "towns the outbreak has not reached yet, and the parents who have not heard of it at all?</p>"
    )
    intro = (
        "Forty new measles cases were reported this week in the north, and health officials say the outbreak "
        "is not yet under control."
    )
    html = page(
        f"<div class='outer'>{teaser}<p>{intro}</p><div class='mid'><p>By Jane Doe, in Leeds</p>"
        f"<div class='story'>{ARTICLE}{MORE}</div></div></div>"
    )
    ex = core(html)
    assert_article_kept(ex)
    assert intro in ex.text, ex.explain()
    assert "THE CITY COLUMN" not in ex.text, ex.explain()
