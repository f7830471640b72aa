"""The experts' workspace views (thin: check permissions, parse input, call selectors/services, render).

Every view is wrapped by classifier.permissions.expert_required (anonymous: login page; signed in
without the experts role: 403). Every state change is a POST with Django's CSRF check; the small
JavaScript endpoints read the token from the form they post.
"""

from __future__ import annotations

import dataclasses
from urllib.parse import parse_qsl, urlencode, urlsplit

from django.conf import settings
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpResponseBadRequest, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from classifier import selectors, services
from classifier.forms import (
    KIND_LABELS,
    BulkActionForm,
    FolderCreateForm,
    FolderMergeForm,
    FolderMoveForm,
    FolderRenameForm,
    InboxFilterForm,
    MoveForm,
    RuleDraft,
    expert_choices,
)
from classifier.kinds import RuleKind
from classifier.models import Case, Folder, Rule
from classifier.models_labels import PhraseLabel
from classifier.permissions import expert_required
from monitor.canonical import canonicalise
from monitor.models import Article

#: How many cornerstone cases / reclassified articles a page lists before saying "and N more".
SHOWN_CASES = 50
AFFECTED_LIMIT = 500
#: How many words of each difference list the rule page shows first (best ranked; the search finds the rest),
#: and how many words a search shows at most (best ranked first; more letters narrow it).
SHOWN_WORDS = 20
SEARCH_WORDS = services.SEARCH_WORDS


def _error_text(exc: ValidationError) -> str:
    return "; ".join(exc.messages)


def _safe_next(request, fallback: str) -> str:
    target = request.POST.get("next") or request.GET.get("next")
    if target and url_has_allowed_host_and_scheme(target, {request.get_host()}, request.is_secure()):
        return target
    return fallback


def _safe_link(url: str) -> str | None:
    """The article's original URL if it is a web address (never a javascript: or data: link)."""
    return url if urlsplit(url or "").scheme in {"http", "https"} else None


#: The parameter that carries the inbox view (its filter query string) from the inbox to an article and through
#: the decisions and rule page made there, so that "next" means the next article of that view.
VIEW = "view"


def _inbox_view(request, params: QueryDict):
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


def _view_of(request):
    """The view an article page was opened in (its ``view`` parameter, GET or POST): (queryset, query string)."""
    raw = request.POST.get(VIEW) or request.GET.get(VIEW) or ""
    _, qs, query = _inbox_view(request, QueryDict(raw))
    return qs, query


def _with_view(url: str, view: str) -> str:
    return f"{url}?{urlencode({VIEW: view})}" if view else url


def _article_url(pk: int, view: str) -> str:
    return _with_view(reverse("classifier:article", args=[pk]), view)


def _advance(request, article: Article):
    """After a decision on ``article``: open the next article of the expert's view (found from the article's
    own position, so one that just left the view skips nothing), or, at the end, the article again."""
    qs, view = _view_of(request)
    following = selectors.next_in_view(qs, article)
    if following is None:
        messages.info(request, "That was the last article of this view.")
        return redirect(_article_url(article.pk, view))
    return redirect(_article_url(following.pk, view))


def _from_search(request) -> dict:
    """An article page opened from search results (search.views: ``search``, the results' query string, and
    ``rank``): its list is that page of results, and newer / older are the results before and after it, found
    by search:open. Empty when it was not opened from a search: the inbox's view applies."""
    raw, rank = request.GET.get("search", ""), request.GET.get("rank", "")
    if not raw or not (rank.isascii() and rank.isdigit() and 0 < int(rank) <= 10**6):
        return {}
    query = urlencode(parse_qsl(raw))  # re-encoded: only ever the query of the search page's own path
    step = f"{reverse('search:open')}?{query}&rank="
    return {
        "view": "",
        "search_rank": int(rank),
        "inbox_url": f"{reverse('search:results')}?{query}",
        "newer_url": f"{step}{int(rank) - 1}" if int(rank) > 1 else None,
        "older_url": f"{step}{int(rank) + 1}",
    }


def _back_to_article(request, pk: int):
    return redirect(_article_url(pk, _view_of(request)[1]))


#: a rule page opened from the Corrections list: its commit shows the rule, since there is no view to go on with
FROM_CORRECTIONS = "corrections"


def _origin(request) -> str:
    origin = request.POST.get("origin") or request.GET.get("origin")
    return FROM_CORRECTIONS if origin == FROM_CORRECTIONS else ""


def _rule_url(article_id: int, **params) -> str:
    query = urlencode([(k, v) for k, v in params.items() if v not in (None, "")])
    return reverse("classifier:rule", args=[article_id]) + (f"?{query}" if query else "")


# --------------------------------------------------------------------------- inbox
@expert_required
@require_GET
def inbox(request):
    form, qs, filter_query = _inbox_view(request, request.GET)
    page = selectors.inbox_page(
        qs,
        after=selectors.Cursor.decode(request.GET.get("after")),
        before=selectors.Cursor.decode(request.GET.get("before")),
        reader=request.user,
    )
    prefix = reverse("classifier:article", args=[0])[: -len("0/")]
    suffix = _with_view("", filter_query)  # the article opens in this view: next/previous walk it
    for row in page.rows:
        row.href = f"{prefix}{row.article.pk}/{suffix}"
    keep = list(QueryDict(filter_query).items())
    here = [(k, v) for k, v in request.GET.items() if k in {*form.fields, "after", "before"} and v]
    report = request.session.pop("bulk-report", None)
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
            # without JavaScript, "select all" is this page again with every box ticked
            "select_all": request.GET.get("select") == "all",
            "select_all_query": urlencode([*here, ("select", "all")]),
            "here": reverse("classifier:inbox") + (f"?{urlencode(here)}" if here else ""),
            "experts": form.experts,
            # what the last bulk action did (or why it was refused), per article: shown once
            "bulk_report": report,
            # after a refusal, the articles that could take the action stay ticked: untick the others, post again
            "keep_selected": {i["article_id"] for i in report["items"] if i["ok"]}
            if report and report["refused"]
            else (),
        },
        status=400 if form.is_bound and form.errors else 200,  # filters that cannot be read: said, not ignored
    )


# --------------------------------------------------------------------------- article
@expert_required
@require_GET
def article_detail(request, pk):
    article, case = selectors.article_and_case(pk, case_required=False)
    view_qs, view = _view_of(request)
    # the position is read before the article is marked read: in an "unread" view it still counts as in it
    page = selectors.article_page(article, case, view_qs, filtered=bool(view))
    services.mark_read([article.pk], request.user)
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
            "original_url": _safe_link(article.url),
            # DocView's relevant links: web addresses only, whatever the stored row holds, without the tracking
            # parameters of a row stored before processing dropped them
            "relevant_links": [(c, a) for u, a in (article.extracted.relevant_links or []) if (c := canonicalise(u))],
            "move_form": MoveForm(current_folders=page["current_folders"]),
            "view": view,
            "inbox_url": reverse("classifier:inbox") + (f"?{view}" if view else ""),
            "older_url": _article_url(position.older.pk, view) if position.older else None,
            "newer_url": _article_url(position.newer.pk, view) if position.newer else None,
            "experts": expert_choices(),
            # the last rule's undo button is live only for whom the undo serves (its author, a KB administrator)
            "undo_refused": services.undo_refusal(request.user, page["last_rule"].pk) if page["last_rule"] else "",
            **_from_search(request),
        },
    )


@expert_required
@require_POST
def accept(request, pk):
    article, case = selectors.article_and_case(pk)
    raw = request.POST.getlist("folder")
    folders = None
    if "selected" in request.POST:
        try:
            folders = [int(v) for v in raw]
        except ValueError:
            return HttpResponseBadRequest("folder must be a folder id")
        if not folders:
            messages.error(request, "Select the suggestions to accept first (keys 1–9).")
            return _back_to_article(request, pk)
    try:
        accepted = services.accept(case, request.user, folders)
    except ValidationError as exc:
        messages.error(request, _error_text(exc))
        return _back_to_article(request, pk)
    messages.success(request, "Accepted: " + ", ".join(row.folder.path for row in accepted))
    if request.POST.get("next"):
        return redirect(_safe_next(request, reverse("classifier:article", args=[pk])))
    return _advance(request, article)


@expert_required
@require_POST
def reject(request, pk):
    """Reject one suggested folder: the decision is stored at once, and the rule that corrects it (stopping by
    default) is pending until made; the expert goes on to make it now (the rule page) or later (the list)."""
    _, case = selectors.article_and_case(pk)
    kind = request.POST.get("kind") or RuleKind.STOP
    try:
        folder_id = int(request.POST.get("folder", ""))
        row = services.reject(case, folder_id, request.user, kind=kind)
    except ValueError:
        return HttpResponseBadRequest("folder must be a folder id")
    except ValidationError as exc:
        messages.error(request, _error_text(exc))
        return _back_to_article(request, pk)
    concluded = {c.folder for c in services.infer(case)}
    if folder_id not in concluded:  # set by hand: there is no rule to correct
        messages.info(request, f"Rejected {row.folder.path}.")
        return _back_to_article(request, pk)
    # no message here: the rule page's notice of the pending rejection says it once
    return redirect(_rule_url(pk, kind=kind, wrong=folder_id, view=_view_of(request)[1]))


@expert_required
@require_POST
def correction_withdraw(request, pk):
    """Take a rejection back while its rule is still pending."""
    try:
        correction = services.withdraw_correction(pk, request.user)
    except ValidationError as exc:
        messages.error(request, _error_text(exc))
        return redirect(_safe_next(request, reverse("classifier:corrections")))
    messages.success(request, f"Rejection of {correction.folder.path} withdrawn: it is as it was before.")
    article_id = correction.case.article_id
    fallback = reverse("classifier:article", args=[article_id]) if article_id else reverse("classifier:corrections")
    return redirect(_safe_next(request, fallback))


CORRECTIONS_SHOWN = 200


@expert_required
@require_GET
def corrections(request):
    """The rejections whose rule is still to be made, oldest first: everyone's, or the expert's own."""
    mine = request.GET.get("who") == "mine"
    page = selectors.pending_corrections_page(request.user, mine, CORRECTIONS_SHOWN)
    for item in page["corrections"]:
        c = item["correction"]
        item["rule_url"] = (
            _rule_url(item["article"].pk, kind=c.kind, wrong=c.folder_id, origin=FROM_CORRECTIONS)
            if item["article"]
            else ""
        )
    return render(request, "classifier/corrections.html", {**page, "mine": mine, "shown": CORRECTIONS_SHOWN})


@expert_required
@require_POST
def move(request, pk):
    """Move or copy the article to another folder: translate it into the rule to draft."""
    _, case = selectors.article_and_case(pk)
    form = MoveForm(request.POST, current_folders=selectors.current_folders(case))
    if not form.is_valid():
        messages.error(request, "Choose the folder to move or copy the article to.")
        return _back_to_article(request, pk)
    data = form.cleaned_data
    try:
        draft = services.move_article(case, data["from_folder"], data["to_folder"], request.user, copy=data["copy"])
    except ValidationError as exc:
        messages.error(request, _error_text(exc))
        return _back_to_article(request, pk)
    view = _view_of(request)[1]
    return redirect(_rule_url(pk, kind=draft.kind, folder=draft.folder, wrong=draft.wrong_folder, view=view))


@expert_required
@require_POST
def bulk(request):
    """A bulk action on the ticked articles (the inbox's form, or the article page's assign and unread buttons
    with one id): one service call, one transaction; what it did per article is shown on the next page."""
    form = BulkActionForm(request.POST)
    fallback = reverse("classifier:inbox")
    if not form.is_valid():
        messages.error(request, " ".join(e for errors in form.errors.values() for e in errors))
        return redirect(_safe_next(request, fallback))
    action, ids, user = form.cleaned_data["action"], form.cleaned_data["article"], request.user
    label = BulkActionForm.ACTIONS[action]
    try:
        if action == "accept":
            items = services.bulk_accept(ids, user)
        elif action == "no_folder":
            items = services.bulk_mark_no_folder(ids, user)
        elif action == "assign":
            items = services.bulk_assign(ids, form.cleaned_data["assignee"], user)
        else:  # read / unread: personal state, no per-article report needed
            (services.mark_read if action == "read" else services.mark_unread)(ids, user)
            messages.success(request, f"{label}: {len(ids)} {ngettext('article', 'articles', len(ids))}.")
            return redirect(_safe_next(request, fallback))
    except services.BulkRefused as exc:
        items, refused = exc.items, _error_text(exc)
    except ValidationError as exc:
        messages.error(request, _error_text(exc))
        return redirect(_safe_next(request, fallback))
    else:
        refused = ""
    if len(items) == 1:  # one article (its own page's buttons): the message says it all
        note = items[0].note
        messages.add_message(
            request,
            messages.ERROR if refused else messages.SUCCESS,
            f"{label}: {'refused, ' if refused else ''}{note}.",
        )
    else:
        if refused:
            messages.error(request, refused)
        else:
            messages.success(request, f"{label}: done for {len(items)} articles.")
        request.session["bulk-report"] = {
            "action": label,
            "refused": bool(refused),
            "items": [dataclasses.asdict(item) for item in items],
        }
    return redirect(_safe_next(request, fallback))


# --------------------------------------------------------------------------- rule building
def _validation_context(request, article: Article, case: Case, draft: RuleDraft, with_affected=False) -> dict:
    context: dict = {
        "article": article,
        "case": case,
        "draft": draft,
        "kinds": KIND_LABELS,
        "folders": selectors.folder_choices(),
        "folder_form": FolderCreateForm(),
        "errors": list(draft.errors),
        "validation": None,
        "stones": [],
        "affected": None,
        "concluded": [],
        # read before validating: a commit made meanwhile makes the draft's version stale, never newer
        "kb_version": selectors.kb_version(),
        "view": _view_of(request)[1],
        "origin": _origin(request),
    }
    context["concluded"] = selectors.concluded_folders(case)
    # what the article is in as the experts decided it (a rejected folder says so), not what the rules conclude
    context["folder_chips"] = selectors.classifications_by_article([article.pk]).get(article.pk, [])
    context["correction"] = (
        selectors.pending_corrections().filter(case=case, folder_id=draft.wrong).first() if draft.wrong else None
    )
    if draft.errors:
        return context
    # a choice not made yet is the next step, not an error: the page opens without a red message
    if draft.needs_folder:
        context["next_step"] = "Choose the folder the article belongs in above (or create it below)."
        return context
    if draft.needs_wrong:
        context["next_step"] = "Choose the wrong folder this rule corrects above."
        return context
    try:
        validation = services.validate_rule(
            case,
            selected_cornerstones=draft.selected,
            accepted_cornerstones=draft.accepted,
            kept_cases=draft.kept,
            search=draft.search,
            **draft.service_kwargs(),
        )
    except ValidationError as exc:
        context["errors"].append(_error_text(exc))
        return context
    if draft.accept_shown:
        # (before the difference lists: they are computed once, for the draft with these accepted)
        # the expert accepts every change they saw (the page named them: not the ones beyond SHOWN_CASES, nor
        # those a draft changed since would show instead), that the draft still makes and that is not to keep
        shown = {s.case.pk for s in validation.cornerstone_cases if not s.kept} & set(draft.accept_shown)
        draft.accept_shown = []
        if shown - set(draft.accepted):
            draft.accepted = sorted(shown | set(draft.accepted))
            return _validation_context(request, article, case, draft, with_affected)
    context["validation"] = validation
    context["words"] = selectors.difference_items(validation, draft.search, SHOWN_WORDS, SEARCH_WORDS)
    context["shown_words"] = SHOWN_WORDS
    context["stones"] = selectors.cornerstone_items(validation, SHOWN_CASES, SHOWN_WORDS)
    context["acceptable_shown"] = [
        s["change"].case.pk for s in context["stones"] if not s["change"].kept and not s["change"].accepted
    ]
    context["stones_hidden"] = len(validation.cornerstone_cases) - len(context["stones"])
    # accepted cases that no longer change stay listed, so the expert's decision survives a condition taken back
    unchanged = sorted(set(draft.accepted) - {s.case.pk for s in validation.cornerstone_cases})
    # and so do the articles excluded from the "would reclassify" list that a condition now leaves unchanged
    kept = sorted(set(draft.kept) - {s.case.pk for s in validation.cornerstone_cases if s.kept} - {case.pk})
    titles = services.case_titles(unchanged + kept)
    context["accepted_unchanged"] = [(pk, titles.get(pk, f"case {pk}")) for pk in unchanged]
    context["kept_unchanged"] = [(pk, titles.get(pk, f"case {pk}")) for pk in kept]
    if with_affected:
        context["affected"] = _affected(validation, context)
    return context


def _affected(validation, context) -> list[dict] | None:
    try:
        affected = services.affected_cases(validation, limit=AFFECTED_LIMIT + 1)
    except ValidationError as exc:
        context["errors"].append(_error_text(exc))
        return None
    context["affected_more"] = len(affected) > AFFECTED_LIMIT
    return selectors.affected_items(affected[:AFFECTED_LIMIT])


@expert_required
@require_http_methods(["GET", "POST"])
def rule(request, pk):
    """The rule-building page. GET: a draft from the URL; POST: recompute (works without JavaScript)."""
    article, case = selectors.article_and_case(pk)
    data = request.POST if request.method == "POST" else request.GET
    draft = RuleDraft(data)
    if draft.needs_wrong and not draft.errors:
        # the wrong folder a rejection of this article waits for, when there is one: the page opens on it
        waiting = set(selectors.pending_corrections().filter(case=case).values_list("folder_id", flat=True))
        if len(waiting) == 1:
            draft.wrong = waiting.pop()
    context = _validation_context(request, article, case, draft, with_affected="affected" in data)
    return render(request, "classifier/rule.html", context)


@expert_required
@require_POST
def rule_check(request, pk):
    """The validation part of the rule page (difference list, cornerstone cases), for the page's script."""
    article, case = selectors.article_and_case(pk)
    draft = RuleDraft(request.POST)
    context = _validation_context(request, article, case, draft, with_affected="affected" in request.POST)
    return render(request, "classifier/_validation.html", context)


@expert_required
@require_POST
def rule_commit(request, pk):
    article, case = selectors.article_and_case(pk)
    draft = RuleDraft(request.POST)
    if draft.errors:
        messages.error(request, "; ".join(draft.errors))
        return redirect(_rule_url(pk, **dict(draft.query()), view=_view_of(request)[1], origin=_origin(request)))
    kwargs = draft.service_kwargs()
    affected_ids: list[int] = []
    try:
        validation = services.validate_rule(case, **kwargs)
        if kwargs["conditions"] or kwargs["absent"] or kwargs["kind"] == RuleKind.STOP:
            affected_ids = [a.case_id for a in services.affected_cases(validation, limit=AFFECTED_LIMIT)]
        rules = services.commit_rule(
            case,
            user=request.user,
            version=draft.version,
            accepted_cornerstones=draft.accepted,
            kept_cases=draft.kept,
            **kwargs,
        )
    except ValidationError as exc:
        context = _validation_context(request, article, case, draft)
        context["errors"].append(_error_text(exc))
        return render(request, "classifier/rule.html", context, status=400)
    # the commit page lists the articles this rule reclassified, as computed right before the commit
    request.session[f"committed-{rules[0].pk}"] = {
        "rules": [r.pk for r in rules],
        "cases": affected_ids,
        "at": timezone.now().isoformat(),
        "fresh": True,  # the page says "Rule committed" once, right after the commit (rule_detail)
    }
    numbers = ", ".join(str(r.pk) for r in rules)
    messages.success(
        request,
        f"Rule {numbers} committed: {len(affected_ids)} other stored "
        f"{ngettext('article', 'articles', len(affected_ids))} reclassified.",
    )
    # a correction (a rejection or a move) decides the article: on to the next, unless it came from Corrections
    if draft.kind != RuleKind.NEW and not _origin(request):
        return _advance(request, article)
    return redirect(_with_view(reverse("classifier:rule_detail", args=[rules[0].pk]), _view_of(request)[1]))


@expert_required
@require_GET
def rule_detail(request, pk):
    """A rule: its path, its cornerstone case with its folders now, and the articles it reclassified."""
    rule_obj = get_object_or_404(Rule.objects.select_related("folder", "cornerstone", "created_by"), pk=pk)
    committed = request.session.get(f"committed-{pk}")
    fresh = bool(committed and committed.get("fresh"))
    if fresh:  # opened again later, it is the rule's page: a live trial read "Rule committed" an hour on
        request.session[f"committed-{pk}"] = {**committed, "fresh": False}
    page = selectors.rule_page(rule_obj, committed, AFFECTED_LIMIT)
    stone = page["stone_article"]
    # just committed from an article: the way back to it, in the inbox view it was opened in
    back = _article_url(stone.pk, _view_of(request)[1]) if stone and committed else None
    return render(
        request,
        "classifier/rule_detail.html",
        {
            **page,
            "rule": rule_obj,
            "just_committed": fresh,
            "commit_list": bool(committed),
            "committed_at": parse_datetime(committed.get("at", "")) if committed else None,
            "back_to_article": back,
            "undo_refused": services.undo_refusal(request.user, page["last_rule_id"]) if page["is_last"] else "",
        },
    )


@expert_required
@require_http_methods(["GET", "POST"])
def rule_undo(request):
    """GET (or a POST without ``confirm``): the confirm step, what undoing changes back or why it cannot be
    undone; POST with ``confirm``: undo it. As deleting a folder confirms, without JavaScript."""
    last = selectors.last_rule()
    article_id = last.cornerstone.article_id if last and last.cornerstone else None
    raw = request.POST.get("rule", "") if request.method == "POST" else request.GET.get("rule", "")
    if not (raw.isascii() and raw.isdigit()):
        return HttpResponseBadRequest("rule must be the id of the rule to undo")
    fallback = reverse("classifier:article", args=[article_id]) if article_id else reverse("classifier:inbox")
    back = _safe_next(request, fallback)
    if request.method == "GET" or "confirm" not in request.POST:
        try:
            preview, refused = services.undo_preview(request.user, int(raw)), ""
        except ValidationError as exc:
            preview, refused = None, _error_text(exc)
        context = {"rule_id": int(raw), "preview": preview, "refused": refused, "back": back, "last": last}
        return render(request, "classifier/rule_undo.html", context)
    try:
        ids = services.undo_last_rule(request.user, int(raw))
    except ValidationError as exc:
        messages.error(request, _error_text(exc))
        return redirect(back)
    messages.success(request, f"Undone: rule {', '.join(map(str, ids))}. The articles it changed were re-inferred.")
    return redirect(back)


# --------------------------------------------------------------------------- folders
@expert_required
@require_GET
def folders(request):
    return render(
        request,
        "classifier/folders.html",
        {"nodes": selectors.folder_tree(), "folder_form": FolderCreateForm()},
    )


@expert_required
@require_POST
def folder_create(request):
    form = FolderCreateForm(request.POST)
    fallback = reverse("classifier:folders")
    if not form.is_valid():
        messages.error(request, "Give the new folder's full path, e.g. Health/Diabetes.")
        return redirect(_safe_next(request, fallback))
    try:
        folder = services.create_folder(form.cleaned_data["path"], request.user, public=form.cleaned_data["public"])
    except ValidationError as exc:
        messages.error(request, _error_text(exc))
        return redirect(_safe_next(request, fallback))
    messages.success(request, f"Folder {folder.path} is ready.")
    target = _safe_next(request, reverse("classifier:folder", args=[folder.pk]))
    if "{folder}" in target:  # the rule page asks to come back with the new folder chosen
        target = target.replace("{folder}", str(folder.pk))
    return redirect(target)


FOLDER_PAGE = 50


@expert_required
@require_GET
def folder_detail(request, pk):
    folder = get_object_or_404(Folder, pk=pk)
    try:
        before = int(request.GET.get("before", ""))
    except ValueError:
        before = None
    return render(
        request,
        "classifier/folder.html",
        {
            **selectors.folder_page(folder, before, FOLDER_PAGE),
            "folder": folder,
            "rename_form": FolderRenameForm(initial={"name": folder.name}),
            "move_form": FolderMoveForm(folder=folder, initial={"parent": folder.parent_id}),
            "merge_form": FolderMergeForm(folder=folder),
        },
    )


# --------------------------------------------------------------------------- folder management
def _folder_action(request, pk, form_class, act, done: str):
    """One folder action from the folder page's small forms: parse, call the service, say what happened."""
    folder = get_object_or_404(Folder, pk=pk)
    kwargs = {} if form_class is FolderRenameForm else {"folder": folder}
    form = form_class(request.POST, **kwargs)
    if not form.is_valid():
        messages.error(request, "; ".join(f"{form.fields[f].label}: {' '.join(e)}" for f, e in form.errors.items()))
        return redirect("classifier:folder", pk=pk)
    try:
        result = act(folder, form.cleaned_data)
    except ValidationError as exc:
        messages.error(request, _error_text(exc))
        return redirect("classifier:folder", pk=pk)
    messages.success(request, done.format(folder=folder, result=result))
    return redirect("classifier:folder", pk=result.pk if isinstance(result, Folder) else pk)


@expert_required
@require_POST
def folder_rename(request, pk):
    return _folder_action(
        request,
        pk,
        FolderRenameForm,
        lambda folder, data: services.rename_folder(folder, data["name"], request.user),
        "Renamed: the folder is now {result.path}; its rules, subfolders and feeds follow.",
    )


@expert_required
@require_POST
def folder_move(request, pk):
    def move(folder, data):
        parent = Folder.objects.get(pk=data["parent"]) if data["parent"] else None
        return services.move_folder(folder, parent, request.user)

    return _folder_action(request, pk, FolderMoveForm, move, "Moved: the folder is now {result.path}.")


@expert_required
@require_POST
def folder_merge(request, pk):
    folder = get_object_or_404(Folder, pk=pk)
    form = FolderMergeForm(request.POST, folder=folder)
    if not form.is_valid():
        if "confirm" in form.errors:
            messages.error(request, "Tick the box to confirm the merge: the merged folder is deleted.")
        else:
            messages.error(request, "Choose the folder to merge into.")
        return redirect("classifier:folder", pk=pk)
    old_path, target = folder.path, Folder.objects.get(pk=form.cleaned_data["target"])
    try:
        details = services.merge_folder(folder, target, request.user)
    except ValidationError as exc:
        messages.error(request, _error_text(exc))
        return redirect("classifier:folder", pk=pk)
    messages.success(
        request,
        f"Merged {old_path} into {target.path}: "
        f"{len(details['rules'])} {ngettext('rule', 'rules', len(details['rules']))} retargeted, "
        f"{details['classifications']} {ngettext('article', 'articles', details['classifications'])} and "
        f"{len(details['subfolders'])} {ngettext('subfolder', 'subfolders', len(details['subfolders']))} moved.",
    )
    return redirect("classifier:folder", pk=target.pk)


@expert_required
@require_http_methods(["GET", "POST"])
def folder_delete(request, pk):
    """GET: the confirm step (what goes with the folder, or why it cannot go); POST: delete it."""
    folder = get_object_or_404(Folder, pk=pk)
    if request.method == "POST":
        try:
            services.discard_folder(folder, request.user)
        except ValidationError as exc:
            messages.error(request, _error_text(exc))
            return redirect("classifier:folder", pk=pk)
        messages.success(request, f"Deleted folder {folder.path}.")
        return redirect("classifier:folders")
    return render(
        request,
        "classifier/folder_delete.html",
        {
            "folder": folder,
            "dependents": services.folder_dependents(folder),
            "children": folder.children.order_by("name"),
            "rules": folder.rules.order_by("id"),
        },
    )


# --------------------------------------------------------------------------- filter view
@expert_required
@require_http_methods(["GET", "POST"])
def article_filters(request, pk):
    """The article's phrases with the filters' decisions, a marking mode, and the metrics per site."""
    article = get_object_or_404(Article.objects.select_related("site", "content"), pk=pk)
    phrases, origin = selectors.article_phrases(article)
    view = _view_of(request)[1]
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
            messages.success(request, f"Saved: this article has {n} labelled phrases.")
        return redirect(_with_view(reverse("classifier:article_filters", args=[pk]), view))
    page = selectors.filter_page(article, phrases)
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
            "article_url": _article_url(article.pk, view),
            "view": view,
            "labelled": len(labels),
            "keep_raw_pages_days": settings.WIMS_KEEP_RAW_PAGES_DAYS,
        },
    )
