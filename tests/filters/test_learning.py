"""Site learning: the thesis's multiset examples, redundant phrases, template clusters, threshold."""

import tracemalloc

import pytest

from filters import extract, get_profile, learn_profile
from filters.learning import (
    analyse_page,
    cluster_pages,
    learn_threshold,
    main_region,
    redundant_phrases,
    redundant_words,
)
from filters.pipeline import decide


def test_thesis_multiset_intersection_example():
    pages = [list("aabbcff"), list("abceff"), list("acgff")]
    assert redundant_words(pages) == {"a": 1, "c": 1, "f": 2}


def test_redundant_words_min_share_and_degenerate_input():
    assert redundant_words([list("ab")]) == {}
    pages = [list("ab"), list("abb"), list("bb"), list("c")]
    # seed = page with the fewest words ("c"), which the others lack
    assert redundant_words(pages) == {}
    assert redundant_words([list("ab"), list("abb"), list("bbx")], min_share=0.5) == {"a": 1, "b": 1}


def test_redundant_phrases_start_from_the_page_with_fewest_phrases():
    pages = [["menu", "story one", "footer"], ["menu", "footer"], ["menu", "story three", "footer", "ad"]]
    assert redundant_phrases(pages) == ["menu", "footer"]
    assert redundant_phrases([["x", "y"], ["x"], ["z"]]) == []
    # seed ["x"] (first of the smallest); x is on 2 of the 3 other pages
    assert redundant_phrases([["x", "y"], ["x"], ["x", "q"], ["q"]], min_share=0.6) == ["x"]
    assert redundant_phrases([["x", "y"], ["x"], ["x", "q"], ["q"]], min_share=1.0) == []
    assert redundant_phrases([["x", "y"], ["x", "y", "q"], ["x", "q"]], min_share=0.5) == ["x", "y"]


_WORDS = [
    "harbour",
    "bridge",
    "council",
    "river",
    "museum",
    "election",
    "school",
    "storm",
    "festival",
    "market",
    "railway",
    "hospital",
    "library",
    "orchard",
    "stadium",
    "factory",
    "garden",
    "airport",
]


def _page(template: str, n: int) -> str:
    w = [_WORDS[(n * 5 + k) % len(_WORDS)] for k in range(4)]
    story = f"Story {n}: the {w[0]} and the {w[1]} near the {w[2]} were closed by the {w[3]} committee."
    if template == "news":
        return (
            f"<html><body><div id=top>Example Times - your trusted daily newspaper since 1901</div>"
            f"<div class=nav>Politics Business Sport Weather and Culture sections</div>"
            f"<h1>Headline {n}</h1><div>{story}</div>"
            f"<div>Read the Example Times print edition for daily updates</div></body></html>"
        )
    return (
        f"<html><body><table><tr><td>Example Times video gallery with the latest clips</td></tr>"
        f"<tr><td><span>{story}</span></td></tr><tr><td>Video player requires JavaScript to be enabled"
        f"</td></tr></table></body></html>"
    )


def test_learn_profile_finds_template_boilerplate_and_clusters():
    pages = [(f"http://ex.org/news/{i}", _page("news", i)) for i in range(6)]
    pages += [(f"http://ex.org/video/{i}", _page("video", i)) for i in range(4)]
    # the redundant-phrase method (the default profile learns the site style tree instead: test_sst.py)
    prof = learn_profile(pages, base="default", style_tree=False)
    assert "Example Times - your trusted daily newspaper since 1901" in prof.filtering_phrases
    assert "Read the Example Times print edition for daily updates" in prof.filtering_phrases
    # the second template's boilerplate is found too (automatic sample per cluster)
    assert "Video player requires JavaScript to be enabled" in prof.filtering_phrases
    assert not any("Story" in p for p in prof.filtering_phrases)
    assert sorted(prof.provenance["clusters"]) == [4, 6]
    assert prof.provenance["base"] == "default"
    # learned words (after the redundant phrases are gone): words every story repeats, not the varying ones
    assert "committee" in prof.filtering_words and not set(_WORDS) & set(prof.filtering_words)
    # applying the profile removes the boilerplate from a new page of the site
    e = extract(_page("news", 99), profile=prof)
    assert e.text.splitlines()[0] == "Headline 99"
    assert e.text.splitlines()[1].startswith("Story 99: the ")
    assert len(e.text.splitlines()) == 2
    # the learned threshold (long boilerplate here) removes it by length first, Fig. 4 order
    assert prof.min_length > 50 and prof.provenance["threshold"]["learned"] == prof.min_length
    fixed = learn_profile(pages, base="default", learn_threshold=False, style_tree=False)
    # three template phrases go: by the redundant-phrase filter, or before it as outside the main content
    counts = extract(_page("news", 99), profile=fixed).counts
    assert counts["redundancy"] >= 2 and counts["redundancy"] + counts["content"] == 3
    assert "times" not in e.tokens and "committee" not in e.tokens


def test_thesis_learning_uses_pages_as_given_and_fixed_threshold():
    pages = [_page("news", i) for i in range(3)] + [_page("video", i) for i in range(3)]
    prof = learn_profile(pages, base="thesis")
    assert prof.min_length == 20
    assert prof.provenance["threshold"] == {"fixed": 20, "learned": None}
    # sample = the first five pages given, across both templates: only phrases common to all survive
    assert prof.provenance["sample_size"] == 5
    assert "Example Times - your trusted daily newspaper since 1901" not in prof.filtering_phrases


def test_learning_needs_two_readable_pages_and_skips_bad_ones():
    with pytest.raises(ValueError, match="at least 2"):
        learn_profile([_page("news", 1)])
    prof = learn_profile([("bad", b"\x89PNG\r\n\x1a\n" + bytes(100)), _page("news", 1), _page("news", 2)])
    assert prof.provenance["skipped"][0]["url"] == "bad"
    with pytest.raises(ValueError, match="unknown learning setting"):
        learn_profile([_page("news", 1), _page("news", 2)], sampel_size=3)


def test_cluster_pages_separates_templates():
    samples = [analyse_page(_page("news", i)) for i in range(4)] + [analyse_page(_page("video", i)) for i in range(3)]
    clusters = cluster_pages(samples)
    assert sorted(map(sorted, clusters)) == [[0, 1, 2, 3], [4, 5, 6]]


def test_learn_threshold_separates_lengths():
    noise = [5, 8, 10, 12, 12, 14, 15, 16]
    content = [40, 55, 80, 120, 33, 25, 200, 61]
    t = learn_threshold(noise, content, 5, 60)
    assert 17 <= t <= 25
    assert learn_threshold([1, 2], content, 5, 60) is None


def test_learned_profile_round_trips_through_json():
    pages = [_page("news", i) for i in range(4)]
    prof = learn_profile(pages)
    again = type(prof).from_dict(prof.to_dict())
    assert extract(_page("news", 7), profile=again).text == extract(_page("news", 7), profile=prof).text
    assert get_profile("default").filtering_phrases == []  # the built-in was not modified


def _nested_page(depth: int, story: str) -> bytes:
    body = "<div class=story>" + "<p>" + story + "</p>" * 1
    return (
        "<html><body><div class=nav><a href=/a>Home</a> <a href=/b>World</a></div>"
        + "<div class=wrap>" * depth
        + body
        + "</div>"
        + "</div>" * depth
        + "<div class=foot>Copyright the site, all rights reserved, since 1999.</div></body></html>"
    ).encode()


def test_site_learning_is_linear_in_the_depth_of_the_pages():
    """Block paths are interned, not copied per block: learning from pages nested just under the door's limit
    (2,048) costs little memory (a tuple path per block took 708 MiB for 3,000 nested tables)."""
    story = "A sentence of the story that is long enough to be kept by every filter here. "
    samples = [analyse_page(_nested_page(1900, story * (3 + k)), url=f"u{k}") for k in range(4)]
    for s in samples:
        decide(s.phrases, get_profile("default"), s.blocks, s.title, frozenset())
    tracemalloc.start()
    region, info = main_region(samples)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert "div.story" in region["path"][-3:]
    assert len(region["path"]) > 1900
    assert peak < 4 * 1024 * 1024, f"main_region peaked at {peak / 2**20:.1f} MiB"


def test_a_page_past_the_input_limits_is_skipped_by_learning_with_its_reason():
    story = "A sentence of the story that is long enough to be kept by every filter here. " * 4
    pages = [(f"u{k}", _nested_page(10, story + str(k))) for k in range(3)]
    prof = learn_profile([("deep", _nested_page(3000, story)), *pages])
    assert prof.provenance["skipped"] == [
        {
            "url": "deep",
            "error": "input is not a readable HTML page: elements nested more than 2,048 deep "
            "(the parser drops what lies below)",
        }
    ]


def test_one_paragraph_the_pages_remove_does_not_make_every_paragraph_the_sites_noise():
    """The site's usual non-content blocks are stored by path without sibling numbers: a pager's ``<p>`` removed
    among the story's paragraphs on every page made ``p`` noise, and the learned profile then removed the whole
    story (New York Magazine 2000 in crawl-to-the-future, once pagers were recognised)."""

    def story_page(k: int) -> str:
        paragraphs = "".join(
            f"<p>Paragraph {i} of story {k}: the regional health authority said the outbreak was contained to "
            f"three towns and that the clinics would stay open on Saturday mornings for the month.</p>"
            for i in range(6)
        )
        nav = "".join(f"<li><a href='/s/{i}'>Section {i}</a></li>" for i in range(8))
        return (
            f"<html><head><title>Story {k}</title></head><body><ul class='nav'>{nav}</ul>"
            f"<div class='story'><h1>Story {k}</h1>{paragraphs}<p>Page 1 of 2</p></div></body></html>"
        )

    pages = [story_page(k) for k in range(5)]
    profile = learn_profile([analyse_page(p, url=f"https://news.example.org/{k}") for k, p in enumerate(pages)])
    assert ["p"] not in profile.main_region.get("noise", []), profile.main_region
    ex = extract(story_page(9), profile=profile)
    assert "Paragraph 3 of story 9" in ex.body, ex.explain()
