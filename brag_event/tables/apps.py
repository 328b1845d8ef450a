from django.apps import AppConfig


class TablesConfig(AppConfig):
    name = "brag_event.tables"
    label = "tables"
    default_auto_field = "django.db.models.BigAutoField"
