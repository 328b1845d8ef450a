from django.apps import AppConfig


class ClosingConfig(AppConfig):
    """The day close's orchestration (``closing.services``, ``closing.tasks``) and the
    end-of-day count (``closing.count``, its models); the close's row (``events.DayClose``)
    belongs to the day."""

    name = "brag_event.closing"
    label = "closing"
    verbose_name = "Day close"

    def ready(self) -> None:
        from brag_event.events.day_chain import register_day_source
        from brag_event.events.record import register_record_source
        from brag_event.ledger.audit import register_check

        from . import record, standings
        from .signals import day_close_requested
        from .tasks import queue_close

        day_close_requested.connect(queue_close, dispatch_uid="closing.queue_close")
        # The count on the event's money record, the close's requests on the day's own chain,
        # and the check that a close kept its count: read by the ledger's audit, which imports
        # nothing of the close.
        register_record_source(record.counts_source())
        register_record_source(record.count_rulings_source())
        register_record_source(record.waivers_source())
        register_day_source(record.close_requests_source())
        register_check("closes kept their count", record.check_counts_kept)
        # The standings each close took and the players let back in, on the days' own chains,
        # and the check that the snapshots and qualifications are what they recorded.
        register_day_source(standings.standings_source())
        register_day_source(standings.let_back_source())
        register_record_source(standings.sealed_source())
        register_check("standings are on the record", standings.check_standings)
