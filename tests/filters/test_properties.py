"""Property-based tests: random and mutated HTML never crash, and the result stays consistent."""

import contextlib

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from filters import ExtractionError, extract, learn_profile

TAGS = [
    "p",
    "div",
    "a",
    "span",
    "b",
    "script",
    "style",
    "h1",
    "li",
    "ul",
    "table",
    "td",
    "select",
    "option",
    "title",
    "head",
    "body",
    "nav",
    "br",
    "meta",
]


@st.composite
def html_documents(draw, depth=0):
    parts = []
    for _ in range(draw(st.integers(0, 6))):
        kind = draw(st.sampled_from(["text", "elem", "comment", "junk"] if depth < 6 else ["text", "junk"]))
        if kind == "text":
            parts.append(draw(st.text(min_size=0, max_size=60)))
        elif kind == "comment":
            parts.append("<!--" + draw(st.text(max_size=30)) + "-->")
        elif kind == "junk":
            parts.append(
                draw(
                    st.sampled_from(
                        [
                            "<",
                            ">",
                            "</",
                            "&amp;",
                            "&#0;",
                            "<![CDATA[",
                            "<?x",
                            "\x00",
                            "<p",
                            "</div>",
                            "<a href='",
                            "\ufeff",
                        ]
                    )
                )
            )
        else:
            tag = draw(st.sampled_from(TAGS))
            inner = draw(html_documents(depth=depth + 1))
            close = draw(st.booleans())
            parts.append(f"<{tag}>{inner}" + (f"</{tag}>" if close else ""))
    return "".join(parts)


def _check(e):
    c = e.counts
    assert c["total"] == len(e.phrases)
    assert c["length"] + c["tag"] + c["redundancy"] + c.get("content", 0) + c.get("wpnc", 0) + c["core"] == c["total"]
    assert e.text.split("\n") == [p.text for p in e.phrases if p.is_core] or (e.text == "" and c["core"] == 0)
    assert c["rescued"] == sum(p.rescued_by is not None for p in e.phrases)
    for p in e.phrases:
        assert p.removed_by in (None, "length", "tag", "redundancy", "content", "wpnc")
        assert p.rescued_by is None or p.removed_by is None


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(html_documents(), st.sampled_from(["thesis", "default", "wpnc"]))
def test_random_html_never_crashes(doc, profile):
    try:
        e = extract(doc, profile=profile)
    except ExtractionError:
        return  # allowed: e.g. no tags at all
    _check(e)


BASE = (
    b"<html><head><title>A title for the page</title></head><body><div class=nav><a href=/>Home</a></div>"
    b"<p>The first paragraph of the article is long enough to be kept as core text.</p>"
    b"<script>var x = '<p>not content</p>';</script><p>Second paragraph with <b>bold</b> and "
    b"<a href=/y>a link</a> in the middle of it.</p></body></html>"
)


@settings(max_examples=80, deadline=None)
@given(st.data())
def test_mutated_html_never_crashes(data):
    doc = bytearray(BASE)
    for _ in range(data.draw(st.integers(1, 8))):
        op = data.draw(st.sampled_from(["flip", "delete", "insert", "truncate"]))
        pos = data.draw(st.integers(0, max(0, len(doc) - 1)))
        if op == "flip" and doc:
            doc[pos] = data.draw(st.integers(0, 255))
        elif op == "delete":
            del doc[pos : pos + data.draw(st.integers(1, 20))]
        elif op == "insert":
            doc[pos:pos] = data.draw(st.binary(max_size=10))
        else:
            del doc[pos:]
    for profile in ("thesis", "default", "wpnc"):
        try:
            e = extract(bytes(doc), profile=profile)
        except ExtractionError:
            continue
        _check(e)


@settings(max_examples=20, deadline=None)
@given(st.lists(html_documents(), min_size=2, max_size=5))
def test_learning_on_random_pages_never_crashes(docs):
    try:
        prof = learn_profile(docs)
    except ValueError:
        return  # fewer than two readable pages
    assert all(isinstance(p, str) for p in prof.filtering_phrases)
    assert all(isinstance(v, int) and v > 0 for v in prof.filtering_words.values())
    for d in docs:
        with contextlib.suppress(ExtractionError):
            _check(extract(d, profile=prof))
