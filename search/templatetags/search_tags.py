"""Template helpers of the search pages and of the header's search box."""

from django import template

from wims.roles import is_expert

register = template.Library()


@register.filter
def may_search(user) -> bool:
    """Whether the header shows the search box: signed-in experts (the search pages are theirs). Kept on the
    user object for the request, so a page asks the database once."""
    cached = getattr(user, "_wims_may_search", None)
    if cached is None:
        cached = is_expert(user)
        if user.is_authenticated:
            user._wims_may_search = cached
    return cached
