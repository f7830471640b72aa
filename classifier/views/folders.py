"""The folder tree, a folder's page and the folder management actions."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from classifier import selectors, services
from classifier.forms import FolderCreateForm, FolderMergeForm, FolderMoveForm, FolderRenameForm
from classifier.models import Folder
from classifier.permissions import expert_required
from classifier.views.shared import error_text, safe_next


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
        return redirect(safe_next(request, fallback))
    try:
        folder = services.create_folder(form.cleaned_data["path"], request.user, public=form.cleaned_data["public"])
    except ValidationError as exc:
        messages.error(request, error_text(exc))
        return redirect(safe_next(request, fallback))
    messages.success(request, f"Folder {folder.path} is ready.")
    target = safe_next(request, reverse("classifier:folder", args=[folder.pk]))
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
        messages.error(request, error_text(exc))
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
        messages.error(request, error_text(exc))
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
            messages.error(request, error_text(exc))
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
