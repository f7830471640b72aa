"""The Celery app. Configuration comes from Django settings (CELERY_* names)."""

import os

from celery import Celery

from wims import kombu_fixes

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "wims.settings")
# A Redis outage must not end a worker (a kombu/Celery 5.7.0 bug: wims/kombu_fixes.py).
kombu_fixes.apply()

# Its tasks fail with MemoryLimitExceeded, not MemoryError, which Celery takes for a broken worker (wims/worker.py).
app = Celery("wims", task_cls="wims.worker:Task")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

# The workers' memory and time bounds and their clean stop: signal handlers, connected on import.
from wims import worker  # noqa: E402, F401
