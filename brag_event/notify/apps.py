from django.apps import AppConfig


class NotifyConfig(AppConfig):
    """Players in the loop: what a player asked to hear (email, Web Push), the outbox of what
    they are told, and the event's public feed for followers (docs/notifications.md)."""

    name = "brag_event.notify"
    label = "notify"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # A check-in window opened and a seat drawn or moved are told through the players'
        # port, so that the players and the tables import nothing of this app.
        from brag_event.players.notices import Notices, notices_register

        from .services import notice_checkin, notice_seat

        notices_register(Notices(checkin=notice_checkin, seat=notice_seat))
