from django.apps import AppConfig


class PlayersConfig(AppConfig):
    name = "brag_event.players"
    label = "players"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Who each player is, on the event's money record: read by the ledger's audit, which
        # imports nothing of this app.
        from brag_event.events.day_chain import register_day_source
        from brag_event.events.record import register_record_source

        from .checkin import check_ins_source
        from .record import identities_source

        register_record_source(identities_source())
        # Who checked in decides who is seated: on the day's own chain.
        register_day_source(check_ins_source())
