from django.apps import AppConfig


class WimsConfig(AppConfig):
    """Project-level app: management commands (bootstrap, runall) and project tasks."""

    name = "wims"
    verbose_name = "WIMS"
