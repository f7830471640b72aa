"""The compiled loops of filters/_compiled_loops.pyx against their Python versions (the notices' cue scan, the
gated searches of the site's lines, _named_noise, _measure's slot reads): the same output, as in
tests/filters/test_fast_paths.py."""

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from filters import html5
from filters.phrases import Phrase

from .test_fast_paths import _compiled


@pytest.fixture
def compiled_loops():
    """The compiled loops that walk no tree (filters/_compiled_loops.pyx)."""
    return _compiled(html5.COMPILED_LOOPS, "loops", "are")


_NOTICE_TEXT = (
    st.text(alphabet=st.sampled_from(list("aBcdEeOoprsStTyYvVzZ@[`{ (|:’é©\u0130\u212a")), max_size=40)
    | st.sampled_from(["Copyright 2005", "COPYRIGHT", "CopYright", "All Rights RESERVED", "Reserved", "Photo BY Jo"])
    | st.text(max_size=40)
)


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(_NOTICE_TEXT, st.lists(st.text(alphabet="abrc (|", min_size=1, max_size=4), min_size=1, max_size=5))
def test_the_compiled_notice_scan_matches_the_cues_of_the_lower_cased_text(compiled_loops, text, cues):
    # filters.prompts.notice_note's cues read in the text itself in one pass (CueScan.scan): the copyright cues as
    # written, the groups' cues as in text.lower() (cue_hits); None, for the caller to lower-case, where lower()
    # makes ASCII letters of another character
    from filters import prompts

    made = tuple((str(i), tuple(cues[i:]), None) for i in range(len(cues)))
    copyright = any(cue in text for cue in ("opyright", "OPYRIGHT", "eserved", "ESERVED", "©"))
    for groups in (prompts._PROMPTS_AND_LINES, made):
        scan = compiled_loops.CueScan(groups)
        for n_groups in range(len(groups) + 1):
            hits = prompts.cue_hits(text.lower(), groups[:n_groups])
            expected = (copyright, hits) if copyright or hits else 0
            assert scan.scan(text, n_groups) == (None if "\u0130" in text or "\u212a" in text else expected)
        # a group count past the groups (all of them) or below 0 (none): the cues' masks are made for every count
        assert scan.scan(text, len(groups) + 3) == scan.scan(text, len(groups))
        assert scan.scan(text, -1) == scan.scan(text, 0)
    assert scan.scan(text * 300, 0) == (
        None if "\u0130" in text or "\u212a" in text else (copyright and (True, [])) or 0
    )


def test_only_two_characters_lower_case_into_ascii():
    # CueScan.scan lower-cases ASCII letters as it reads them and hands back the texts with a character whose
    # str.lower() holds an ASCII character: these two, in this Python's Unicode database
    assert [c for c in range(128, 0x110000) if any(ord(x) < 128 for x in chr(c).lower())] == [0x130, 0x212A]
    assert all(chr(c).lower() == (chr(c + 32) if 65 <= c <= 90 else chr(c)) for c in range(128))


def test_notice_note_is_the_same_with_and_without_the_compiled_scan(monkeypatch):
    # the site's lines found with the compiled cue scan and with the Python cues (text.lower(), `in`)
    from filters import prompts

    texts = [
        "Copyright 2005 The Associated Press. All rights reserved.",
        "© 2024 Example",
        "ALL RIGHTS RESERVED 2001",
        "Photo by: Jim Varga",
        "By Haley Hoekstra • March 12, 2025",
        "Sign up for our newsletter",
        "·",
        "Page 1 of 2",
        "Photo \u0130stanbul by: Ayşe Kaya",
        "Published \u212a 2020",
        "We may earn a commission from links on this page.",
        "A sentence about nothing in particular.",
    ]
    compiled = [prompts.notice_note(t, p) for t in texts for p in (True, False)]
    monkeypatch.setattr(prompts, "_CUE_SCAN", None)
    assert [prompts.notice_note(t, p) for t in texts for p in (True, False)] == compiled
    assert compiled[0] == "copyright notice" and compiled[6] == "photo credit"


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.lists(
        st.tuples(
            st.integers(0, 1000),
            st.sampled_from([None, None, "comment section", "dialog", "form", "aside", "page chrome"]),
            st.integers(0, 800),
            st.sampled_from([0.0, 0.5, 12.0, 300.25, 1000.0]),
            st.sampled_from([0.0, 1.5, 40.0, 250.75]),
        ),
        min_size=1,
        max_size=14,
    ),
)
def test_the_compiled_named_noise_matches_the_python_one(compiled_loops, rows):
    # the noise above each block and the blocks' own scores (filters.content._named_noise): the same reasons, the same
    # floats, in C and in Python
    from filters import content

    n = len(rows)
    parents = [-1 if i == 0 else seed % i for i, (seed, *_rest) in enumerate(rows)]
    own = [reason for _seed, reason, *_rest in rows]
    text = [t for *_first, t, _c, _o in rows]
    subtree = text[:]
    for i in range(n - 1, 0, -1):
        subtree[parents[i]] += subtree[i]
    m = content._Measures(
        article=[],
        text_chars=text,
        text_score=[t * 0.75 for t in text],
        other_score=[o for *_first, o in rows],
        chars=[t + c for t, (*_first, c, _o) in zip(text, rows, strict=True)],
        link_chars=[0.0] * n,
        linked=[0] * n,
        linked_sentences=[0] * n,
        subtree=subtree,
    )

    def run():
        noise, score = content._named_noise(list(own), m, parents)
        return noise, score, [type(v) for v in score]

    compiled = run()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(html5, "COMPILED_LOOPS", None)
        assert run() == compiled


def test_the_compiled_named_noise_refuses_a_parent_out_of_range_as_python_does(compiled_loops):
    # the compiled loop reads its lists without checks but a parent's index, which the blocks give: IndexError, as the
    # Python loop's noise[p]
    lists = ([None, None], [0, 0], [1.0, 1.0], [0.0, 0.0], [0.0, 0.0])
    args = (*lists, [-1, 5], frozenset(), 250, 0.8, 0.3, 0.0, 0.0, 1.0)
    with pytest.raises(IndexError):
        compiled_loops.named_noise(*args)
    assert compiled_loops.named_noise(*args[:5], [-1, 0], *args[6:]) == ([None, None], [0.0, 0.0])


_LINE_PIECES = [
    "Page 1 of 2", " | ", "•", "·", "By John Smith", " 2005", "Posted: ", "March 3, 2024", "received your message",
    "We may earn a commission", "as an Amazon Associate", "AFFILIATE LINKS we earn", "qualifying purchases",
    "\u0130", "\u0131", "\u017f", "\u212a", "x", " ", "1 | 2 | 3", "Filed under News", "5 min read", "Thank you for "
    "contacting us", "by clicking you agree", "Your tip was received", "Discuss this story", "(Oct 27, 2000)",
    " - Reuters ", "Updated: May 1, 2020", "From the February 7, 2005 issue of Wired", "commi\u017fsion", ")", ") ",
    "\n", "Rick Bowmer/AP", "Photo courtesy of CBS", " / ", "Getty Images", "1", "\u00a0", "\u2013",
    "\u2014 AP ", "Storm (May 2)",
]  # fmt: skip


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(_LINE_PIECES), max_size=8).map("".join))
@example("Mumps cases double - Reuters (Oct 27, 2000)").via("a related story, after a hyphen")
@example("Mumps cases double \u2014 AP (Oct 27, 2000)\n").via("after a dash")
def test_the_gated_searches_answer_as_the_patterns_do(text):
    # the site's lines' patterns tried at the start, then searched only where they can match further on
    # (filters.prompts._Gated): the same answer as their search, whatever the text
    from filters import prompts

    gated = [group[2] for group in prompts._PROMPTS_AND_LINES if isinstance(group[2], prompts._Gated)]
    assert len(gated) >= 5
    for g in gated:
        assert (g.search(text) is None) == (g.pattern.search(text) is None)


_PAGER = (  # the pager's pattern when it was one group, cued by "|" or " of "
    r"^\W*(?i:page\s+)?\d{1,3}\s+(?i:of)\s+\d{1,3}\W*$"
    r"|^[^|]{0,60}?(?<![\d.,])1\s*\|\s*2(?:\s*\|\s*\d{1,3})*\W*(?i:next)?\W*$"
)


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from([*_LINE_PIECES, "Page 1 of 3", "2 of 2", "\t", "|", "NEXT"]), max_size=6).map("".join))
def test_the_pagers_two_groups_find_what_their_one_pattern_did(text):
    # "page numbers" is two groups (the pager of numbers only where a "|" is): the same phrases as the one pattern
    import re

    from filters import prompts

    pager = [(cues, pattern) for note, cues, pattern in prompts._LINES if note == "page numbers"]
    assert len(pager) == 2
    low = text.lower()
    found = any(any(cue in low for cue in cues) and pattern.search(text) for cues, pattern in pager)
    assert found == bool(("|" in low or " of " in low) and re.search(_PAGER, text, re.DOTALL))


def test_the_compiled_measure_reads_the_phrases_slots_and_other_objects_alike(compiled_loops):
    # _measure's loop reads a Phrase's slots at their offsets (its member descriptors'), and looks up the attributes
    # of any other object: the same sums for phrases, their subclasses and look-alikes mixed
    import dataclasses

    from filters import content

    class Sub(Phrase):
        __slots__ = ("extra",)

    @dataclasses.dataclass
    class Alike:
        text: str
        neg: str | None = None
        link_density: float | None = None
        node: int = -1

    assert compiled_loops.phrase_slots(Phrase) is not None  # the direct reads are in use
    assert compiled_loops.phrase_slots(Alike) is None  # no slots: looked up
    blocks = html5.Blocks(tags=["div", "p", "li"], parents=[-1, 0, 0])
    rows = [
        ("A sentence with a link in it, long enough.", None, 0.2, 1),
        ("short", None, None, 2),
        ("x", "script", 0, 1),
    ]
    for make in (Phrase, Sub, Alike):
        phrases = [Phrase(t, "p", neg, None, ld, node=i) for t, neg, ld, i in rows]
        mixed = [
            make(t, "p", neg, None, ld, node=i) if make is not Alike else Alike(t, neg, ld, i) for t, neg, ld, i in rows
        ]
        expected = dataclasses.astuple(content._measure(phrases, blocks, {}))
        assert dataclasses.astuple(content._measure(phrases[:1] + mixed[1:], blocks, {})) == expected
        assert dataclasses.astuple(content._measure(mixed, blocks, {})) == expected
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(html5, "COMPILED_LOOPS", None)
            assert dataclasses.astuple(content._measure(mixed, blocks, {})) == expected


@settings(max_examples=500, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                "Rate this story",
                "RATE THIS POST",
                "rate th\u0131s article",
                "Average (Not Rated)",
                "  ",
                "!",
                "Ratings: would you recommend",
                "generate",
                "rate",
                "d",
                "\u0131",
                "\u017f",
                "\u212a",
                "\u0130",
                ".",
            ]
        ),
        max_size=5,
    ).map("".join)
)
def test_the_discussion_prompts_cues_find_what_rate_did(text):
    # "rate th" and "not rated" for "rate" (which every "generate" holds): a phrase the pattern finds, with "rate"
    # in it, has one of them, or another cue of the group
    from filters import prompts

    (cues, pattern), *_ = [(cues, p) for note, cues, p in prompts._PROMPTS if note == "discussion prompt"]
    low = text.lower()
    assert "rate" not in cues
    if pattern.search(text) and "rate" in low:
        assert any(cue in low for cue in cues)
