from django.apps import AppConfig


class ClassifierConfig(AppConfig):
    """MCRDR knowledge base and the experts' workspace (the per-folder feeds are the feeds app)."""

    name = "classifier"
    verbose_name = "Classifier"
