"""Admin for the knowledge base: folders are managed through the services (paths, audit); the rule tree,
cases, classifications' provenance and the audit log are read-only here, because changing them by hand
would bypass the KB lock, re-inference and the audit log (use the experts' workspace, undo, or import_kb).
"""

from django.contrib import admin

from classifier import services
from classifier.models import AuditEntry, Case, Classification, Folder, KnowledgeBase, Rule
from foundation.admin import ReadOnlyAdmin


class KnowledgeBaseReadOnlyAdmin(ReadOnlyAdmin):
    deletable = False


def _case_name(case) -> str:
    """A case as the workspace names it: its article's title (services.case_titles), not "case 9"."""
    if case is None:
        return "-"
    article = case.article
    return (article.title or article.url) if article else (case.source or str(case))


@admin.register(Folder)
class FolderAdmin(admin.ModelAdmin):
    list_display = ["path", "public", "created_at"]
    list_filter = ["public"]
    search_fields = ["path"]
    readonly_fields = ["path", "created_at"]
    fields = ["name", "parent", "public", "path", "created_at"]

    def save_model(self, request, obj, form, change):
        # through the services: parents' paths, descendants' paths and the audit log stay right
        if not change:
            path = f"{obj.parent.path}{Folder.SEPARATOR}{obj.name}" if obj.parent else obj.name
            created = services.create_folder(path, request.user, public=obj.public)
            obj.pk, obj.path = created.pk, created.path
            return
        if "name" in form.changed_data:
            services.rename_folder(obj, form.cleaned_data["name"], request.user)
        if "parent" in form.changed_data:
            services.move_folder(obj, form.cleaned_data["parent"], request.user)
        if "public" in form.changed_data:
            services.set_folder_public(obj, form.cleaned_data["public"], request.user)

    def delete_model(self, request, obj):
        services.discard_folder(obj, request.user)  # the workspace's delete: the same refusals and audit


@admin.register(Rule)
class RuleAdmin(KnowledgeBaseReadOnlyAdmin):
    list_display = [
        "id",
        "kind",
        "parent",
        "folder",
        "conditions",
        "absent",
        "cornerstone_case",
        "created_by",
        "created_at",
    ]
    list_select_related = ["folder", "parent", "created_by", "cornerstone__article"]
    list_filter = ["folder"]

    @admin.display(description="cornerstone case")
    def cornerstone_case(self, obj) -> str:
        return _case_name(obj.cornerstone)


@admin.register(Case)
class CaseAdmin(KnowledgeBaseReadOnlyAdmin):
    list_display = ["id", "article", "source", "created_at"]
    search_fields = ["source"]
    raw_id_fields = ["article"]


@admin.register(Classification)
class ClassificationAdmin(KnowledgeBaseReadOnlyAdmin):
    list_display = ["article", "folder", "state", "rule", "decided_by", "decided_at", "updated_at"]
    list_filter = ["state", "folder"]
    list_select_related = ["folder", "decided_by", "case__article", "rule__folder"]

    @admin.display(description="article")
    def article(self, obj) -> str:
        return _case_name(obj.case)


@admin.register(AuditEntry)
class AuditEntryAdmin(KnowledgeBaseReadOnlyAdmin):
    list_display = ["created_at", "action", "actor"]
    list_filter = ["action"]
    date_hierarchy = "created_at"


@admin.register(KnowledgeBase)
class KnowledgeBaseAdmin(KnowledgeBaseReadOnlyAdmin):
    list_display = ["version", "stamp", "updated_at"]
