from django.apps import AppConfig


class CoreConfig(AppConfig):
    name = "brag_event.core"
    label = "core"
    verbose_name = "Brag Event core"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Configure the Celery app whenever Django starts (runserver, workers, tests).
        from brag_event import celery  # noqa: F401
