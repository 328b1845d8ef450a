from django.apps import AppConfig


class EventsConfig(AppConfig):
    name = "brag_event.events"
    label = "events"
    default_auto_field = "django.db.models.BigAutoField"
