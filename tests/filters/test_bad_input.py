"""Bad input: empty, binary, not HTML, truncated, deep, huge, NUL bytes, wrong charsets."""

import time

import pytest

from filters import ExtractionError, extract
from filters.charset import decode_html


@pytest.mark.parametrize("empty", ["", b"", "   \n\t", b"\n\n"])
def test_empty_input_gives_empty_extraction(empty):
    e = extract(empty)
    assert e.phrases == [] and e.text == "" and e.tokens == [] and e.counts["total"] == 0


@pytest.mark.parametrize(
    ("data", "what"),
    [
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(200), "PNG"),
        (b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj", "PDF"),
        (b"\x1f\x8b\x08\x00" + bytes(100), "gzip"),
        (bytes(range(256)) * 40, "binary"),
    ],
)
def test_binary_input_raises_clear_error(data, what):
    with pytest.raises(ExtractionError, match=what):
        extract(data)


def test_non_html_text_and_wrong_type():
    with pytest.raises(ExtractionError, match="no tags"):
        extract("just a plain sentence without any markup at all")
    with pytest.raises(ExtractionError, match="no tags"):
        extract(b'{"json": "document", "value": 3}')
    with pytest.raises(ExtractionError, match="str or bytes"):
        extract(12345)


def test_truncated_html():
    page = "<html><body><div><p>This paragraph is long enough to be core content for sure. <b>and then"
    e = extract(page, profile="thesis")
    assert "This paragraph is long enough to be core content for sure." in e.text
    for cut in range(0, len(page), 7):
        extract(page[:cut] or "<p>")


def test_nul_bytes_are_dropped():
    e = extract(b"<html><body><p>Null\x00 bytes inside a paragraph of real text.</p></body></html>", profile="thesis")
    assert "Null bytes inside a paragraph of real text." in e.text


def test_lone_surrogates_in_str_input_are_dropped_by_the_html5_parser():
    # lexbor reads the page's UTF-8 bytes when they are exactly the text's; a str with a lone surrogate has
    # replaced bytes ("?"), so its text is parsed as before, and lexbor drops the surrogate
    text = "<html><body><p>Alpha \udc80beta gamma delta epsilon zeta eta theta iota kappa</p></body></html>"
    ex = extract(text, profile="default")
    assert ex.text == "Alpha beta gamma delta epsilon zeta eta theta iota kappa"
    assert extract(text.encode("utf-8", "surrogatepass"), profile="default").text.startswith("Alpha ")


def test_fifty_megabyte_page():
    # Shaped like real giant pages: mostly inline data (scripts, styles, a data
    # URI) around some megabytes of article text.
    # each paragraph numbered: one paragraph kept 20,000 times would be a copy (filters.content)
    text = "<p>" + "word " * 30 + "%d</p><div><a href='/x'>link</a></div>\n"
    script = "<script>var data = '" + "x" * 1_000_000 + "';</script>\n"
    page = (
        "<html><head><style>"
        + ".c{color:red}" * 500_000
        + "</style></head><body>"
        + script * 30
        + "<img src='data:image/png;base64,"
        + "A" * 10_000_000
        + "'>"
        + "".join(text % i for i in range(3_000_000 // len(text)))
        + "</body></html>"
    )
    assert len(page) >= 47_000_000
    t0 = time.perf_counter()
    e = extract(page.encode())
    elapsed = time.perf_counter() - t0
    assert e.counts["core"] > 10_000
    assert sum(1 for p in e.phrases if p.neg == "script") == 30
    assert elapsed < 60  # generous: a sanity bound against hangs, not a speed target


def test_charset_sources_in_order():
    text = (
        "<html><head><meta charset='windows-1251'></head><body>"
        "<p>Привет мир, это длинный абзац текста.</p></body></html>"
    )
    data = text.encode("cp1251")
    assert "Привет мир" in extract(data, profile="thesis").text  # from <meta charset>
    # an HTTP header wins over <meta>
    latin = "<p>Café crème et œufs brouillés pour le petit déjeuner.</p>".encode("cp1252")
    assert decode_html(latin, content_type="text/html; charset=ISO-8859-1")[1] == "cp1252"
    assert "Café crème" in extract(latin, content_type="text/html; charset=ISO-8859-1", profile="thesis").text
    # BOM beats everything, including a wrong header
    bom = "\ufeff<p>Ünïcödé text with a byte order mark in front.</p>".encode("utf-16")
    assert "Ünïcödé" in extract(bom, content_type="text/html; charset=ascii", profile="thesis").text


def test_wrong_or_missing_charset_never_crashes():
    latin = "<p>Café crème et œufs brouillés pour le petit déjeuner.</p>".encode("cp1252")
    # declared UTF-8 but is not: falls back to detection instead of failing
    text, codec = decode_html(latin, content_type="text/html; charset=utf-8")
    assert "Caf" in text and codec != "utf-8"
    # an unknown charset label is ignored
    assert "Caf" in extract(latin, charset="x-no-such-charset").text
    # missing charset: detection
    assert "Caf" in extract(latin).text
    # explicit charset argument
    assert "Café" in extract(latin, charset="latin-1", profile="thesis").text
    # a codec that is not a text encoding (it raised LookupError) is ignored like an unknown label
    utf8 = "<p>Café crème et œufs brouillés pour le petit déjeuner.</p>".encode()
    for label in ("base64", "rot13", "zlib"):
        assert "Café" in extract(utf8, content_type=f"text/html; charset={label}").text, label


def test_an_attribute_bomb_is_refused_before_the_parser_sees_it():
    """200,000 attributes on one element cost libxml2 minutes (quadratic); the check costs a regex scan."""
    attrs = b" ".join(b"a%d=1" % i for i in range(200_000))
    bomb = b"<html><body><div " + attrs + b"><p>" + b"Text of the article. " * 40 + b"</p></div></body></html>"
    with pytest.raises(ExtractionError, match="more than 2,000 attributes"):
        extract(bomb)


def test_long_tags_that_are_not_bombs_are_read():
    """Long quoted values (a data: URI, a long alt text) and a few hundred attributes are a page, not a bomb."""
    text = "<p>" + "A sentence of the article that is long enough to keep. " * 5 + "</p>"
    data_uri = "<img src='data:image/png;base64," + "QUJD" * 20_000 + "'>"
    alt = '<img alt="' + "many words of a caption " * 3000 + '">'
    many = "<div " + " ".join(f"data-x{i}='v {i}'" for i in range(600)) + ">" + text + "</div>"
    for html in (data_uri + text, alt + text, many):
        assert "long enough to keep" in extract(f"<html><body>{html}</body></html>", profile="thesis").text


def test_a_tag_bomb_nested_past_the_parsers_limit_is_refused_not_emptied():
    """libxml2 keeps 2,048 levels and silently drops what lies deeper: the article's text, here."""
    deep = b"<html><body>" + b"<div>" * 5000 + b"<p>" + b"Text of the article. " * 40 + b"</p></body></html>"
    with pytest.raises(ExtractionError, match="nested more than 2,048 deep"):
        extract(deep, profile="thesis")
    shallow = b"<html><body>" + b"<div>" * 1500 + b"<p>" + b"Text of the article. " * 40 + b"</p></body></html>"
    assert "Text of the article." in extract(shallow, profile="thesis").text
    # the same limit for every profile (filters.limits): the HTML5 parser would keep every level, but what is
    # refused once is refused everywhere (site learning's block paths grew with the depth)
    with pytest.raises(ExtractionError, match="nested more than 2,048 deep"):
        extract(deep)
    assert "Text of the article." in extract(shallow).text


def test_a_tag_bomb_is_refused_before_the_html5_parser():
    """lexbor's time grows with the square of the depth (100,000 nested <div>: 19 s): such a page is refused."""
    bomb = b"<html><body>" + b"<div>" * 100_000 + b"<p>" + b"Text of the article. " * 40 + b"</p></body></html>"
    with pytest.raises(ExtractionError, match="nested more than 2,048 deep"):
        extract(bomb)


@pytest.mark.parametrize("attribute", ["class=' '", "id='\t'", "class=' ' id=' \n'"])
def test_a_block_whose_class_or_id_is_only_white_space_is_read(attribute):
    """A class or id of white space only is no name (it crashed the sibling-sections rule: IndexError)."""
    p = "<p>" + "This is a sentence of the article that is long enough to count as text. " * 4 + "</p>"
    page = (
        f"<html><body><div class='nav'><a href=/a>Home</a></div><div><div {attribute}>{p * 5}</div></div>"
        "<div class='foot'>Copyright</div></body></html>"
    )
    assert "long enough to count as text" in extract(page).text


def test_a_closed_tag_bomb_is_refused_before_the_html5_parser():
    """100,000 nested <div> closed again cost lexbor 26 s as well as unclosed ones; both are refused."""
    bomb = (
        b"<html><body>" + b"<div>" * 100_000 + b"<p>Text of the article.</p>" + b"</div>" * 100_000 + b"</body></html>"
    )
    with pytest.raises(ExtractionError, match="nested more than 2,048 deep"):
        extract(bomb)


@pytest.mark.parametrize("profile", ["default", "thesis"])
def test_a_page_that_runs_past_the_memory_cap_is_a_memory_error_not_a_parse_error(profile):
    """Under a worker's data cap (wims/worker.py) a parser's failed allocation is MemoryError, which fails the task
    with "memory limit"; libxml2 reported it as 'HTML could not be parsed: unknown error' (a soak's memory bomb)."""
    import subprocess
    import sys

    script = (
        "import resource\n"
        "from filters import extract\n"
        'page = b"<html><body>" + b"<p><a href=/x>x</a> yy</p>" * 249000 + b"</body></html>"\n'
        "resource.setrlimit(resource.RLIMIT_DATA, (150 << 20, resource.RLIM_INFINITY))\n"
        "try:\n"
        f"    extract(page, profile={profile!r})\n"
        "except MemoryError:\n"
        '    print("MemoryError")\n'
        "except Exception as exc:\n"
        "    print(type(exc).__name__, exc)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.stdout.strip() == "MemoryError", done.stdout + done.stderr


def test_every_refusal_says_why_in_one_word_of_a_fixed_set():
    """The reason is a metric's label (wims_extraction_refusals_total): a fixed set, whichever parser refused."""
    from filters.limits import MAX_BYTES, REASONS

    text = b"<p>" + b"Text of the article. " * 40 + b"</p>"
    pages = {
        "too_large": b"<html>" + b" " * (MAX_BYTES + 1),
        "too_many_tags": b"<b>" * 1_000_001,
        "too_many_attributes": b"<div " + b" ".join(b"a%d=1" % i for i in range(2500)) + b">" + text,
        "too_deep": b"<html><body>" + b"<div>" * 5000 + text,
        "not_html": b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj",
    }
    for reason, page in pages.items():
        for profile in ("default", "thesis"):
            with pytest.raises(ExtractionError) as refused:
                extract(page, profile=profile)
            assert refused.value.reason == reason, (reason, profile, str(refused.value))
    assert set(pages) | {"unparsable"} == set(REASONS)
    with pytest.raises(ExtractionError) as refused:
        extract("plain words")
    assert refused.value.reason == "not_html"
