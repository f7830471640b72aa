"""The pipeline's fast paths give exactly what their plain reference versions give.

``segment`` against the tree walk of commit 11ca42e (reference_segment.py): same phrases, same order,
same tag paths, negative/positive tags and link densities, same title; on hand-made corner cases (empty
blocks, <br>, <meta> and comments in odd places, processing instructions, deep nesting) and on random
HTML, for the built-in profiles and for custom ones that switch on the branches the built-ins leave off.
``filters.html5.segment`` likewise against the HTML5 walk of commit 28b6e47 (reference_html5_segment.py),
with the blocks (tags, parents, class/id/role, links) and each phrase's block as well: both its walks, the
compiled one (filters/_html5_walk.pyx, which must be built wherever a C compiler is) and the Python one it falls
back to, also against each other on the real pages of the shared datasets.
The loops compiled in filters/_compiled_loops.pyx (UTF-8, the tag scan, the best subtree) against their Python
versions (``tokenize``'s, compiled in filters/_compiled_tokens.pyx: tests/filters/test_compiled_tokens.py).
"""

import gzip
import hashlib
import logging
import os
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tomllib

import pytest
import selectolax
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import filters
from filters import get_profile, html5
from filters.compiled_sources import source_digest
from filters.limits import MAX_ATTRIBUTES
from filters.phrases import Phrase
from filters.pipeline import _count_controls, _norm, extract, parse_html, segment

from .reference_html5_segment import reference_html5_segment, subtree_ends
from .reference_segment import reference_segment
from .test_properties import html_documents

PROFILES = [
    get_profile("thesis"),
    get_profile("default"),
    # block phrases with the head's phrases (meta among the runs) and comments that are not negative
    get_profile("default").copy(
        name="block-head",
        head_phrases=True,
        negative_tags=["a", "script", "style", "nav"],
        positive_tags=["p", "meta", "h1"],
    ),
    # raw text runs without comments as negative, <br> and <hr> as negative tags
    get_profile("thesis").copy(name="raw-odd", negative_tags=["a", "br", "hr", "span"], positive_tags=["div", "b"]),
]


def _facts(phrases, title):
    return title, [(p.text, p.path, p.neg, p.pos, p.link_density) for p in phrases]


def assert_same(html: str):
    root = parse_html(html)
    if root is None:
        return
    for prof in PROFILES:
        expected = _facts(*reference_segment(root, prof))
        assert _facts(*segment(root, prof)) == expected, (prof.name, html)


CASES = [
    "<div>foo<p></p>bar</div>",
    "<div>foo<hr>bar<br>baz<p><img></p>qux<!-- c --></div>",
    "<div><div><div><hr></div></div></div>tail after empty blocks<div>x</div>",
    "<p>one<br>two<br><br>three <br> four<br></p><br>after",
    "<p>a<b>b<br></b>c</p><ul><li><img></li><li>item</li><li></li></ul>end",
    "<div>foo<meta name=description content='in body'>bar<hr><meta name=keywords content=k>baz</div>",
    "<p>foo<meta name=description content=m></p><p>bar</p>",
    "<div>run<nav></nav>after nav<button>x<br>y</button>z</div>",
    "<div>a<?php echo 1 ?>b<!---->c<!-- -->d</div>",
    "<html><head><title> </title><title>Second title</title><!-- head comment --></head><body>t</body></html>",
    "<a href=x>link <div>block in link</div> tail</a> text",
    "<table><tr><td>cell<td><td>other</table><select><option>o1<option>o2</select>",
    "<div>\xa0</div><p>\xa0x\xa0</p><div>\x0c</div>text",
    "<script>" + "var x = 1;\n" * 200 + "</script><p>" + "long " * 300 + "</p>",
    "<svg><title>svg title</title></svg><title>page</title>",
    "<div>" * 300 + "deep" + "</div>" * 300 + "<p>" * 200 + "<hr>" + "</p>" * 200 + "after",
    "<body>text<br>",
    "<html><body><div>a</div></body></html><!-- after html -->",
]


HTML5_PROFILES = [
    get_profile("default"),
    # the head's phrases, comments and <meta> positive, links and chrome tags negative, a positive tag that is
    # a block and one that is opaque: the branches the default profile leaves off
    get_profile("default").copy(
        name="html5-odd",
        head_phrases=True,
        main_content=False,
        negative_tags=["a", "script", "style", "nav", "svg", "#comment", "button"],
        positive_tags=["p", "meta", "h1", "svg", "b"],
    ),
]


def _html5_facts(phrases, title, blocks):
    return (
        title,
        [(p.text, p.path, p.neg, p.pos, p.link_density, p.node) for p in phrases],
        (blocks.tags, blocks.parents, blocks.marks, blocks.links, blocks.ends),
    )


def assert_same_html5(html: str):
    tree = html5.parse(html)
    for prof in HTML5_PROFILES:
        expected = _html5_facts(*reference_html5_segment(tree, prof))
        assert _html5_facts(*html5.segment(tree, prof)) == expected, (prof.name, html)
        assert _html5_facts(*html5.python_segment(tree, prof)) == expected, (prof.name, html)


def c_compiler() -> str | None:
    """The C compiler setuptools builds the walk with ($CC, else the one Python was built with), where it is found."""
    words = shlex.split(os.environ.get("CC") or sysconfig.get_config_var("CC") or "")
    return shutil.which(words[0]) if words else None


def _compiled(module, what, are):
    """The compiled ``module``; its tests skip only where it cannot be built (the README's install without a
    compiler), and fail where it could be and is not in use (a build that silently failed, a check that refused it)."""
    if module is None and c_compiler() is None:
        pytest.skip(f"compiled {what} not built: no C compiler (CC, sysconfig's CC): the Python {what} {are} in use")
    assert module is not None, (
        f"a C compiler is here ({c_compiler()}) but the compiled {what} {are} not in use: "
        "run `pip install -e .` and read its output, and the warnings filters.html5 logged"
    )
    return module


@pytest.fixture
def compiled_walk():
    """The compiled walk (filters/_html5_walk.pyx)."""
    return _compiled(html5.COMPILED_WALK, "walk", "is")


@pytest.fixture
def compiled_loops():
    """The compiled loops that walk no tree (filters/_compiled_loops.pyx)."""
    return _compiled(html5.COMPILED_LOOPS, "loops", "are")


def test_the_compiled_walk_is_built_and_in_use(compiled_walk):
    # `pip install -e .` compiles it (setup.py); without it every page takes the slower Python walk
    # its layout check reads selectolax's node objects only, and refuses anything else
    tree = html5.parse("<p>x</p>")
    p = tree.css_first("p")
    assert compiled_walk.layout_ok(p, tree)
    assert not compiled_walk.layout_ok(tree, tree)
    assert not compiled_walk.layout_ok(p, html5.parse("<p>x</p>"))


def test_selectolax_is_pinned_to_the_release_whose_structs_the_walk_declares():
    # the compiled walk redeclares lexbor's structs: a selectolax release with other layouts must not be installed
    root = html5.Path(html5.__file__).parent.parent
    deps = tomllib.loads((root / "pyproject.toml").read_text())["project"]["dependencies"]
    (pin,) = [d for d in deps if d.startswith("selectolax")]
    declared = re.search(r'^SELECTOLAX_VERSION = "(.+)"$', (root / "filters" / "_html5_walk.pyx").read_text(), re.M)
    assert declared is not None
    assert pin == f"selectolax=={declared[1]}"
    assert selectolax.__version__ == declared[1]


STORY_PAGE = (
    "<html><head><title>Council approves cycle lanes</title></head><body>"
    "<nav><a href=/>Home</a> <a href=/news>News</a></nav><article><h1>Council approves cycle lanes</h1>"
    "<p>The city council voted on Tuesday to build protected cycle lanes along the whole of the ring road.</p>"
    "<p>Work is due to start in the spring and to take about eighteen months, the <a href=/c>council</a> said.</p>"
    "</article><aside class=related><a href=/a>Other story</a></aside><footer>(c) The Times</footer></body></html>"
)


def _extraction(html: str):
    result = extract(html, url="https://news.example.com/a")
    return result.to_dict(), result.blocks


def test_a_failed_self_check_falls_back_to_the_python_walk_with_a_warning(compiled_walk, monkeypatch, caplog):
    expected = _extraction(STORY_PAGE)

    def one_phrase_short(tree, profile):  # what a changed struct layout could make the compiled walk miss
        phrases, title, blocks = html5.python_segment(tree, profile)
        return phrases[1:], title, blocks

    with caplog.at_level(logging.WARNING, logger="filters.html5"):
        assert html5._load_compiled_walk(reference=one_phrase_short) is None
    assert "not used (its output differs from the Python walk's)" in caplog.text
    monkeypatch.setattr(html5, "COMPILED_WALK", None)  # as the import would have set it
    assert _extraction(STORY_PAGE) == expected


def test_a_self_check_that_raises_falls_back_instead(compiled_walk, caplog):
    def broken(tree, profile):
        raise MemoryError("lexbor")

    with caplog.at_level(logging.WARNING, logger="filters.html5"):
        assert html5._load_compiled_walk(reference=broken) is None
    assert "the compiled HTML5 walk's checks raised" in caplog.text and "MemoryError: lexbor" in caplog.text


def test_another_selectolax_release_is_refused_before_its_structs_are_read(compiled_walk, monkeypatch, caplog):
    def read_structs(*args):
        raise AssertionError("the self-check read lexbor's structs under another selectolax release")

    for name in ("layout_ok", "node_count", "wrap", "segment"):
        monkeypatch.setattr(compiled_walk, name, read_structs)
    with caplog.at_level(logging.WARNING, logger="filters.html5"):
        assert html5._load_compiled_walk(selectolax_version="1.0.3") is None
    assert f"declares the structs of selectolax {compiled_walk.SELECTOLAX_VERSION}, and 1.0.3 is installed" in (
        caplog.text
    )


def test_a_compiled_walk_that_cannot_bind_to_selectolax_falls_back(compiled_walk):
    # a selectolax whose LexborNode is not the type the walk binds to: importing the walk raises TypeError, not
    # ImportError, and the filters must import all the same; in a new process, as an extension module's
    # initialisation runs once per process
    code = (
        "import selectolax.lexbor as lexbor; lexbor.LexborNode = None\n"
        "from filters import extract, html5\n"
        "assert html5.COMPILED_WALK is None\n"
        f"print(extract({STORY_PAGE!r}).text)\n"
    )
    root = html5.Path(html5.__file__).parent.parent
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=root, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "filters/_html5_walk could not be imported" in done.stderr and "TypeError" in done.stderr
    assert done.stdout.strip() == extract(STORY_PAGE).text


def test_a_compiled_walk_built_from_another_source_is_not_used(compiled_walk, tmp_path):
    source, text = tmp_path / "_html5_walk.pyx", tmp_path / "_html5_text.pxi"
    installed = html5.Path(html5.__file__).with_name("_html5_walk.pyx")
    text.write_text(installed.with_name("_html5_text.pxi").read_text())
    source.write_text(installed.read_text() + "# edited after the build\n")
    with pytest.warns(RuntimeWarning, match="not the source"):
        assert html5._load_compiled_walk(source) is None
    source.write_text(installed.read_text())  # the same text: used
    assert html5._load_compiled_walk(source) is compiled_walk
    # the file the .pyx includes is part of its source: edited, or missing, the build is stale
    text.write_text(installed.with_name("_html5_text.pxi").read_text() + "# edited after the build\n")
    with pytest.warns(RuntimeWarning, match="not the source"):
        assert html5._load_compiled_walk(source) is None
    text.unlink()
    with pytest.warns(RuntimeWarning, match="not the source"):
        assert html5._load_compiled_walk(source) is None


def test_a_source_digest_covers_the_included_files_in_order(tmp_path):
    pyx, one, two = tmp_path / "m.pyx", tmp_path / "one.pxi", tmp_path / "two.pxi"
    one.write_text("cdef int a = 1\n")
    two.write_text("cdef int b = 2\n")
    pyx.write_text('x = 1\ninclude "one.pxi"\n    # include "two.pxi" (not at a line\'s start: not included)\n')
    expected = hashlib.sha256(pyx.read_bytes() + one.read_bytes()).hexdigest()
    assert source_digest(pyx) == expected
    two.write_text("changed\n")
    assert source_digest(pyx) == expected
    one.write_text("changed\n")
    assert source_digest(pyx) != expected


#: the compiled modules that read no lexbor struct (the source's hash their only check): module, loader, constant,
#: what the warning says runs instead
HASH_CHECKED = [
    ("_compiled_loops", "_load_compiled_loops", "COMPILED_LOOPS", "the pipeline's loops run in Python"),
    ("_compiled_tokens", "_load_compiled_tokens", "COMPILED_TOKENS", "the tokens are found in Python"),
]


@pytest.mark.parametrize(("module", "loader", "constant", "_fallback"), HASH_CHECKED)
def test_a_compiled_module_built_from_another_source_is_not_used(module, loader, constant, _fallback, tmp_path):
    built = _compiled(getattr(html5, constant), module.removeprefix("_compiled_"), "are")
    source, installed = tmp_path / f"{module}.pyx", html5.Path(html5.__file__).with_name(f"{module}.pyx")
    source.write_text(installed.read_text() + "# edited after the build\n")
    with pytest.warns(RuntimeWarning, match=f"not the source filters/{module} was compiled from"):
        assert getattr(html5, loader)(source) is None
    source.write_text(installed.read_text())  # the same: used
    assert getattr(html5, loader)(source) is built


@pytest.mark.parametrize(("module", "loader", "constant", "fallback"), HASH_CHECKED)
def test_without_a_compiled_module_its_python_code_is_used_and_said(
    module, loader, constant, fallback, monkeypatch, caplog
):
    # as if it could not be built
    monkeypatch.setitem(sys.modules, f"filters.{module}", None)
    monkeypatch.delattr(filters, module, raising=False)  # absent where it was never built
    with caplog.at_level(logging.WARNING, logger="filters.html5"):
        assert getattr(html5, loader)() is None
    assert f"filters/{module}.pyx is not compiled: {fallback}" in caplog.text
    expected = extract(STORY_PAGE, url="https://news.example.com/a").to_dict()
    monkeypatch.setattr(html5, constant, None)
    assert extract(STORY_PAGE, url="https://news.example.com/a").to_dict() == expected


def test_without_the_compiled_walk_the_python_walk_is_used_and_said(monkeypatch, caplog):
    # as if it could not be built
    monkeypatch.setitem(sys.modules, "filters._html5_walk", None)
    monkeypatch.delattr(filters, "_html5_walk", raising=False)  # absent where it was never built
    with caplog.at_level(logging.WARNING, logger="filters.html5"):
        assert html5._load_compiled_walk() is None
    assert "not compiled" in caplog.text
    monkeypatch.setattr(html5, "COMPILED_WALK", None)
    assert _html5_facts(*html5.segment(html5.parse(HTML5_CASES[-1]), HTML5_PROFILES[0])) == _html5_facts(
        *reference_html5_segment(html5.parse(HTML5_CASES[-1]), HTML5_PROFILES[0])
    )


def test_both_walks_agree_on_the_dataset_pages(datasets):
    # every page of wcxb and of one site and year of crawl-to-the-future per site, with both test profiles
    pages = sorted((datasets / "wcxb-dev-articles" / "html").glob("*.html.gz"))
    pages += [
        next(iter(sorted(year.glob("*.html.gz")))) for year in (datasets / "crawl-to-the-future" / "sites").glob("*/*")
    ]
    assert len(pages) > 700
    for page in pages:
        tree = html5.parse(gzip.decompress(page.read_bytes()))
        for prof in HTML5_PROFILES:
            compiled = _html5_facts(*html5.segment(tree, prof))
            assert compiled == _html5_facts(*html5.python_segment(tree, prof)), (page.name, prof.name)
            assert compiled[2][4] == subtree_ends(compiled[2][1]), (page.name, prof.name)


HTML5_CASES = CASES + [
    "<div class='Story-Body  x' id=Main role=Article><p>text</p></div><div id=only>i</div><div role=r>r</div>",
    "<ul class=''><li class=Item-1>one</li><li data-x=1>two</li></ul>",
    # class and id only (read from lexbor's element struct by the compiled walk), with another attribute before,
    # between or after them, without values, and not UTF-8
    "<div id=A class=B>1</div><div style=s class=C id=D>2</div><div class=E data-x id=F>3</div>"
    "<div class id>4</div><div class=G title=t>5</div><div id='\udcffé'>6</div>",
    # marked blocks with other attributes: read through selectolax the first time a name is met in the page, then
    # from the structs (role, style, hidden cues; a prefixed xlink:role, a role without a value)
    "<div class=a data-x=1>1</div><div class=b data-x=2 role=Main>2</div><div data-x=3 role=nav id=I>3</div>"
    "<div data-y style='display:none' class=c>4</div><div class=d data-y style='DISPLAY: None'>5</div>"
    "<div hidden data-x=6 class=hidx>6</div><div data-x aria-hidden=true id=q>7</div><div aria-hidden=true>8</div>"
    "<p role data-x>9</p><section role=region title=t>10</section><section title=u role=main class=k>11</section>"
    "<svg><a xlink:role=r role=s class=svgc>12</a></svg><div style=color:red class=hid>13</div>",
    # the title read from its struct (one text child) or through selectolax (none; an <svg> title's children)
    "<title>\n  Caf\xe9 &amp; r\xe9sum\xe9\u2003news \n</title><p>x</p>",
    "<title></title><title>second</title>",
    "<svg><title>svg <tspan>a</tspan> title</title></svg><title>page</title>",
    "<p>a <a href=' /x '>link <b>bold</b></a> and <a>no href</a><a href=y></a></p>",
    "<a href=card><div>story card</div><p>lead</p></a><a href=z>x<a href=w>nested</a></a>",
    "<!DOCTYPE html><html><head><meta name=description content='d'><style>s{}</style></head>"
    "<body><template><p>t</p></template><svg><g><text>in svg</text></g></svg><math><mi>x</mi></math>"
    "<textarea>typed</textarea><my-element class=C>custom</my-element><noscript>ns</noscript></body></html>",
    # class names lower-cased as read (ASCII) or through str.lower (the rest), by the compiled walk
    "<div class='ÄRTICLE Main-Σ'>1</div><p class=UPPER-Case_9>2</p><div class=''>3</div><div class='@[Z]`{'>4</div>",
    # more open elements than the compiled walk's first stack holds (64), links, negative and positive tags among them
    "<section>" + "<a href=/l><b><nav><span>t" * 40 + "<p>deep</p>" + "</span></nav></b></a>" * 40 + "<p>after</p>",
    "<div>" + "<em>" * 100 + "<nav>n<a href=x>link <i>i</i></a></nav>tail" + "</em>" * 100 + "</div><p>end</p>",
    # opaque elements with no child or one text child (read by the compiled walk from the struct), or more
    "<p>a<style></style><script> </script><script>x<!-- y --></script><textarea>a&amp;b</textarea><svg></svg>"
    "<object><p>o</p>t</object><canvas>c</canvas><math><mi>m</mi></math></p>",
]


@pytest.mark.parametrize("html", CASES)
def test_corner_cases_match_the_reference(html):
    assert_same(html)


@pytest.mark.parametrize("html", HTML5_CASES)
def test_html5_corner_cases_match_the_reference(html):
    assert_same_html5(html)


def test_two_thousand_deep_empty_blocks_match_and_stay_linear():
    # near the parser's depth limit (deeper pages are refused by parse_html: test_bad_input.py)
    html = "<div>" * 2_000 + "<hr>" + "</div>" * 2_000 + "end"
    assert_same(html)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(html_documents())
def test_random_html_matches_the_reference(doc):
    assert_same(doc)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(html_documents())
def test_random_html_matches_the_html5_reference(doc):
    assert_same_html5(doc)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(
        st.sampled_from(
            [
                "<div>",
                "</div>",
                "<p>",
                "</p>",
                "<br>",
                "<hr>",
                "<a href=x>",
                "</a>",
                "<b>",
                "</b>",
                "<span>",
                "<li>",
                "<script>s</script>",
                "<!--c-->",
                "<meta name=keywords content=k>",
                "text ",
                "more words ",
                " ",
                "\n",
                "<nav>",
                "</nav>",
                "<title>t",
                "</title>",
                "<head>",
                "<body>",
                "<img>",
                "<?pi x?>",
            ]
        ),
        max_size=40,
    )
)
def test_random_tag_soup_matches_the_reference(parts):
    assert_same("".join(parts))
    assert_same_html5("".join(parts))


WHITESPACE = " \t\n\r\x0b\x0c\x1c\x1f\x85\xa0\u1680\u2000\u2009\u200a\u2028\u2029\u202f\u205f\u3000"


@settings(max_examples=500, deadline=None)
@given(
    st.text(
        alphabet=st.one_of(st.sampled_from(WHITESPACE), st.sampled_from("ab\u200b\ufeff"), st.characters()), max_size=40
    )
)
def test_norm_matches_split_and_join(text):
    assert _norm(text) == " ".join(text.split())


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.text(
        alphabet=st.one_of(st.sampled_from(WHITESPACE), st.sampled_from("ab\u200b\ufeff\udcff"), st.characters()),
        max_size=40,
    )
)
def test_the_compiled_norm_matches_split_and_join(compiled_walk, text):
    # the walk's norm in C; == compares the strings' kinds too (a result must be stored as narrow as it can be)
    assert compiled_walk.norm(text) == " ".join(text.split())
    long = text * 120  # past the C buffer on the stack (2,048 bytes): one on the heap
    assert compiled_walk.norm(long) == " ".join(long.split())
    words = "plain ASCII words, copied 8 at a time " + text  # the 8-character blocks, then whatever follows
    assert compiled_walk.norm(words) == " ".join(words.split())


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(alphabet=st.one_of(st.sampled_from(WHITESPACE), st.sampled_from("ab\u0101"), st.characters())))
def test_the_compiled_stripped_length_matches_strip(compiled_walk, text):
    assert compiled_walk.stripped_length(text) == len(text.strip())


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.lists(st.text(alphabet=st.one_of(st.sampled_from(WHITESPACE), st.sampled_from("ab\u0101"), st.characters()))),
    st.integers(0, 4),
)
def test_the_compiled_norm_of_pieces_matches_join_then_norm(compiled_walk, pieces, start):
    # a text run's pieces normalised without joining them first; the result as narrow as the joined text's would be
    assert compiled_walk.norm_join(pieces, start) == " ".join("".join(pieces[start:]).split())


#: a text node's bytes as lexbor may hold them: UTF-8 of any text, white space, and bytes that are not valid UTF-8
#: (lone continuation and lead bytes, overlong forms, surrogates, past U+10FFFF, a sequence cut short)
_TEXT_BYTES = st.lists(
    st.one_of(
        st.text(alphabet=st.one_of(st.sampled_from(WHITESPACE), st.sampled_from("ab\xe9\u3042"), st.characters())).map(
            lambda s: s.encode("utf-8", "surrogatepass")
        ),
        st.sampled_from(
            [b"\x80", b"\xc0\xaf", b"\xe0\x80\x80", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xe2\x80", b"\xff"]
        ),
    ),
    max_size=6,
).map(b"".join)


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(_TEXT_BYTES, max_size=6), st.integers(0, 3))
def test_a_run_normalised_from_its_utf8_matches_decoding_its_pieces_first(compiled_walk, pieces, start):
    # each piece decoded as the walk did ("replace"), joined, normalised; past the stack buffer and through the
    # 8-byte ASCII blocks too
    def expected(pieces):
        return " ".join("".join(p.decode("utf-8", "replace") for p in pieces[start:]).split())

    for run in (pieces, [b"plain ASCII words, copied 8 at a time "] + pieces, pieces * 150):
        assert compiled_walk.norm_utf8(run, start) == expected(run)


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(_TEXT_BYTES)
def test_the_stripped_length_of_utf8_matches_decode_then_strip(compiled_walk, data):
    # -1: not valid UTF-8 (the walk then decodes the text node with "replace", as before)
    try:
        expected = len(data.decode("utf-8").strip())
    except UnicodeDecodeError:
        expected = -1
    assert compiled_walk.utf8_stripped(data) == expected


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(alphabet=st.one_of(st.sampled_from("ab<>\u00e9\u00ff\u3042\U0001f600\ud800\udcff"), st.characters())))
def test_the_compiled_utf8_matches_encode(compiled_loops, text):
    # 32, else 8 characters at a time while they are ASCII: texts longer than a block, mixed, of every string kind
    for t in (text, text * 9, "<p>markup</p>" + text, "x" * 37 + text + "y" * 70, text + "<" * 33 + text * 5):
        try:
            expected = t.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate: None, and the caller encodes with "replace"
            expected = None
        assert compiled_loops.utf8(t) == expected


def test_the_compiled_utf8_finds_a_character_at_every_place_of_a_block(compiled_loops):
    # one non-ASCII character (of each string kind, and a lone surrogate) at each place of the 32-character blocks
    for odd in ("\u00e9", "\u3042", "\U0001f600", "\ud800"):
        for at in range(70):
            text = "a" * at + odd + "b" * (70 - at)
            assert compiled_loops.utf8(text) == (None if odd == "\ud800" else text.encode("utf-8"))


def test_the_compiled_walk_builds_phrases_in_c(compiled_walk):
    # the phrases are Phrase objects, equal to those Phrase() builds, and hold their fields' references properly
    assert compiled_walk.PHRASE_IN_C
    text = "".join(["a phrase built in C"])  # an object of its own, to count its references
    refs = sys.getrefcount(text)
    made = [compiled_walk.phrase(text, "/html/body/p", None, "p", 0.25, 3) for _ in range(100)]
    assert sys.getrefcount(text) == refs + 100
    assert all(type(ph) is Phrase for ph in made)
    assert made[0] == Phrase(text, "/html/body/p", None, "p", 0.25, None, None, 3)
    assert made[0].note is None and made[0].is_core and made[0].reason() == "core"
    del made
    assert sys.getrefcount(text) == refs


@settings(max_examples=300, deadline=None)
@given(
    st.text(
        alphabet=st.one_of(st.characters(max_codepoint=0x20), st.characters(max_codepoint=0xFF), st.characters()),
        max_size=60,
    )
)
def test_control_count_matches_the_regex(text):
    # compiled (counted in the string, up to its bound) and in Python (in the UTF-8 of its head); a text past 255
    # characters, where the compiled count's byte-wide sums are carried over
    for text, bound in ((text, len(text)), (text, 7), (text * 40, 8192), (text * 40, 1000), (text, 0)):
        expected = len(re.findall(r"[\x00-\x08\x0b\x0e-\x1f]", text[:bound]))
        assert _count_controls(text, bound) == expected
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(html5, "COMPILED_LOOPS", None)
            assert _count_controls(text, bound) == expected


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.binary(max_size=60)
    | st.lists(st.sampled_from([b"<", b">", b"<a", b"<Z", b"<@", b"<[", b" ", b"x", b"\0"])).map(b"".join)
)
def test_the_compiled_tag_scan_matches_the_count_and_the_regex(compiled_loops, data):
    # the input checks' one pass (filters.pipeline.tag_scan) in C against what it replaces, with short long tags
    for min_length in (0, 1, 3):
        long_tag = re.compile(rb"<[A-Za-z][^>]{%d,}" % min_length)
        expected = (data.count(b"<"), [match.span() for match in long_tag.finditer(data)])
        assert compiled_loops.tag_scan(data, min_length) == expected


def test_an_attribute_bomb_is_refused_by_either_scan(monkeypatch):
    bomb = "<html><body><p " + " ".join(f"a{i}=1" for i in range(MAX_ATTRIBUTES + 1)) + ">text</p></body></html>"
    long_ok = "<html><body><img alt='" + "x" * 10_000 + "' src=a>text</body></html>"
    for loops in (html5.COMPILED_LOOPS, None):  # the C scan where it is built (checked above), the count and regex
        monkeypatch.setattr(html5, "COMPILED_LOOPS", loops)
        with pytest.raises(filters.ExtractionError) as refused:
            filters.read_page(bomb)
        assert refused.value.reason == "too_many_attributes" and "at byte 12" in str(refused.value)
        assert filters.read_page(long_ok).data.count(b"<") == 5


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.lists(
        st.tuples(st.floats(-1e3, 1e3), st.integers(0, 500), st.floats(0, 500), st.integers(0, 10**6)), max_size=30
    )
)
def test_the_compiled_best_subtree_matches_the_python_one(compiled_loops, rows):
    from filters import content

    def run():
        # a block tree (each block's parent before it), its scores and characters: the best block and the sums
        parents = [-1 if i == 0 else seed % i for i, (*_, seed) in enumerate(rows)]
        m = content._Measures(
            [], [], [], [], [float(c) for _, c, _, _ in rows], [lc for _, _, lc, _ in rows], [], [], []
        )
        best, sums = content._best_subtree([s for s, *_ in rows], m, parents, True)
        return best, sums, m.chars, m.link_chars

    compiled = run()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(html5, "COMPILED_LOOPS", None)
        assert run() == compiled


_CUE_TEXT = st.text(alphabet=st.sampled_from(list("abcdeoprsty (|:’é\u0130\u212a")), max_size=40) | st.text(max_size=40)


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(_CUE_TEXT, st.lists(st.text(alphabet="abrc (|", min_size=1, max_size=4), min_size=1, max_size=5))
def test_the_compiled_cue_scan_matches_in(compiled_loops, low, cues):
    # the site's lines' cues (filters.prompts.cue_hits) found in one pass in C against a search per cue, on the
    # real cues and on short overlapping ones (a cue inside another, the same cue in two groups)
    from filters import prompts

    made = tuple((str(i), tuple(cues[i:]), None) for i in range(len(cues)))
    for groups in (prompts._PROMPTS_AND_LINES, made):
        scan = compiled_loops.CueScan(groups)
        for n_groups in range(len(groups) + 1):
            assert scan.hits(low, n_groups) == prompts.cue_hits(low, groups[:n_groups])
    assert prompts._CUE_SCAN is not None  # in use where the loops are built


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.lists(st.integers(0, 1000), min_size=1, max_size=12),
    st.lists(
        st.tuples(
            st.text(alphabet="ab .!?", min_size=1, max_size=60),
            st.integers(-1, 11),
            st.sampled_from([None, "script"]),
            st.sampled_from([None, 0.0, 0.1, 0.25, 0.3, 1 / 3, 0.9, 1.0]),
        ),
        max_size=20,
    ),
)
def test_the_compiled_measure_matches_the_python_one(compiled_loops, seeds, rows):
    # what the phrases say of each block (filters.content._measure): the same sums, the same types, in C and in Python
    import dataclasses

    from filters import content

    n = len(seeds)
    blocks = html5.Blocks(
        tags=[("p", "li", "div")[s % 3] for s in seeds], parents=[-1 if i == 0 else s % i for i, s in enumerate(seeds)]
    )
    phrases = [Phrase(t, "p", neg, None, ld, node=min(i, n - 1)) for t, i, neg, ld in rows]
    anchors = {0: ["ab"], 1: ["a"]}

    def run():
        out = dataclasses.astuple(content._measure(phrases, blocks, anchors))
        return out, [[type(v) for v in values] for values in out]

    compiled = run()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(html5, "COMPILED_LOOPS", None)
        assert run() == compiled
