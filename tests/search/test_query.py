"""The search syntax, parsed once and written for PostgreSQL (websearch) and SQLite FTS5 (no database)."""

import pytest

from search.query import MAX_QUERY_CHARS, QuerySyntaxError, Term, parse, to_fts5, to_websearch


def test_words_phrases_or_and_negation():
    parsed = parse('measles "public health" vaccine or vaccination -rumour -"fake news"')
    assert parsed.clauses == (
        (Term(("measles",)),),
        (Term(("public", "health")),),
        (Term(("vaccine",)), Term(("vaccination",))),
        (Term(("rumour",), negated=True),),
        (Term(("fake", "news"), negated=True),),
    )
    assert to_websearch(parsed) == 'measles "public health" vaccine or vaccination -rumour -"fake news"'
    assert to_fts5(parsed) == (
        '(("measles") AND ("public health") AND ("vaccine" OR "vaccination")) NOT ("rumour" OR "fake news")'
    )


def test_hyphenated_word_is_a_phrase_not_a_negation():
    assert parse("covid-19").clauses == ((Term(("covid", "19")),),)


@pytest.mark.parametrize(
    "query",
    ['"', 'a"b', "*", "a*", "c:d", "(x", "x)", "NEAR(a b)", "a AND", "^start", "{col}: x", "x OR", "or", "'", "a + b"],
)
def test_stray_syntax_is_quoted_or_refused_never_passed_through(query):
    try:
        expression = to_fts5(parse(query))
    except QuerySyntaxError:
        return
    # every token is inside double quotes; outside them only FTS5 operators and parentheses we wrote
    outside = expression.split('"')[::2]
    assert all(set(part) <= set("() ANDORT") for part in outside), expression


@pytest.mark.parametrize("query", ["", "   ", "-measles", '-"fake news"', "!!! ???", "or"])
def test_unsearchable_queries_raise_with_a_message(query):
    with pytest.raises(QuerySyntaxError) as error:
        parse(query)
    assert str(error.value)


def test_too_long():
    with pytest.raises(QuerySyntaxError, match="500"):
        parse("a" * (MAX_QUERY_CHARS + 1))


def test_or_next_to_a_negation_is_an_and_on_both_databases():
    parsed = parse("flu or -bird")
    assert to_websearch(parsed) == "flu -bird"
    assert to_fts5(parsed) == '(("flu")) NOT ("bird")'


@pytest.mark.parametrize(("query", "said"), [("or", '"or" alone'), ("OR or", '"or" alone'), ("!!! ???", "punctuation")])
def test_a_query_of_nothing_to_search_says_what_it_was(query, said):
    # a live trial typed "or" and read "(punctuation alone finds nothing)"
    with pytest.raises(QuerySyntaxError) as error:
        parse(query)
    assert said in str(error.value)
