from django.apps import AppConfig


class ClosingConfig(AppConfig):
    """The day close's orchestration (``closing.services``, ``closing.tasks``) and the
    end-of-day count (``closing.count``, its models); the close's row (``events.DayClose``)
    belongs to the day."""

    name = "brag_event.closing"
    label = "closing"
    verbose_name = "Day close"

    def ready(self) -> None:
        from brag_event.hands import chain
        from brag_event.ledger.audit import register_check

        from .record import check_standings, let_back_source, standings_source
        from .signals import day_close_requested
        from .tasks import queue_close

        day_close_requested.connect(queue_close, dispatch_uid="closing.queue_close")
        chain.register_day_source(standings_source())
        chain.register_day_source(let_back_source())
        register_check("standings are on the record", check_standings)
