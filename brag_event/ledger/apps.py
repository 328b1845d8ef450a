from django.apps import AppConfig


class LedgerConfig(AppConfig):
    name = "brag_event.ledger"
    label = "ledger"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The apps below the ledger write on the event's money record through events.record,
        # which asks the ledger for the event's record row.
        from brag_event.events.record import record_row_register

        from .record import record_for_change

        record_row_register(record_for_change)
