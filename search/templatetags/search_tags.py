"""Template helpers of the search pages and of the header's search box."""

from django import template

from classifier.filtering import ANY, STATE_GROUPS, WAITING
from classifier.vocabulary import article_state
from foundation.roles import request_user_is_expert

register = template.Library()


@register.filter
def may_search(user) -> bool:
    """Whether the header shows the search box: signed-in experts (the search pages are theirs)."""
    return request_user_is_expert(user)


_GROUP_MEANINGS = {WAITING: "unreviewed, suggested, or rejected with its rule pending", ANY: "every article"}


@register.filter
def state_filter(state, part: str = "word") -> str:
    """A saved search's state filter as its select names it: a group of states ("Waiting for review") by its
    label, one state by the word every page says (with ``:"meaning"``, a tooltip)."""
    if state in STATE_GROUPS:
        return STATE_GROUPS[state] if part == "word" else _GROUP_MEANINGS[state]
    return getattr(article_state(state), part)
