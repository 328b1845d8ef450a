from django.apps import AppConfig


class FloorConfig(AppConfig):
    name = "brag_event.floor"
    label = "floor"
    verbose_name = "Floor procedures"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from brag_event.events import day_chain
        from brag_event.events.record import register_record_source
        from brag_event.hands import chain
        from brag_event.tables.floor_rules import FloorRules, floor_rules_register

        from .awards import award_ask, award_waiting, award_withdraw
        from .deal import missed_hand_seats, missed_hands_count_deal
        from .record import (
            awards_source,
            day_rulings_source,
            lifts_source,
            record_award_from_source,
            record_awards_source,
            record_lifts_source,
            rulings_source,
        )

        chain.register_source(rulings_source())
        chain.register_source(awards_source())
        day_chain.register_day_source(day_rulings_source())
        day_chain.register_day_source(lifts_source())
        register_record_source(record_lifts_source())
        register_record_source(record_awards_source())
        register_record_source(record_award_from_source())
        # What the tables' and the hands' services ask of the floor (tables.floor_rules).
        floor_rules_register(
            FloorRules(
                award_waiting=award_waiting,
                award_ask=award_ask,
                award_withdraw=award_withdraw,
                missed_hand_seats=missed_hand_seats,
                missed_hands_count_deal=missed_hands_count_deal,
            )
        )
