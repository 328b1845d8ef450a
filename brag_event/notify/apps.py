from django.apps import AppConfig


class NotifyConfig(AppConfig):
    """Players in the loop: what a player asked to hear (email, Web Push), the outbox of what
    they are told, and the event's public feed for followers (docs/notifications.md)."""

    name = "brag_event.notify"
    label = "notify"
    default_auto_field = "django.db.models.BigAutoField"
