"""The search box's syntax, read once in Python and written out for each database.

The syntax is PostgreSQL's ``websearch_to_tsquery``: words (all must occur), ``"a phrase"``, ``a or b``,
``-word`` and ``-"a phrase"`` (must not occur). It is parsed here into clauses (AND of OR-groups) so that
both databases get the same query: PostgreSQL the normalised websearch text (:func:`to_websearch`),
SQLite FTS5 an expression in which every term is quoted (:func:`to_fts5`), so that a user's ``"``, ``*``,
``:``, ``(``, ``^`` or ``NEAR`` can never be read as FTS5 syntax.

Pure Python: no Django import.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MAX_QUERY_CHARS = 500  # SavedSearch.query's length
MAX_TERMS = 32  # words and phrases; bounds the cost of one query

# What FTS5's unicode61 tokenizer keeps as a token: letters and digits (underscore and all else separate).
_TOKEN = re.compile(r"[^\W_]+")
# A phrase in quotes (an unclosed quote runs to the end), or a run of non-space characters.
_PIECE = re.compile(r'(-?)"([^"]*)"?|(\S+)')


class QuerySyntaxError(ValueError):
    """A query that cannot be searched; ``str(error)`` is a message for the user."""


@dataclass(frozen=True)
class Term:
    """A word (one token) or a phrase (several, in order); ``negated``: must not occur."""

    words: tuple[str, ...]
    negated: bool = False


@dataclass(frozen=True)
class ParsedQuery:
    """All clauses must match; a clause matches when any of its terms does (a negated term is alone)."""

    clauses: tuple[tuple[Term, ...], ...]

    @property
    def positive(self) -> list[Term]:
        return [t for clause in self.clauses for t in clause if not t.negated]


def _tokens(text: str) -> tuple[str, ...]:
    return tuple(t.casefold() for t in _TOKEN.findall(text))


def parse(query: str) -> ParsedQuery:
    """The query's clauses; QuerySyntaxError for an empty query, one of only ``-words``, or a too long one."""
    query = (query or "").strip()
    if not query:
        raise QuerySyntaxError("Type a word or a phrase to search for.")
    if len(query) > MAX_QUERY_CHARS:
        raise QuerySyntaxError(f"A search can be {MAX_QUERY_CHARS} characters long at most.")
    clauses: list[list[Term]] = []
    pending_or = False
    for match in _PIECE.finditer(query):
        minus, phrase, bare = match.groups()
        if bare is not None:
            if bare.casefold() == "or":
                pending_or = bool(clauses)
                continue
            # "-word" is a negation; a "-" elsewhere ("covid-19") joins the parts into a phrase
            negated = bare.startswith("-") and len(bare) > 1
            words = _tokens(bare)
        else:
            negated, words = bool(minus), _tokens(phrase)
        if not words:  # punctuation only: nothing to search for (websearch_to_tsquery ignores it too)
            continue
        term = Term(words, negated)
        # "a or -b" cannot be said in FTS5; it is read as "a -b" on both databases
        if pending_or and clauses and not negated and not any(t.negated for t in clauses[-1]):
            clauses[-1].append(term)
        else:
            clauses.append([term])
        pending_or = False
    parsed = ParsedQuery(tuple(tuple(c) for c in clauses))
    if sum(len(c) for c in parsed.clauses) > MAX_TERMS:
        raise QuerySyntaxError(f"A search can have {MAX_TERMS} words or phrases at most.")
    if not parsed.clauses:
        # "or" joins two words: alone, like punctuation, it leaves nothing to search for
        said_or = any((m.group(3) or "").casefold() == "or" for m in _PIECE.finditer(query))
        alone = '"or" alone' if said_or else "punctuation alone"
        raise QuerySyntaxError(f"Type a word or a phrase to search for ({alone} finds nothing).")
    if not parsed.positive:
        raise QuerySyntaxError('Name at least one word that must occur: "-word" only excludes articles.')
    return parsed


def _websearch_term(term: Term) -> str:
    text = term.words[0] if len(term.words) == 1 else '"' + " ".join(term.words) + '"'
    return "-" + text if term.negated else text


def to_websearch(parsed: ParsedQuery) -> str:
    """The query as PostgreSQL's websearch_to_tsquery reads it, built from the parsed terms only."""
    return " ".join(" or ".join(_websearch_term(t) for t in clause) for clause in parsed.clauses)


def _fts5_term(term: Term) -> str:
    # tokens are letters and digits only, so a quoted string needs no escaping; quoted, "NEAR", "AND" or
    # "OR" are words like any other
    return '"' + " ".join(term.words) + '"'


def to_fts5(parsed: ParsedQuery) -> str:
    """An FTS5 MATCH expression: (positive clauses AND-ed, each an OR of quoted terms) NOT (negated terms)."""
    positive = []
    negated = []
    for clause in parsed.clauses:
        if clause[0].negated:
            negated.append(_fts5_term(clause[0]))
        else:
            positive.append("(" + " OR ".join(_fts5_term(t) for t in clause) + ")")
    expression = " AND ".join(positive)
    if negated:
        expression = f"({expression}) NOT ({' OR '.join(negated)})"
    return expression
