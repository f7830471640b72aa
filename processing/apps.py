from django.apps import AppConfig


class ProcessingConfig(AppConfig):
    """From a fetched page to a classified case: filters, extraction, case ingestion, site learning."""

    name = "processing"
    verbose_name = "Processing"

    def ready(self) -> None:
        # Processing's work in the work queue (foundation/work.py): WebMon asks for "process" by this name.
        # Its rows are the fetched articles (their columns: monitor.services.PROCESS_ROWS); site learning has
        # no row to claim (processing.models.SiteLearning counts its runs).
        from foundation import work
        from monitor.services import PROCESS_ROWS

        work.register("process", "processing.process_article", PROCESS_ROWS)
        work.register("learn", "processing.learn_site_profile")
