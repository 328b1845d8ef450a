from django.apps import AppConfig


class HandsConfig(AppConfig):
    name = "brag_event.hands"
    label = "hands"
    default_auto_field = "django.db.models.BigAutoField"
