"""The rule-building page (draft, check, commit), a rule's page and undoing the last rule."""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from classifier import selectors, services
from classifier.forms import KIND_LABELS, FolderCreateForm, RuleDraft
from classifier.kinds import RuleKind
from classifier.models import Case, Rule
from classifier.permissions import expert_required
from classifier.views.shared import (
    advance,
    article_url,
    error_text,
    origin_of,
    rule_url,
    safe_next,
    search_of,
    search_results_url,
    view_of,
    with_view,
)
from monitor.models import Article

#: How many cornerstone cases / reclassified articles a page lists before saying "and N more".
SHOWN_CASES = 50
AFFECTED_LIMIT = 500
#: How many words of each difference list the rule page shows first (best ranked; the search finds the rest),
#: and how many words a search shows at most (best ranked first; more letters narrow it).
SHOWN_WORDS = 20
SEARCH_WORDS = services.SEARCH_WORDS


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
        "view": view_of(request)[1],
        "origin": origin_of(request),
        # opened from search results: the page leads back to them, not to the inbox
        "from_search": search_of(request),
    }
    view, search = context["view"], context["from_search"]
    context["article_url"] = article_url(article.pk, view, search)
    context["list_url"] = search_results_url(search) if search else reverse("classifier:inbox")
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
        context["errors"].append(error_text(exc))
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
        context["errors"].append(error_text(exc))
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
        back = {"view": view_of(request)[1], "origin": origin_of(request), **search_of(request)}
        return redirect(rule_url(pk, **dict(draft.query()), **back))
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
        context["errors"].append(error_text(exc))
        return render(request, "classifier/rule.html", context, status=400)
    # a correction (a rejection or a move) decides the article: on to the next, unless it came from Corrections
    advancing = draft.kind != RuleKind.NEW and not origin_of(request)
    # the commit page lists the articles this rule reclassified, as computed right before the commit
    request.session[f"committed-{rules[0].pk}"] = {
        "rules": [r.pk for r in rules],
        "cases": affected_ids,
        "at": timezone.now().isoformat(),
        # the page says "Rule committed" once, right after the commit (rule_detail); a commit that opens the next
        # article says it there, and the rule's page opened later is the rule's, not the commit's (a live trial)
        "fresh": not advancing,
    }
    numbers = ", ".join(str(r.pk) for r in rules)
    messages.success(
        request,
        f"Rule {numbers} committed: {len(affected_ids)} other stored "
        f"{ngettext('article', 'articles', len(affected_ids))} reclassified.",
    )
    if advancing:
        return advance(request, article)
    detail = reverse("classifier:rule_detail", args=[rules[0].pk])
    search = search_of(request)
    return redirect(f"{detail}?{urlencode(search)}" if search else with_view(detail, view_of(request)[1]))


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
    back = article_url(stone.pk, view_of(request)[1], search_of(request)) if stone and committed else None
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
    back = safe_next(request, fallback)
    if request.method == "GET" or "confirm" not in request.POST:
        try:
            preview, refused = services.undo_preview(request.user, int(raw)), ""
        except ValidationError as exc:
            preview, refused = None, error_text(exc)
        context = {"rule_id": int(raw), "preview": preview, "refused": refused, "back": back, "last": last}
        return render(request, "classifier/rule_undo.html", context)
    try:
        ids = services.undo_last_rule(request.user, int(raw))
    except ValidationError as exc:
        messages.error(request, error_text(exc))
        return redirect(back)
    messages.success(request, f"Undone: rule {', '.join(map(str, ids))}. The articles it changed were re-inferred.")
    return redirect(back)
