"""The search pages (expert-only): results with filters, and the expert's saved searches.

Thin: forms parse, search/services.py searches and saves, search/selectors.py reads the saved searches.
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib import messages
from django.db import IntegrityError
from django.http import HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from classifier.permissions import expert_required
from search import selectors, services
from search.forms import SavedSearchForm, SearchForm
from search.models import SavedSearch
from search.services import QuerySyntaxError

MAX_PAGE = 10_000


def _page_number(raw: str | None) -> int:
    return int(raw) if raw and raw.isascii() and raw.isdigit() and 0 < int(raw) <= MAX_PAGE else 1


def _link_results(page: services.SearchPage, keep: list[tuple[str, str]]) -> None:
    """Each result's link to its article page, with the search it was found by and its rank: the article page
    goes back to this page of results, and steps to the results before and after it (:func:`open_result`), as
    an article opened from the inbox does through the inbox's view."""
    prefix = reverse("classifier:article", args=[0])[: -len("0/")]
    here = urlencode([*keep, ("page", page.page)] if page.page > 1 else keep)
    for rank, result in enumerate(page.results, start=page.first_rank):
        result.href = f"{prefix}{result.article.pk}/?{urlencode({'search': here, 'rank': rank})}"


@expert_required
@require_GET
def results(request):
    """/search/?q=…&site=&folder=&state=&date_from=&date_to=&page=: ranked results, or why there are none."""
    form = SearchForm(request.GET or None)
    context: dict = {"form": form, "page": None, "error": "", "empty": True, "save_form": None}
    status = 200
    if form.is_bound and not form.is_valid():
        status = 400  # filters that cannot be read: said, not ignored
    elif form.is_bound and form.cleaned_data["q"].strip():
        context["empty"] = False
        try:
            page = services.search(form.cleaned_data["q"], **form.filters(), page=_page_number(request.GET.get("page")))
        except QuerySyntaxError as error:
            context["error"] = str(error)
            status = 400
        else:
            keep = [(k, v) for k, v in request.GET.items() if k in form.fields and v]
            _link_results(page, keep)
            context.update(
                page=page,
                search_query=urlencode(keep),
                next_query=urlencode([*keep, ("page", page.page + 1)]) if page.has_next else "",
                prev_query=urlencode([*keep, ("page", page.page - 1)]) if page.has_previous else "",
                save_form=SavedSearchForm(owner=request.user),
                keep=keep,
            )
    return render(request, "search/results.html", context, status=status)


@expert_required
@require_POST
def save(request):
    """Save the query and filters posted from the results page under a name."""
    search_form = SearchForm(request.POST)
    save_form = SavedSearchForm(request.POST, owner=request.user)
    back = (
        reverse("search:results")
        + "?"
        + urlencode([(k, v) for k, v in request.POST.items() if k in SearchForm.base_fields and v])
    )
    if not (search_form.is_valid() and save_form.is_valid()):
        errors = [str(e) for form in (search_form, save_form) for field in form.errors.values() for e in field]
        messages.error(request, "Not saved: " + " ".join(errors))
        return HttpResponseRedirect(back)
    try:
        saved = services.save_search(
            request.user,
            save_form.cleaned_data["name"],
            search_form.cleaned_data["q"],
            search_form.filters(),
            public=save_form.cleaned_data["public"],
        )
    except (QuerySyntaxError, IntegrityError) as error:
        messages.error(request, f"Not saved: {error if isinstance(error, QuerySyntaxError) else 'that name is taken.'}")
        return HttpResponseRedirect(back)
    messages.success(request, f"Saved as “{saved.name}”.")
    return redirect("search:saved")


@expert_required
@require_GET
def saved_list(request):
    """The expert's saved searches: new matches since last looked, feeds, rename, delete."""
    return render(request, "search/saved.html", {"rows": selectors.saved_searches_of(request.user)})


def _own(request, saved_id: int) -> SavedSearch:
    """One of the expert's own saved searches; another's is a 404, as for one that does not exist."""
    return get_object_or_404(SavedSearch, pk=saved_id, owner=request.user)


@expert_required
@require_GET
def saved_open(request, saved_id: int):
    """Open a saved search: its results, and its new-match count starts again from now."""
    saved = _own(request, saved_id)
    services.mark_seen(saved)
    return HttpResponseRedirect(f"{reverse('search:results')}?{selectors.saved_search_query(saved)}")


@expert_required
@require_POST
def saved_edit(request, saved_id: int):
    """Rename a saved search and set whether its feeds are public."""
    saved = _own(request, saved_id)
    form = SavedSearchForm(request.POST, instance=saved, owner=request.user)
    if form.is_valid():
        form.save()
        messages.success(request, f"“{saved.name}” updated.")
    else:
        messages.error(request, "Not changed: " + " ".join(str(e) for errors in form.errors.values() for e in errors))
    return redirect("search:saved")


@expert_required
@require_POST
def saved_delete(request, saved_id: int):
    saved = _own(request, saved_id)
    name = saved.name
    saved.delete()
    messages.success(request, f"“{name}” deleted.")
    return redirect("search:saved")


def _results_url(params: list[tuple[str, str | int]]) -> str:
    query = urlencode(params)
    return f"{reverse('search:results')}?{query}" if query else reverse("search:results")


@expert_required
@require_GET
def open_result(request):
    """/search/open?q=…&rank=N: the article of the search's N-th result (the article page's newer and older links
    when it was opened from search results); past the last result, back to the results with a word."""
    form = SearchForm(request.GET)
    raw = request.GET.get("rank", "")
    rank = int(raw) if raw.isascii() and raw.isdigit() and 0 < int(raw) <= MAX_PAGE * services.PAGE_SIZE else 1
    keep = [(k, v) for k, v in request.GET.items() if k in form.fields and k != "page" and v]
    if not (form.is_valid() and form.cleaned_data["q"].strip()):
        return HttpResponseRedirect(_results_url(keep))
    number = (rank - 1) // services.PAGE_SIZE + 1
    try:
        page = services.search(form.cleaned_data["q"], **form.filters(), page=number)
    except QuerySyntaxError:
        return HttpResponseRedirect(_results_url(keep))
    _link_results(page, keep)
    index = rank - page.first_rank
    if page.results and 0 <= index < len(page.results):
        return HttpResponseRedirect(page.results[index].href)
    messages.info(request, "That was the last result of this search.")
    # the page holding the last result: this one, or (a rank far past them) the one the total ends on
    back = number if page.results else min(number - 1, -(-page.total // page.size))
    return HttpResponseRedirect(_results_url([*keep, ("page", back)] if back > 1 else keep))
