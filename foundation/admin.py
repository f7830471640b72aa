"""The admin base the apps share (the apps register their own models)."""

from django.contrib import admin


class ReadOnlyAdmin(admin.ModelAdmin):
    """Rows the application writes: listed and searchable in the admin, never added or changed by hand.

    ``deletable``: whether an administrator may still delete them (WebMon's articles and fetch log may go;
    the knowledge base's rules, cases and audit log may not: that would bypass its lock and audit).
    """

    deletable = True

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return self.deletable and super().has_delete_permission(request, obj)
