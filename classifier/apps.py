from django.apps import AppConfig


class ClassifierConfig(AppConfig):
    """MCRDR knowledge base, the experts' workspace and the per-folder feeds."""

    name = "classifier"
    verbose_name = "Classifier"
