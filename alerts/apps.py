from django.apps import AppConfig


class AlertsConfig(AppConfig):
    name = "alerts"
    verbose_name = "Alerts and digests"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Alerts' work in the work queue (foundation/work.py): a subscription's due deliveries, sent by the scan.
        # Its rows are claimed by alerts.services.send itself (a batch per subscription under a claim token),
        # and a lost claim fails its rows rather than being delivered again: not the work queue's row claims.
        from foundation import work

        work.register("deliver", "alerts.send")
