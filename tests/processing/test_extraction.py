"""A fetched article's extraction helpers (processing/extraction.py)."""

from processing.extraction import content_hash


def test_content_hash_is_blind_to_whitespace_and_case_and_empty_for_no_text():
    assert content_hash("  A  b\n") == content_hash("a B") != content_hash("")
    assert content_hash("") == "" and content_hash(" \n ") == ""
