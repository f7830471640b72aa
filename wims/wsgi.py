"""WSGI entry point, e.g. `gunicorn wims.wsgi`."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "wims.settings")
application = get_wsgi_application()
