"""The experts' workspace views (thin: check permissions, parse input, call selectors/services, render).

Every view is wrapped by classifier.permissions.expert_required (anonymous: login page; signed in
without the experts role: 403). Every state change is a POST with Django's CSRF check; the small
JavaScript endpoints read the token from the form they post.
"""

from __future__ import annotations

from urllib.parse import urlencode, urlsplit

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db.models import Count, Prefetch
from django.http import HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from classifier import selectors, services
from classifier.forms import KIND_LABELS, FolderCreateForm, InboxFilterForm, MoveForm, RuleDraft
from classifier.models import Case, Classification, Folder, Rule
from classifier.models_labels import PhraseLabel, contingency_counts
from classifier.permissions import expert_required
from filters.metrics import Contingency
from monitor.models import Article, Site

#: How many cornerstone cases / reclassified articles a page lists before saying "and N more".
SHOWN_CASES = 50
AFFECTED_LIMIT = 500
#: Article columns the workspace never reads (the stored page and the extraction are large).
HEAVY_ARTICLE_FIELDS = ("raw_html", "extraction", "tokens", "headers")


def _light_articles():
    names = {f.name for f in Article._meta.get_fields()}
    return Article.objects.select_related("site").defer(*[f for f in HEAVY_ARTICLE_FIELDS if f in names])


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


def _case_or_none(article: Article) -> Case | None:
    return Case.objects.filter(article=article).first()


def _rule_url(article_id: int, **params) -> str:
    query = urlencode([(k, v) for k, v in params.items() if v not in (None, "")])
    return reverse("classifier:rule", args=[article_id]) + (f"?{query}" if query else "")


# --------------------------------------------------------------------------- inbox
@expert_required
@require_GET
def inbox(request):
    form = InboxFilterForm(request.GET or None)
    filters = form.cleaned_data if form.is_bound and form.is_valid() else {}
    qs = selectors.inbox_queryset(
        site_id=filters["site"].pk if filters.get("site") else None,
        date_from=filters.get("date_from"),
        date_to=filters.get("date_to"),
        state=filters.get("state") or None,
    )
    page = selectors.inbox_page(
        qs,
        after=selectors.Cursor.decode(request.GET.get("after")),
        before=selectors.Cursor.decode(request.GET.get("before")),
    )
    prefix = reverse("classifier:article", args=[0])[: -len("0/")]
    for row in page.rows:
        row.href = f"{prefix}{row.article.pk}/"
    keep = [(k, v) for k, v in request.GET.items() if k in form.fields and v]
    return render(
        request,
        "classifier/inbox.html",
        {
            "form": form,
            "page": page,
            "filter_query": urlencode(keep),
            "next_query": urlencode([*keep, ("after", page.next_cursor.encode())]) if page.next_cursor else "",
            "prev_query": urlencode([*keep, ("before", page.prev_cursor.encode())]) if page.prev_cursor else "",
            "states": selectors.STATES,
        },
    )


# --------------------------------------------------------------------------- article
@expert_required
@require_GET
def article_detail(request, pk):
    article = get_object_or_404(_light_articles(), pk=pk)
    case = _case_or_none(article)
    rows, suggestions, stopped = [], [], []
    if case is not None:
        rows = list(Classification.objects.filter(case=case).select_related("folder", "decided_by"))
        explained = services.explain(case, include_stopped=True)
        why = {e.folder.pk: e.rules for e in explained if not e.stopped}
        stopped = [e for e in explained if e.stopped and e.folder.pk not in why]
        by_folder = {row.folder_id: row for row in rows}
        for explanation in explained:
            if explanation.stopped:
                continue
            row = by_folder.get(explanation.folder.pk)
            suggestions.append({"folder": explanation.folder, "rules": explanation.rules, "row": row})
        concluded = set(why)
        for row in rows:
            if row.folder_id not in concluded:  # decided by hand, or no longer given by the knowledge base
                suggestions.append({"folder": row.folder, "rules": [], "row": row})
    current = [s["folder"] for s in suggestions if not (s["row"] and s["row"].state == "rejected")]
    older, newer = selectors.neighbours(article)
    return render(
        request,
        "classifier/article.html",
        {
            "article": article,
            "case": case,
            "suggestions": suggestions,
            "pending": [s for s in suggestions if s["row"] is not None and s["row"].state == "suggested"],
            "stopped": stopped,
            "state": article.review_state,
            "states": selectors.STATES,
            "original_url": _safe_link(article.url),
            "move_form": MoveForm(current_folders=current),
            "older": older,
            "newer": newer,
            "last_rule": _last_rule_summary(),
        },
    )


def _last_rule_summary():
    rule = Rule.objects.select_related("folder").order_by("-id").first()
    return rule


@expert_required
@require_POST
def accept(request, pk):
    article = get_object_or_404(Article.objects.only("id"), pk=pk)
    case = get_object_or_404(Case, article=article)
    raw = request.POST.getlist("folder")
    folders = None
    if "selected" in request.POST:
        try:
            folders = [int(v) for v in raw]
        except ValueError:
            return HttpResponseBadRequest("folder must be a folder id")
        if not folders:
            messages.error(request, "Select the suggestions to accept first (keys 1–9).")
            return redirect("classifier:article", pk=pk)
    try:
        accepted = services.accept(case, request.user, folders)
    except ValidationError as exc:
        messages.error(request, _error_text(exc))
        return redirect("classifier:article", pk=pk)
    if accepted:
        messages.success(request, "Accepted: " + ", ".join(row.folder.path for row in accepted))
    else:
        messages.info(request, "There were no pending suggestions to accept.")
    return redirect(_safe_next(request, reverse("classifier:article", args=[pk])))


@expert_required
@require_POST
def reject(request, pk):
    """Reject one suggested folder and start the rule that corrects it (stopping by default)."""
    article = get_object_or_404(Article.objects.only("id"), pk=pk)
    case = get_object_or_404(Case, article=article)
    try:
        folder_id = int(request.POST.get("folder", ""))
        row = services.reject(case, folder_id, request.user)
    except ValueError:
        return HttpResponseBadRequest("folder must be a folder id")
    except ValidationError as exc:
        messages.error(request, _error_text(exc))
        return redirect("classifier:article", pk=pk)
    messages.info(
        request,
        f"Rejected {row.folder.path}. Now make the rule that fixes it: stop it, or refine it to the right folder.",
    )
    concluded = {c.folder for c in services.infer(case)}
    if folder_id not in concluded:  # set by hand: there is no rule to correct
        return redirect("classifier:article", pk=pk)
    return redirect(_rule_url(pk, kind=request.POST.get("kind") or "stop", wrong=folder_id))


@expert_required
@require_POST
def move(request, pk):
    """Move or copy the article to another folder: translate it into the rule to draft."""
    article = get_object_or_404(Article.objects.only("id"), pk=pk)
    case = get_object_or_404(Case, article=article)
    current = Folder.objects.filter(classifications__case=case).exclude(
        classifications__state=Classification.State.REJECTED
    )
    form = MoveForm(request.POST, current_folders=current)
    if not form.is_valid():
        messages.error(request, "Choose the folder to move or copy the article to.")
        return redirect("classifier:article", pk=pk)
    data = form.cleaned_data
    try:
        draft = services.move_article(case, data["from_folder"], data["to_folder"], request.user, copy=data["copy"])
    except ValidationError as exc:
        messages.error(request, _error_text(exc))
        return redirect("classifier:article", pk=pk)
    return redirect(_rule_url(pk, kind=draft.kind, folder=draft.folder, wrong=draft.wrong_folder))


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
    }
    context["concluded"] = sorted(
        Folder.objects.filter(pk__in={c.folder for c in services.infer(case)}), key=lambda f: f.path
    )
    if draft.errors:
        return context
    if draft.needs_folder:
        context["errors"].append("Choose the folder the article belongs in (or create it).")
        return context
    if draft.needs_wrong:
        context["errors"].append("Choose the wrong folder this rule corrects.")
        return context
    try:
        validation = services.validate_rule(case, selected_cornerstones=draft.selected, **draft.service_kwargs())
    except ValidationError as exc:
        context["errors"].append(_error_text(exc))
        return context
    context["validation"] = validation
    shown = validation.cornerstone_cases[:SHOWN_CASES]
    articles = _light_articles().in_bulk([s.case.article_id for s in shown if s.case.article_id])
    selected = set(draft.selected)
    context["stones"] = [
        {"change": s, "article": articles.get(s.case.article_id), "selected": s.case.pk in selected} for s in shown
    ]
    context["stones_hidden"] = len(validation.cornerstone_cases) - len(shown)
    # selected cases that no longer change stay listed, so the expert can unselect them
    context["selected_unchanged"] = sorted(selected - {s.case.pk for s in validation.cornerstone_cases})
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
    affected = affected[:AFFECTED_LIMIT]
    cases = Case.objects.filter(pk__in=[a.case_id for a in affected]).values_list("id", "article_id", "source")
    info = {pk: (article_id, source) for pk, article_id, source in cases}
    articles = _light_articles().in_bulk([a for a, _ in info.values() if a])
    return [
        {
            "item": a,
            "article": articles.get(info.get(a.case_id, (None, ""))[0]),
            "source": info.get(a.case_id, (None, ""))[1],
        }
        for a in affected
    ]


@expert_required
@require_http_methods(["GET", "POST"])
def rule(request, pk):
    """The rule-building page. GET: a draft from the URL; POST: recompute (works without JavaScript)."""
    article = get_object_or_404(_light_articles(), pk=pk)
    case = get_object_or_404(Case, article=article)
    data = request.POST if request.method == "POST" else request.GET
    draft = RuleDraft(data)
    context = _validation_context(request, article, case, draft, with_affected="affected" in data)
    return render(request, "classifier/rule.html", context)


@expert_required
@require_POST
def rule_check(request, pk):
    """The validation part of the rule page (difference list, cornerstone cases), for the page's script."""
    article = get_object_or_404(_light_articles(), pk=pk)
    case = get_object_or_404(Case, article=article)
    draft = RuleDraft(request.POST)
    context = _validation_context(request, article, case, draft, with_affected="affected" in request.POST)
    return render(request, "classifier/_validation.html", context)


@expert_required
@require_POST
def rule_commit(request, pk):
    article = get_object_or_404(_light_articles(), pk=pk)
    case = get_object_or_404(Case, article=article)
    draft = RuleDraft(request.POST)
    if draft.errors:
        messages.error(request, "; ".join(draft.errors))
        return redirect(_rule_url(pk, **dict(draft.query())))
    kwargs = draft.service_kwargs()
    affected_ids: list[int] = []
    try:
        validation = services.validate_rule(case, **kwargs)
        if kwargs["conditions"] or kwargs["absent"]:
            affected_ids = [a.case_id for a in services.affected_cases(validation, limit=AFFECTED_LIMIT)]
        rules = services.commit_rule(case, user=request.user, **kwargs)
    except ValidationError as exc:
        context = _validation_context(request, article, case, draft)
        context["errors"].append(_error_text(exc))
        return render(request, "classifier/rule.html", context, status=400)
    # the commit page lists the articles this rule reclassified, as computed right before the commit
    request.session[f"committed-{rules[0].pk}"] = {"rules": [r.pk for r in rules], "cases": affected_ids}
    messages.success(request, f"Rule committed: {len(affected_ids)} other stored article(s) reclassified.")
    return redirect("classifier:rule_detail", pk=rules[0].pk)


@expert_required
@require_GET
def rule_detail(request, pk):
    """A rule: its path, its cornerstone case with its folders now, and the articles it reclassified."""
    rule_obj = get_object_or_404(Rule.objects.select_related("folder", "cornerstone", "created_by"), pk=pk)
    committed = request.session.get(f"committed-{pk}")
    if committed:
        case_ids = committed["cases"]
        rule_ids = committed["rules"]
    else:
        rule_ids = [rule_obj.pk]
        case_ids = list(Classification.objects.filter(rule=rule_obj).values_list("case_id", flat=True)[:AFFECTED_LIMIT])
    rules = list(Rule.objects.filter(pk__in=rule_ids).select_related("folder"))
    paths = selectors.rule_paths([r.pk for r in rules])
    stone_article = None
    if rule_obj.cornerstone and rule_obj.cornerstone.article_id:
        stone_article = _light_articles().filter(pk=rule_obj.cornerstone.article_id).first()
    stone_rows = selectors.classifications_by_article([stone_article.pk]) if stone_article else {}
    cases = Case.objects.filter(pk__in=case_ids).values_list("id", "article_id")
    article_ids = [a for _, a in cases if a]
    affected_articles = list(_light_articles().filter(pk__in=article_ids).order_by("-collected_at", "-id"))
    affected_rows = selectors.classifications_by_article(article_ids)
    return render(
        request,
        "classifier/rule_detail.html",
        {
            "rule": rule_obj,
            "rules": [{"rule": r, "path": paths.get(r.pk, [r])} for r in rules],
            "stone_article": stone_article,
            "stone_rows": stone_rows.get(stone_article.pk, []) if stone_article else [],
            "affected": [{"article": a, "rows": affected_rows.get(a.pk, [])} for a in affected_articles],
            "just_committed": bool(committed),
            "is_last": selectors.last_rule_id() in rule_ids,
        },
    )


@expert_required
@require_POST
def rule_undo(request):
    last = Rule.objects.select_related("cornerstone").order_by("-id").first()
    article_id = last.cornerstone.article_id if last and last.cornerstone else None
    try:
        ids = services.undo_last_rule(request.user)
    except ValidationError as exc:
        messages.error(request, _error_text(exc))
        return redirect(_safe_next(request, reverse("classifier:inbox")))
    messages.success(request, f"Undone: rule {', '.join(map(str, ids))}. The articles it changed were re-inferred.")
    fallback = reverse("classifier:article", args=[article_id]) if article_id else reverse("classifier:inbox")
    return redirect(_safe_next(request, fallback))


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
    rows = (
        Classification.objects.filter(folder=folder)
        .exclude(state=Classification.State.REJECTED)
        .select_related("rule")
        .order_by("-id")
    )
    try:
        before = int(request.GET.get("before", ""))
        rows = rows.filter(id__lt=before)
    except ValueError:
        pass
    rows = list(rows[: FOLDER_PAGE + 1])
    more = len(rows) > FOLDER_PAGE
    rows = rows[:FOLDER_PAGE]
    case_articles = dict(Case.objects.filter(pk__in=[r.case_id for r in rows]).values_list("id", "article_id"))
    articles = _light_articles().in_bulk([a for a in case_articles.values() if a])
    paths = selectors.rule_paths([r.rule_id for r in rows])
    items = [
        {"row": r, "article": articles.get(case_articles.get(r.case_id)), "path": paths.get(r.rule_id, [])}
        for r in rows
    ]
    concluding = list(
        Rule.objects.filter(folder=folder)
        .select_related("cornerstone", "created_by")
        .prefetch_related(Prefetch("children", queryset=Rule.objects.filter(folder__isnull=True)))
        .order_by("id")
    )
    rule_items = []
    stone_articles = _light_articles().in_bulk(
        [r.cornerstone.article_id for r in concluding if r.cornerstone and r.cornerstone.article_id]
    )
    rule_path = selectors.rule_paths([r.pk for r in concluding])
    for r in concluding:
        rule_items.append(
            {
                "rule": r,
                "path": rule_path.get(r.pk, [r]),
                "stone": stone_articles.get(r.cornerstone.article_id) if r.cornerstone else None,
                "stops": list(r.children.all()),
            }
        )
    return render(
        request,
        "classifier/folder.html",
        {
            "folder": folder,
            "ancestors": _ancestors(folder),
            "children": folder.children.order_by("name"),
            "items": items,
            "more_before": rows[-1].pk if more and rows else None,
            "rule_items": rule_items,
        },
    )


def _ancestors(folder: Folder) -> list[Folder]:
    parts = folder.path.split(Folder.SEPARATOR)[:-1]
    prefixes = [Folder.SEPARATOR.join(parts[: i + 1]) for i in range(len(parts))]
    found = {f.path: f for f in Folder.objects.filter(path__in=prefixes)}
    return [found[p] for p in prefixes if p in found]


# --------------------------------------------------------------------------- filter view
def _metrics(counts: dict) -> dict:
    table = Contingency(counts["a"] or 0, counts["b"] or 0, counts["c"] or 0, counts["d"] or 0)
    return table.as_dict()


@expert_required
@require_http_methods(["GET", "POST"])
def article_filters(request, pk):
    """The article's phrases with the filters' decisions, a marking mode, and the metrics per site."""
    article = get_object_or_404(Article.objects.select_related("site"), pk=pk)
    phrases, origin = selectors.article_phrases(article)
    if request.method == "POST":
        labels = {}
        for key, value in request.POST.items():
            if key.startswith("p") and key[1:].isdigit() and value in {"core", "noise"}:
                labels[int(key[1:])] = value == "core"
        try:
            n = PhraseLabel.store(article, phrases, labels, request.user)
        except ValueError as exc:
            messages.error(request, str(exc))
        else:
            messages.success(request, f"Saved {n} phrase labels.")
        return redirect("classifier:article_filters", pk=pk)
    labels = {
        label.position: label
        for label in PhraseLabel.objects.filter(article=article)
        if label.position < len(phrases) and phrases[label.position].text == label.text
    }
    marking = request.GET.get("mark") == "1"
    shown = [
        {
            "i": i,
            "phrase": p,
            "label": labels.get(i),
            "mark_core": labels[i].is_core if i in labels else p.is_core,
        }
        for i, p in enumerate(phrases)
    ]
    site_rows = (
        PhraseLabel.objects.values("article__site_id")
        .annotate(
            articles=Count("article_id", distinct=True),
        )
        .order_by()
    )
    sites = Site.objects.in_bulk([r["article__site_id"] for r in site_rows])
    per_site = []
    for row in site_rows:
        site = sites.get(row["article__site_id"])
        per_site.append(
            {
                "site": site,
                "articles": row["articles"],
                "m": _metrics(contingency_counts(PhraseLabel.objects.filter(article__site=site))),
            }
        )
    per_site.sort(key=lambda r: (r["site"].pk != article.site_id, r["site"].name))
    return render(
        request,
        "classifier/filters.html",
        {
            "article": article,
            "phrases": shown,
            "origin": origin,
            "marking": marking,
            "labelled": len(labels),
            "this_article": _metrics(contingency_counts(PhraseLabel.objects.filter(article=article)))
            if labels
            else None,
            "per_site": per_site,
            "removed_counts": _removed_counts(phrases),
        },
    )


def _removed_counts(phrases) -> dict[str, int]:
    counts: dict[str, int] = {}
    for p in phrases:
        key = p.removed_by or "core"
        counts[key] = counts.get(key, 0) + 1
    return counts
