from django.apps import AppConfig


class AccessConfig(AppConfig):
    name = "brag_event.access"
    label = "access"
    verbose_name = "Staff and permissions"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from . import signals  # noqa: F401  (records a signing-in device on the session)
