"""What the workspace's views share: messages and safe redirects, and the inbox view (the filters an article
page was opened in) that next/previous, the decisions and the rule page carry along."""

from __future__ import annotations

from urllib.parse import urlencode, urlsplit

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


def inbox_view(request, params: QueryDict):
    """The inbox's filter form, its filtered articles (the "view") and its filters as a query string.

    The inbox and every page opened from it read the view here: a filter added to InboxFilterForm and to the
    queryset below reaches the article pages' next/previous, progress and auto-advance unchanged.
    """
    form = InboxFilterForm(params or None)
    # "assigned to me" and "unread" are read for the expert looking, whoever made the link
    qs = selectors.inbox_queryset(**form.narrowing(request.user))
    # only the form's own fields travel (never a cursor, never anything a link could be made to carry)
    query = urlencode([(k, v) for k, v in params.items() if k in form.fields and v])
    return form, qs, query


def view_form_of(request):
    """The view an article page was opened in (its ``view`` parameter, GET or POST): (the inbox's filter form,
    queryset, query string)."""
    raw = request.POST.get(VIEW) or request.GET.get(VIEW) or ""
    return inbox_view(request, QueryDict(raw))


def view_of(request):
    """The view an article page was opened in: (queryset, query string)."""
    _, qs, query = view_form_of(request)
    return qs, query


def with_view(url: str, view: str) -> str:
    return f"{url}?{urlencode({VIEW: view})}" if view else url


def article_url(pk: int, view: str) -> str:
    return with_view(reverse("classifier:article", args=[pk]), view)


def advance(request, article: Article):
    """After a decision on ``article``: open the next article of the expert's view (found from the article's
    own position, so one that just left the view skips nothing), or, at the end, the article again."""
    qs, view = view_of(request)
    following = selectors.next_in_view(qs, article)
    if following is None:
        messages.info(request, "That was the last article of this view.")
        return redirect(article_url(article.pk, view))
    return redirect(article_url(following.pk, view))


def back_to_article(request, pk: int):
    return redirect(article_url(pk, view_of(request)[1]))


#: a rule page opened from the Corrections list: its commit shows the rule, since there is no view to go on with
FROM_CORRECTIONS = "corrections"


def origin_of(request) -> str:
    origin = request.POST.get("origin") or request.GET.get("origin")
    return FROM_CORRECTIONS if origin == FROM_CORRECTIONS else ""


def rule_url(article_id: int, **params) -> str:
    query = urlencode([(k, v) for k, v in params.items() if v not in (None, "")])
    return reverse("classifier:rule", args=[article_id]) + (f"?{query}" if query else "")
