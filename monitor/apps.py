from django.apps import AppConfig


class MonitorConfig(AppConfig):
    """WebMon: registered sites, polling, polite fetching, collected articles."""

    name = "monitor"
    verbose_name = "WebMon"
