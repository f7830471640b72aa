"""Typed reads of environment variables, with errors that name the variable.

Used by wims/settings.py at start-up, where every variable WIMS reads is declared. Unset or empty means the
default.
"""

import os

from django.core.exceptions import ImproperlyConfigured

__all__ = ["env_bool", "env_int", "env_list", "env_number"]


def _raw(name: str) -> str | None:
    value = os.environ.get(name)
    return None if value is None or value.strip() == "" else value.strip()


def env_bool(name: str, default: bool = False) -> bool:
    value = _raw(name)
    if value is None:
        return default
    if value.lower() in {"1", "true", "yes", "on"}:
        return True
    if value.lower() in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name}={value!r} is not a boolean (use 1/0, true/false, yes/no, on/off)")


def env_number(name: str, default: float, minimum: float = 0.0) -> float:
    value = _raw(name)
    if value is None:
        return default
    try:
        number = float(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={value!r} is not a number") from None
    if not number >= minimum:  # also refuses nan
        raise ImproperlyConfigured(f"{name}={value!r} is below its minimum, {minimum:g}")
    return number


def env_int(name: str, default: int, minimum: int = 0) -> int:
    value = _raw(name)
    if value is None:
        return default
    try:
        number = int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={value!r} is not a whole number") from None
    if number < minimum:
        raise ImproperlyConfigured(f"{name}={value!r} is below its minimum, {minimum}")
    return number


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]
