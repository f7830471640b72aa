from django.apps import AppConfig


class ApiConfig(AppConfig):
    name = "api"
    verbose_name = "REST API"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from api import schema  # noqa: F401  (registers the schema's description of the token authentication)
