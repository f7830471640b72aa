"""The site's usual main content (``Profile.main_region``, filters.content / filters.learning): small pages
of one made-up site written here."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from filters import Profile, extract, get_profile
from filters.content import SITE_NOISE_NOTE, SITE_REGION_NOTE
from filters.html5 import Blocks
from filters.learning import learn_profile
from filters.sst import block_key, child_in_slot, slots

TOPICS = ("harbour", "library", "railway", "orchard", "theatre", "bridge")


def story(topic: str, paragraphs: int = 3) -> str:
    return "".join(
        f"<p>The {topic} committee met on day {k} and agreed a plan for the {topic} that the town council will "
        f"fund next spring, after a long public consultation about the {topic} and its future.</p>"
        for k in range(paragraphs)
    )


def links_box(topic: str) -> str:
    items = "".join(f'<li><a href="/{topic}/{k}">More about the {topic}, part {k}</a></li>' for k in range(6))
    return f'<div class="box"><ul>{items}</ul></div>'


def site_page(topic: str, body_story: str, extra: str = "", box: str = "") -> str:
    return (
        f"<!doctype html><html><head><title>{topic} | Town News</title></head><body>"
        f'<div id="wrap"><div class="story"><h1>News of the {topic}</h1>{body_story}{box}</div>'
        f'<div class="extra">{extra}</div></div></body></html>'
    )


SAMPLES = [site_page(t, story(t), "Town News, since 1901", links_box(t)) for t in TOPICS[:4]]


@pytest.fixture(scope="module")
def learned() -> Profile:
    return learn_profile(SAMPLES, style_tree=False, style_tree_phrases=False)


def test_learning_records_the_sites_usual_main_content(learned):
    region = learned.main_region
    assert region["path"] == ["html", "body", "div.wrap", "div.story"]
    assert region["share"] == 1.0
    assert ["div.box"] in region["noise"]  # the list of links, removed inside the story on every sample page
    assert learned.provenance["main_region"]["share"] == 1.0
    # serialised and read back
    assert Profile.from_dict(learned.to_dict()).main_region == region


def test_the_sites_region_wins_over_a_neighbouring_region():
    # the page's own choice takes the wrapper (the story's neighbour holds as much text); the site's usual
    # main content is the story
    extra = "".join(
        f"<p>Readers wrote to us about the weather in week {k}, and about the roads, the buses and the many "
        f"other things that a town newspaper hears about every single week.</p>"
        for k in range(2)
    )
    test_page = site_page("museum", story("museum", 2), extra)
    single = extract(test_page, profile="default")
    assert "Readers wrote to us" in single.text  # the page alone keeps the neighbour
    profile = learn_profile(SAMPLES, style_tree=False, style_tree_phrases=False)
    ex = extract(test_page, profile=profile)
    assert "museum committee met on day 1" in ex.text
    assert "Readers wrote to us" not in ex.text
    notes = {p.note for p in ex.phrases if "Readers wrote" in p.text}
    assert notes == {SITE_REGION_NOTE}


def test_the_sites_usual_non_content_block_is_removed_inside_the_main_content(learned):
    # on this page the box holds one short link: not a list of links by itself, but the site's box
    box = '<div class="box"><p>See also <a href="/m">our museum guide</a> and the weekend opening hours.</p></div>'
    test_page = site_page("museum", story("museum"), "Town News, since 1901", box)
    assert "our museum guide" in extract(test_page, profile="default").text
    ex = extract(test_page, profile=learned)
    assert "museum committee met on day 2" in ex.text
    assert "our museum guide" not in ex.text
    assert {p.note for p in ex.phrases if "museum guide" in p.text} == {SITE_NOISE_NOTE}


def test_profiles_stored_without_the_field_still_load():
    data = get_profile("default").to_dict()
    assert "main_region" not in data  # empty: left out, as stored before
    assert Profile.from_dict(data).main_region == {}
    thesis = learn_profile(SAMPLES, base="thesis")
    assert thesis.main_region == {}  # no main-content detection: nothing to learn


@pytest.mark.parametrize(
    "region",
    [
        [],
        {"path": []},
        {"path": ["html", ""]},
        {"path": ["html"], "noise": [[]]},
        {"path": ["html"], "share": 2},
        {"path": ["html"], "other": 1},
    ],
)
def test_a_bad_main_region_is_refused(region):
    with pytest.raises(ValueError):
        get_profile("default").copy(main_region=region)


def test_a_main_region_needs_main_content_detection():
    with pytest.raises(ValueError):
        get_profile("thesis").copy(main_region={"path": ["html", "body"]})


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(["div", "p", "h1"]), st.sampled_from(["", "box", "post-12", "post-7"])), max_size=12
    ),
    st.sampled_from(["div", "div#1", "div#2", "div.box", "div.box#1", "p", "p#1", "h1", "div.post-#", "div.post-##1"]),
)
def test_the_child_in_a_slot_is_the_first_with_that_slot(children, want):
    # the path's step made slot by slot up to the match: the child slots() and list.index() find
    blocks = Blocks()
    top = blocks.add("body", -1, "")
    for tag, marks in children:
        child = blocks.add(tag, top, marks)
        blocks.ends[child] = child + 1
    blocks.ends[top] = len(blocks.tags)
    kids = blocks.children(top)
    found = slots(block_key(blocks.tags[j], blocks.marks[j]) for j in kids)
    assert child_in_slot(blocks, top, want) == (kids[found.index(want)] if want in found else -1)
