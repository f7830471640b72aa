"""Admin helpers shared by the apps (the apps register their own models)."""

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


def _periodic_tasks_without_inline_script() -> None:
    """django-celery-beat's task form adds an inline script (a reading of the chosen crontab), which the
    Content-Security-Policy blocks: the plain admin form instead (only that reading is lost)."""
    from django_celery_beat.admin import PeriodicTaskAdmin
    from django_celery_beat.models import PeriodicTask

    class PlainPeriodicTaskAdmin(PeriodicTaskAdmin):
        change_form_template = None

    if admin.site.is_registered(PeriodicTask):
        admin.site.unregister(PeriodicTask)
    admin.site.register(PeriodicTask, PlainPeriodicTaskAdmin)


_periodic_tasks_without_inline_script()
