from django.apps import AppConfig


class FiltersConfig(AppConfig):
    """Noise filters: per-site filter profiles around the pure pipeline in this package."""

    name = "filters"
    label = "filters"
    verbose_name = "Noise filters"
