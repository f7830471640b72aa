"""The decisions on an article: accept, reject (and the pending corrections it opens), move or copy, and the
inbox's bulk actions."""

from __future__ import annotations

import dataclasses

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_POST

from classifier import selectors, services
from classifier.forms import BulkActionForm, MoveForm
from classifier.kinds import RuleKind
from classifier.permissions import expert_required
from classifier.views.shared import (
    FROM_CORRECTIONS,
    advance,
    back_to_article,
    error_text,
    rule_url,
    safe_next,
    search_of,
    view_of,
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
            return back_to_article(request, pk)
    try:
        accepted = services.accept(case, request.user, folders)
    except ValidationError as exc:
        messages.error(request, error_text(exc))
        return back_to_article(request, pk)
    messages.success(request, "Accepted: " + ", ".join(row.folder.path for row in accepted))
    if request.POST.get("next"):
        return redirect(safe_next(request, reverse("classifier:article", args=[pk])))
    return advance(request, article)


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
        messages.error(request, error_text(exc))
        return back_to_article(request, pk)
    concluded = {c.folder for c in services.infer(case)}
    if folder_id not in concluded:  # set by hand: there is no rule to correct
        messages.info(request, f"Rejected {row.folder.path}.")
        return back_to_article(request, pk)
    # no message here: the rule page's notice of the pending rejection says it once
    return redirect(rule_url(pk, kind=kind, wrong=folder_id, view=view_of(request)[1], **search_of(request)))


@expert_required
@require_POST
def correction_withdraw(request, pk):
    """Take a rejection back while its rule is still pending."""
    try:
        correction = services.withdraw_correction(pk, request.user)
    except ValidationError as exc:
        messages.error(request, error_text(exc))
        return redirect(safe_next(request, reverse("classifier:corrections")))
    messages.success(request, f"Rejection of {correction.folder.path} withdrawn: it is as it was before.")
    article_id = correction.case.article_id
    fallback = reverse("classifier:article", args=[article_id]) if article_id else reverse("classifier:corrections")
    return redirect(safe_next(request, fallback))


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
            rule_url(item["article"].pk, kind=c.kind, wrong=c.folder_id, origin=FROM_CORRECTIONS)
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
        return back_to_article(request, pk)
    data = form.cleaned_data
    try:
        draft = services.move_article(case, data["from_folder"], data["to_folder"], request.user, copy=data["copy"])
    except ValidationError as exc:
        messages.error(request, error_text(exc))
        return back_to_article(request, pk)
    view = view_of(request)[1]
    return redirect(rule_url(pk, kind=draft.kind, folder=draft.folder, wrong=draft.wrong_folder, view=view))


@expert_required
@require_POST
def bulk(request):
    """A bulk action on the ticked articles (the inbox's form, or the article page's assign and unread buttons
    with one id): one service call, one transaction; what it did per article is shown on the next page."""
    form = BulkActionForm(request.POST)
    fallback = reverse("classifier:inbox")
    if not form.is_valid():
        messages.error(request, " ".join(e for errors in form.errors.values() for e in errors))
        return redirect(safe_next(request, fallback))
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
            return redirect(safe_next(request, fallback))
    except services.BulkRefused as exc:
        items, refused = exc.items, error_text(exc)
    except ValidationError as exc:
        messages.error(request, error_text(exc))
        return redirect(safe_next(request, fallback))
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
    return redirect(safe_next(request, fallback))
