from django.apps import AppConfig


class PlayersConfig(AppConfig):
    name = "brag_event.players"
    label = "players"
    default_auto_field = "django.db.models.BigAutoField"
