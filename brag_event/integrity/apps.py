from django.apps import AppConfig


class IntegrityConfig(AppConfig):
    name = "brag_event.integrity"
    label = "integrity"
    verbose_name = "Integrity monitor"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from brag_event.events.signals import day_closed

        from .tasks import queue_after_close

        day_closed.connect(queue_after_close, dispatch_uid="integrity.after_close")
