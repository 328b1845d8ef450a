from django.apps import AppConfig


class TablesConfig(AppConfig):
    name = "brag_event.tables"
    label = "tables"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The dealers' shifts are on the event's money record: the ledger's audit reads them
        # without importing this app.
        from brag_event.events.record import register_record_source

        from .record import shifts_source

        register_record_source(shifts_source())
        # A change to a player bumps the event's tables' versions through the players' port.
        from brag_event.players.versions import tables_changed_register

        from .versions import event_tables_changed

        tables_changed_register(event_tables_changed)
