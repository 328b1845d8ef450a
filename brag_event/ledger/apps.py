from django.apps import AppConfig


class LedgerConfig(AppConfig):
    name = "brag_event.ledger"
    label = "ledger"
    default_auto_field = "django.db.models.BigAutoField"
