from django.apps import AppConfig


class EventsConfig(AppConfig):
    name = "brag_event.events"
    label = "events"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from .signals import day_close_requested
        from .tasks import queue_close

        day_close_requested.connect(queue_close, dispatch_uid="events.queue_close")
