"""The compiled tokens (filters/_compiled_tokens.pyx) against the Python tokenize it falls back to, and both
against the Unicode pattern alone (``_TOKEN_RE`` over the lower-cased text); the module loaded only when it is built
from the source on disk."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from filters import html5
from filters.pipeline import _TOKEN_RE, tokenize
from filters.stopwords import ENGLISH

from .test_fast_paths import _compiled


@pytest.fixture
def compiled_tokens():
    """The compiled tokens (filters/_compiled_tokens.pyx)."""
    return _compiled(html5.COMPILED_TOKENS, "tokens", "are")


def test_the_pipeline_uses_the_compiled_tokens(compiled_tokens, monkeypatch):
    calls = []
    real = compiled_tokens.tokenize

    class Spy:
        @staticmethod
        def tokenize(*args):
            calls.append(args[0])
            return real(*args)

    monkeypatch.setattr(html5, "COMPILED_TOKENS", Spy)
    assert tokenize("Three WORDS", ENGLISH) == ["three", "words"] and calls == ["Three WORDS"]


def reference_tokenize(text, stop_words):
    return [t for t in _TOKEN_RE.findall(text.lower()) if t not in stop_words]


TOKEN_CASES = [
    "Don’t panic — the café’s office\xa0opens at 9:00",
    "ŁÓDŹ and Zürich",
    "plain ascii words, and_more x2y",
    "KELVIN \u212a and İstanbul",
    "x² ½ ①②",
    "",
    "a b c",
    "naïve résumé",
    "ΑΒΓ δέκα",
    "lone \ud800surrogate ok",
    "tab\tand\x00nul ~ x_y",
]


def python_tokenize(text, stop_words):
    """tokenize without the compiled tokens (its one pass in C): the Python version's paths."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(html5, "COMPILED_TOKENS", None)
        return tokenize(text, stop_words)


@pytest.mark.parametrize("text", TOKEN_CASES)
def test_tokenize_matches_the_unicode_reference(text):
    for stop in (ENGLISH, frozenset()):
        assert tokenize(text, stop) == reference_tokenize(text, stop)
        assert python_tokenize(text, stop) == reference_tokenize(text, stop)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.one_of(st.characters(), st.sampled_from("abcXYZ ’—\xa0é\u212a²")), max_size=80))
def test_tokenize_matches_on_random_text(text):
    assert tokenize(text, ENGLISH) == reference_tokenize(text, ENGLISH)
    assert python_tokenize(text, ENGLISH) == reference_tokenize(text, ENGLISH)


LOWER_CASE_TRAPS = "abcXYZ ÀÉÞ×ßÿµ\xa0’—ΣσΑİẞǅ"  # Latin-1 upper case; final sigma, İ's two characters, a title case


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.one_of(st.characters(max_codepoint=255), st.sampled_from(LOWER_CASE_TRAPS)), max_size=80))
def test_tokenize_matches_on_text_lower_cased_as_read(text):
    # the compiled tokens lower-case the text as they read it (a table below 256), str.lower() where it cannot be
    assert tokenize(text, ENGLISH) == reference_tokenize(text, ENGLISH)
    assert python_tokenize(text, ENGLISH) == reference_tokenize(text, ENGLISH)


_STOP_SAMPLE = sorted(ENGLISH)[:40] + ["x", "Zz", "émigré", "a" * 30]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.one_of(st.sampled_from(_STOP_SAMPLE), st.text(alphabet="abcABC’é", max_size=8)).map(
            lambda w: w.upper() if len(w) % 3 == 0 else w
        ),
        max_size=30,
    ).map(" ".join),
    st.frozensets(st.one_of(st.sampled_from(_STOP_SAMPLE), st.text(alphabet="abcé", max_size=6)), max_size=30),
)
def test_tokenize_drops_the_same_words_in_c(text, stop):
    # the compiled tokens look a word up in a table of the stop words' bytes before making it a string
    # (_compiled_tokens.DropTable): the same words dropped as the set drops, for any set of words
    assert tokenize(text, stop) == python_tokenize(text, stop) == reference_tokenize(text, stop)
    assert tokenize(text, ENGLISH) == python_tokenize(text, ENGLISH)


def _letters(n):
    """A word of two letters or more, one for each n (n + 26 written in base 26 with the letters a-z)."""
    word, n = "", n + 26
    while n:
        n, r = divmod(n, 26)
        word = "abcdefghijklmnopqrstuvwxyz"[r] + word
    return word


def test_the_compiled_tokens_reuse_the_string_of_a_word_met_before_in_the_text(compiled_tokens):
    # the WordTable keeps the string made of each word while the text is read: its next occurrences are it
    text = "Mango and MANGO, a mango’s worth; mangoes"
    words = tokenize(text, ENGLISH)
    assert words == ["mango", "mango", "mango", "worth", "mangoes"] == python_tokenize(text, ENGLISH)
    assert words[0] is words[1] is words[2]  # a run between characters outside ASCII too
    assert tokenize("mango", ENGLISH)[0] is not words[0]  # forgotten after the text: the table holds the stop words
    assert tokenize("the mango", ENGLISH) == ["mango"]


def test_the_compiled_tokens_are_the_same_past_the_word_tables_room(compiled_tokens):
    # a text enters words while the table is at most half full, the next are made each time: many distinct words
    words = [_letters(n) for n in range(5_000)]
    text = " ".join(w.upper() if n % 7 == 0 else w for n, w in enumerate(words * 2))
    for _ in range(2):
        assert tokenize(text, ENGLISH) == python_tokenize(text, ENGLISH) == reference_tokenize(text, ENGLISH)
    made = tokenize(text, ENGLISH)
    assert made[0] is made[len(made) // 2]  # the first words were entered, the last were not
    assert made[len(made) // 2 - 1] is not made[-1] and made[len(made) // 2 - 1] == made[-1]
    # a set of dropped words larger than a table's usual slots: a larger table
    many = frozenset(words[::2])
    assert tokenize(text, many) == python_tokenize(text, many) == reference_tokenize(text, many)


def test_the_compiled_tokens_look_up_a_set_that_can_change(compiled_tokens):
    # no table for a set (it can change between calls): each word made and looked up in it
    text = "Mango and MANGO, a mango’s worth, " + "x" * 30
    drop = set(ENGLISH) | set("abcdefghijklmnopqrstuvwxyz")
    words = compiled_tokens.tokenize(text, drop, ENGLISH, _TOKEN_RE.findall)
    assert words == reference_tokenize(text, ENGLISH) == ["mango", "mango", "mango", "worth", "x" * 30]
    drop.add("worth")
    assert compiled_tokens.tokenize(text, drop, ENGLISH, _TOKEN_RE.findall) == ["mango", "mango", "mango", "x" * 30]


def test_a_call_while_another_reads_with_the_table_looks_words_up_in_the_set(compiled_tokens):
    # findall is Python code: another call (a thread's) can start in it, and finds the table in use
    drop = frozenset(ENGLISH) | frozenset("abcdefghijklmnopqrstuvwxyz")
    inner = []

    def findall(piece):
        inner.append(compiled_tokens.tokenize("Mango and mango", drop, ENGLISH, _TOKEN_RE.findall))
        return _TOKEN_RE.findall(piece)

    outer = compiled_tokens.tokenize("mango café mango", drop, ENGLISH, findall)
    assert outer == ["mango", "café", "mango"] and outer[0] is outer[2]
    assert inner == [["mango", "mango"]] and inner[0][0] is not inner[0][1]  # made each time, looked up in the set
    again = compiled_tokens.tokenize("mango mango", drop, ENGLISH, findall)
    assert again == ["mango", "mango"] and again[0] is again[1]  # the table free again
