from django.apps import AppConfig


class FloorConfig(AppConfig):
    name = "brag_event.floor"
    label = "floor"
    verbose_name = "Floor procedures"
    default_auto_field = "django.db.models.BigAutoField"
