"""The inbox, the article page and the article's filter view."""

from __future__ import annotations

from urllib.parse import quote, urlencode

from django.conf import settings
from django.contrib import messages
from django.http import QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods

from classifier import selectors, selectors_filters, services
from classifier.forms import MoveForm
from classifier.models_labels import PhraseLabel
from classifier.permissions import expert_required
from classifier.views.shared import (
    RANK,
    VIEW,
    article_url,
    filtered,
    inbox_page_of,
    inbox_view,
    safe_link,
    search_of,
    search_result_url,
    search_results_url,
    view_form_of,
    view_of,
    with_view,
)
from monitor.canonical import canonicalise
from monitor.models import Article


def _return_query(params: dict) -> str:
    """What the page's links to its filter view and rule page carry back (the inbox view, or the search it was
    opened from), made once a page: encoded as the template's urlencode filter encodes (``/`` kept)."""
    return "&".join(f"{key}={quote(str(value), safe='/')}" for key, value in params.items() if value)


def _from_search(request) -> dict:
    """An article page opened from search results (search.views: ``search``, the results' query string, and
    ``rank``): its list is that page of results, and newer / older are the results before and after it, found
    by search:open. Empty when it was not opened from a search: the inbox's view applies."""
    search = search_of(request)
    if not search:
        return {}
    rank = search[RANK]
    return {
        "view": "",
        "filtered_view": False,
        "from_search": search,  # carried on by the decisions and the rule page (_view_field.html)
        "return_query": _return_query(search),
        "search_rank": rank,
        "inbox_url": search_results_url(search),
        "newer_url": search_result_url(search, rank - 1) if rank > 1 else None,
        "older_url": search_result_url(search, rank + 1),
    }


# --------------------------------------------------------------------------- inbox
@expert_required
@require_GET
def inbox(request):
    form, qs, filter_query = inbox_view(request, request.GET)
    page = selectors.inbox_page(
        qs,
        after=selectors.Cursor.decode(request.GET.get("after")),
        before=selectors.Cursor.decode(request.GET.get("before")),
        reader=request.user,
    )
    report = request.session.pop("bulk-report", None)
    # without JavaScript, "select all" is this page again with every box ticked
    select_all = request.GET.get("select") == "all"
    # after a refusal, the articles that could take the action stay ticked: untick the others, post again
    keep_selected = {i["article_id"] for i in report["items"] if i["ok"]} if report and report["refused"] else ()
    prefix = reverse("classifier:article", args=[0])[: -len("0/")]
    keep = list(QueryDict(filter_query).items())
    # the article opens in this view (next/previous walk it) and leads back to this page of it
    suffix = with_view("", urlencode([*keep, *inbox_page_of(request.GET)]))
    for row in page.rows:
        row.href = f"{prefix}{row.article.pk}/{suffix}"
        row.checked = select_all or row.article.pk in keep_selected
    here = [(k, v) for k, v in request.GET.items() if k in {*form.fields, "after", "before"} and v]
    return render(
        request,
        "classifier/inbox.html",
        {
            "form": form,
            "page": page,
            "filter_query": filter_query,
            "next_query": urlencode([*keep, ("after", page.next_cursor.encode())]) if page.next_cursor else "",
            "prev_query": urlencode([*keep, ("before", page.prev_cursor.encode())]) if page.prev_cursor else "",
            "states": selectors.STATES,
            "select_all_query": urlencode([*here, ("select", "all")]),
            "here": reverse("classifier:inbox") + (f"?{urlencode(here)}" if here else ""),
            "experts": form.experts,
            # what the last bulk action did (or why it was refused), per article: shown once
            "bulk_report": report,
        },
        status=400 if form.is_bound and form.errors else 200,  # filters that cannot be read: said, not ignored
    )


# --------------------------------------------------------------------------- article
@expert_required
@require_GET
def article_detail(request, pk):
    article, case = selectors.article_and_case(pk, case_required=False)
    view_form, view_qs, view = view_form_of(request)
    # the position is read before the article is marked read: in an "unread" view it still counts as in it
    page = selectors.article_page(article, case, view_qs, user=request.user, filtered=filtered(view))
    services.mark_opened(article, request.user)
    position = page["position"]
    return render(
        request,
        "classifier/article.html",
        {
            **page,
            "article": article,
            "case": case,
            # as the inbox lists it (selectors.inbox_rows): a fetch that failed has no case to review
            "state": selectors.shown_state(article),
            "states": selectors.STATES,
            "original_url": safe_link(article.url),
            # DocView's relevant links: web addresses only, whatever the stored row holds, without the tracking
            # parameters of a row stored before processing dropped them
            "relevant_links": [(c, a) for u, a in (article.extracted.relevant_links or []) if (c := canonicalise(u))],
            "move_form": MoveForm(current_folders=page["current_folders"]),
            "view": view,
            "filtered_view": filtered(view),  # the view filters the inbox (not merely a page of it)
            "return_query": _return_query({"view": view}),
            "inbox_url": reverse("classifier:inbox") + (f"?{view}" if view else ""),
            "older_url": article_url(position.older.pk, view) if position.older else None,
            "newer_url": article_url(position.newer.pk, view) if position.newer else None,
            "experts": view_form.experts,  # read once, for the view's form and the assign picker alike
            **_from_search(request),
        },
    )


# --------------------------------------------------------------------------- filter view
@expert_required
@require_http_methods(["GET", "POST"])
def article_filters(request, pk):
    """The article's phrases with the filters' decisions, a marking mode, and the metrics per site."""
    article = get_object_or_404(Article.objects.select_related("site", "content"), pk=pk)
    phrases, origin = selectors_filters.article_phrases(article)
    view, search = view_of(request)[1], search_of(request)
    # the inbox view, or the search results, the article was opened in: its links and the save keep it
    came_from = urlencode(search) if search else urlencode({VIEW: view}) if view else ""
    here = reverse("classifier:article_filters", args=[pk])
    if request.method == "POST":
        labels = {}
        for key, value in request.POST.items():
            if key.startswith("p") and key[1:].isdigit() and value in {"core", "noise"}:
                labels[int(key[1:])] = value == "core"
        try:
            n = PhraseLabel.store_marks(article, phrases, labels, request.user, every="every" in request.POST)
        except ValueError as exc:
            messages.error(request, str(exc))
        else:
            messages.success(request, f"Saved: this article has {n} labelled {ngettext('phrase', 'phrases', n)}.")
        return redirect(f"{here}?{came_from}" if came_from else here)
    page = selectors_filters.filter_page(article, phrases)
    labels = page["labels"]
    shown = [
        {
            "i": i,
            "phrase": p,
            "label": labels.get(i),
            "mark_core": labels[i].is_core if i in labels else p.is_core,
        }
        for i, p in enumerate(phrases)
    ]
    return render(
        request,
        "classifier/filters.html",
        {
            **page,
            "article": article,
            "phrases": shown,
            "origin": origin,
            "marking": request.GET.get("mark") == "1",
            "article_url": article_url(article.pk, view, search),
            "view": view,
            "from_search": search,
            "came_from": came_from,
            "list_url": search_results_url(search) if search else reverse("classifier:inbox"),
            "labelled": len(labels),
            "keep_raw_pages_days": settings.WIMS_KEEP_RAW_PAGES_DAYS,
        },
    )
