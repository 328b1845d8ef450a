from django.apps import AppConfig


class HandsConfig(AppConfig):
    name = "brag_event.hands"
    label = "hands"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The ledger audit runs the hands' checks without knowing hands: they register here.
        from . import audit

        audit.register()
