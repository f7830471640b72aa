from django.apps import AppConfig
from django.db.models.signals import post_delete, post_save


class ClassifierConfig(AppConfig):
    """MCRDR knowledge base and the experts' workspace (the per-folder feeds are the feeds app)."""

    name = "classifier"
    verbose_name = "Classifier"

    def ready(self):
        from classifier.models import Correction
        from classifier.services.corrections import forget_pending_count

        # the header's cached count of pending corrections: any saved or deleted correction (cascades too)
        post_save.connect(forget_pending_count, sender=Correction, dispatch_uid="pending-count-saved")
        post_delete.connect(forget_pending_count, sender=Correction, dispatch_uid="pending-count-deleted")
