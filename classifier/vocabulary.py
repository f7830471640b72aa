"""The workspace's status words, defined once: an article's review state and a folder's state on an article, as
every page says them (inbox, article, rule and folder pages, search results, dashboards).

Templates read them through classifier/templatetags/workspace.py (``{{ state|article_state }}``,
``{{ row.state|folder_state }}``, and ``…_meaning`` for a tooltip); the filter forms' choices come from
classifier.filtering.STATES, built from ARTICLE_STATES. A new state adds one entry here.
"""

from __future__ import annotations

from dataclasses import dataclass

from classifier.models import Classification, ReviewState

#: WebMon could not fetch or read the article: no case to review (monitor.Article.state, not a review state)
FAILED = "failed"
#: a re-publication of another article (monitor.Article.state): no case of its own, the original is classified
DUPLICATE = "duplicate"
#: a folder's state on an article when it was rejected and the rule correcting it is still to be made
CORRECTION_PENDING = "correction"


@dataclass(frozen=True)
class Word:
    word: str  # the badge's word, lower case (capitalised: a filter's choice, a chart's label)
    meaning: str  # one line for a tooltip


#: an article's review state (monitor.Article.review_state, or failed)
ARTICLE_STATES: dict[str, Word] = {
    ReviewState.UNREVIEWED: Word("unreviewed", "no folder yet, and nobody decided"),
    ReviewState.SUGGESTED: Word("suggested", "a rule suggests a folder nobody decided on yet"),
    ReviewState.CORRECTION: Word(
        "rejected, rule pending", "an expert rejected a folder; the rule that corrects it is not made yet"
    ),
    ReviewState.REVIEWED: Word("reviewed", "an expert decided on every folder, or that it belongs in no folder"),
    FAILED: Word("failed", "not fetched or not readable"),
    DUPLICATE: Word("duplicate", "a re-publication of another article: that one is classified, this one has no case"),
}

#: a folder's state on an article (Classification.state)
FOLDER_STATES: dict[str, Word] = {
    Classification.State.SUGGESTED: Word("suggested", "a rule suggests this folder; nobody decided yet"),
    Classification.State.ACCEPTED: Word("accepted", "an expert accepted this folder"),
    Classification.State.REJECTED: Word("rejected", "an expert rejected this folder: the article is not in it"),
    # a rejected folder whose correcting rule is not made yet (a pending classifier.models.Correction)
    CORRECTION_PENDING: Word(
        "rejected, rule pending", "an expert rejected this folder; the rule that corrects it is not made yet"
    ),
}

#: an article's work (processing) state as the API's ``processing_state`` and /metrics' ``wims_articles{state=}``
#: name it: monitor.Article.State's stored value, but ``pending`` (a retired review-state word since issue 30,
#: and a correction's and a delivery's state) reads ``queued``
WORK_STATES: dict[str, str] = {"pending": "queued"}


def work_state(state) -> str:
    """The public word for a stored work state (monitor.Article.State): :data:`WORK_STATES`, else the value."""
    return WORK_STATES.get(str(state), str(state))


#: an expert's decision that the article belongs in no folder (a bulk action, or the article's Review box)
NO_FOLDER = Word("reviewed, no folder", "an expert reviewed it and decided it belongs in no folder")


def _word(words: dict[str, Word], state) -> Word:
    return words.get(str(state), Word(str(state), str(state)))


def article_state(state) -> Word:
    return _word(ARTICLE_STATES, state)


def folder_state(state) -> Word:
    return _word(FOLDER_STATES, state)
