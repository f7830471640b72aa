"""What the workspace's views share: messages and safe redirects, and the inbox view (the filters an article
page was opened in) that next/previous, the decisions and the rule page carry along."""

from __future__ import annotations

from urllib.parse import parse_qsl, urlencode, urlsplit

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import QueryDict
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme

from classifier import selectors
from classifier.forms import InboxFilterForm
from monitor.models import Article


def error_text(exc: ValidationError) -> str:
    return "; ".join(exc.messages)


def safe_next(request, fallback: str) -> str:
    target = request.POST.get("next") or request.GET.get("next")
    if target and url_has_allowed_host_and_scheme(target, {request.get_host()}, request.is_secure()):
        return target
    return fallback


def safe_link(url: str) -> str | None:
    """The article's original URL if it is a web address (never a javascript: or data: link)."""
    return url if urlsplit(url or "").scheme in {"http", "https"} else None


#: The parameter that carries the inbox view (its filter query string) from the inbox to an article and through
#: the decisions and rule page made there, so that "next" means the next article of that view.
VIEW = "view"


#: The inbox page's cursor (``before`` or ``after``, selectors.Cursor): an article opened from a page of the inbox
#: carries it in its view, so that the way back to the inbox (``u``) opens that page, not the first. In the order
#: the inbox reads them (selectors.inbox_page: a readable ``before`` wins over ``after``).
PAGE_KEYS = ("before", "after")


def inbox_page_of(params: QueryDict) -> list[tuple[str, str]]:
    """The inbox page ``params`` show, as (key, cursor), or none for the first page (a malformed cursor, which the
    inbox reads as the first page, is dropped)."""
    for key in PAGE_KEYS:
        value = params.get(key) or ""
        if selectors.Cursor.decode(value) is not None:
            return [(key, value)]
    return []


def inbox_view(request, params: QueryDict, *, page: bool = False):
    """The inbox's filter form, its filtered articles (the "view") and its filters as a query string, with
    ``page`` the inbox page's cursor after them (:func:`inbox_page_of`; it narrows no queryset).

    The inbox and every page opened from it read the view here: a filter added to InboxFilterForm and to the
    queryset below reaches the article pages' next/previous, progress and auto-advance unchanged.
    """
    form = InboxFilterForm(params or None)
    # "assigned to me" and "unread" are read for the expert looking, whoever made the link
    qs = selectors.inbox_queryset(**form.narrowing(request.user))
    # only the form's own fields travel, and the page's cursor (never anything a link could be made to carry)
    fields = [(k, v) for k, v in params.items() if k in form.fields and v]
    query = urlencode([*fields, *(inbox_page_of(params) if page else ())])
    return form, qs, query


def view_form_of(request):
    """The view an article page was opened in (its ``view`` parameter, GET or POST): (the inbox's filter form,
    queryset, query string with the inbox page it was opened from)."""
    raw = request.POST.get(VIEW) or request.GET.get(VIEW) or ""
    return inbox_view(request, QueryDict(raw), page=True)


def filtered(view: str) -> bool:
    """Whether the view (:func:`view_form_of`'s query string) filters the inbox: it holds more than a page."""
    return any(key not in PAGE_KEYS for key in QueryDict(view))


def view_of(request):
    """The view an article page was opened in: (queryset, query string)."""
    _, qs, query = view_form_of(request)
    return qs, query


def with_view(url: str, view: str) -> str:
    return f"{url}?{urlencode({VIEW: view})}" if view else url


#: The parameters that carry the search results an article page was opened from (search.views._link_results):
#: ``search``, the results page's query string, and ``rank``, the result's place in them. Like the view, they
#: travel through the decisions and the rule page, so that these lead back to the search, not to the inbox.
SEARCH, RANK = "search", "rank"
MAX_RANK = 10**6


def search_of(request) -> dict:
    """The search an article page was opened from (GET or POST): {"search": its query, "rank": N}, or {} when it
    was not opened from search. The query is re-encoded, so it is only ever the search page's own query string:
    the links made from it stay on the search pages (never a way off the site)."""
    raw = request.POST.get(SEARCH) or request.GET.get(SEARCH) or ""
    rank = request.POST.get(RANK) or request.GET.get(RANK) or ""
    query = urlencode(parse_qsl(raw))
    if not query or not (rank.isascii() and rank.isdigit() and 0 < int(rank) <= MAX_RANK):
        return {}
    return {SEARCH: query, RANK: int(rank)}


def search_results_url(search: dict) -> str:
    return f"{reverse('search:results')}?{search[SEARCH]}"


def search_result_url(search: dict, rank: int) -> str:
    """The search's ``rank``-th result (search:open finds its article, or says the search has no more)."""
    return f"{reverse('search:open')}?{search[SEARCH]}&{RANK}={rank}"


def article_url(pk: int, view: str, search: dict | None = None) -> str:
    """The article's page in the inbox view it was opened in, or among the search results it was opened from."""
    url = reverse("classifier:article", args=[pk])
    return f"{url}?{urlencode(search)}" if search else with_view(url, view)


def advance(request, article: Article):
    """After a decision on ``article``: open the next article of the expert's view (found from the article's
    own position, so one that just left the view skips nothing), or, at the end, the article again; opened from
    search results, the next result."""
    if search := search_of(request):
        return redirect(search_result_url(search, search[RANK] + 1))
    qs, view = view_of(request)
    following = selectors.next_in_view(qs, article)
    if following is None:
        messages.info(request, "That was the last article of this view.")
        return redirect(article_url(article.pk, view))
    return redirect(article_url(following.pk, view))


def back_to_article(request, pk: int):
    return redirect(article_url(pk, view_of(request)[1], search_of(request)))


#: a rule page opened from the Corrections list: its commit shows the rule, since there is no view to go on with
FROM_CORRECTIONS = "corrections"


def origin_of(request) -> str:
    origin = request.POST.get("origin") or request.GET.get("origin")
    return FROM_CORRECTIONS if origin == FROM_CORRECTIONS else ""


def rule_url(article_id: int, **params) -> str:
    query = urlencode([(k, v) for k, v in params.items() if v not in (None, "")])
    return reverse("classifier:rule", args=[article_id]) + (f"?{query}" if query else "")
