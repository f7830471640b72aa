"""A fetched article's extraction helpers (processing/extraction.py)."""

from processing.extraction import content_hash, page_charset


def test_content_hash_is_blind_to_whitespace_and_case_and_empty_for_no_text():
    assert content_hash("  A  b\n") == content_hash("a B") != content_hash("")
    assert content_hash("") == "" and content_hash(" \n ") == ""


def test_page_charset_prefers_valid_utf8():
    assert page_charset("café".encode(), "windows-1252") == "utf-8"
    assert page_charset("café".encode("cp1252"), "windows-1252") == "windows-1252"
    assert page_charset(b"plain ascii", None) == ""
