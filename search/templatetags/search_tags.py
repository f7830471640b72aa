"""Template helpers of the search pages and of the header's search box."""

from django import template

from foundation.roles import request_user_is_expert

register = template.Library()


@register.filter
def may_search(user) -> bool:
    """Whether the header shows the search box: signed-in experts (the search pages are theirs)."""
    return request_user_is_expert(user)
