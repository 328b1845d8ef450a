from django.apps import AppConfig


class ClosingConfig(AppConfig):
    """The day close's orchestration (``closing.services``, ``closing.tasks``) and the
    end-of-day count (``closing.count``, its models); the close's row (``events.DayClose``)
    belongs to the day."""

    name = "brag_event.closing"
    label = "closing"
    verbose_name = "Day close"

    def ready(self) -> None:
        from .signals import day_close_requested
        from .tasks import queue_close

        day_close_requested.connect(queue_close, dispatch_uid="closing.queue_close")
