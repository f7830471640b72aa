from django.apps import AppConfig


class MonitorConfig(AppConfig):
    """WebMon: registered sites, polling, polite fetching, collected articles."""

    name = "monitor"
    verbose_name = "WebMon"

    def ready(self) -> None:
        # WebMon's work in the work queue (foundation/work.py): what an Outcome may ask for by name
        from foundation import work

        from .services import FETCH_ROWS

        work.register("poll", "monitor.poll_site")
        work.register("fetch", "monitor.fetch_article", FETCH_ROWS)
