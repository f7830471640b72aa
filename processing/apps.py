from django.apps import AppConfig


class ProcessingConfig(AppConfig):
    """From a fetched page to a classified case: filters, extraction, case ingestion, site learning."""

    name = "processing"
    verbose_name = "Processing"
