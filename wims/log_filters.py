"""Filters of the project's logging (wims/settings.py's LOGGING)."""

import logging

from django.core.exceptions import PermissionDenied


class PermissionDeniedWithoutTraceback(logging.Filter):
    """Django's request logger passes the exception of every 403 along with its warning: a refused role is an
    answer, not an error, so its warning stays the one line that names the path (no traceback)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and isinstance(record.exc_info[1], PermissionDenied):
            record.exc_info = None
            record.exc_text = None
        return True
