"""The project's own admin adjustments (the apps register their models; their base is foundation.admin)."""

from django.contrib import admin


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
