from typing import Any

from django.apps import AppConfig
from django.db.models.signals import post_migrate


def _create_cache_table(using: str = "default", **kwargs: Any) -> None:
    """Without Redis the shared cache is a database table (``settings.CACHES``): every
    ``migrate`` makes sure it exists, so no deployment step can forget it."""
    from django.conf import settings
    from django.core.management import call_command

    if any(c["BACKEND"].endswith("DatabaseCache") for c in settings.CACHES.values()):
        call_command("createcachetable", database=using, verbosity=0)


class CoreConfig(AppConfig):
    name = "brag_event.core"
    label = "core"
    verbose_name = "Brag Event core"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Configure the Celery app whenever Django starts (runserver, workers, tests).
        from brag_event import celery  # noqa: F401

        # Lockouts are written to the audit log (a signal receiver).
        from . import security  # noqa: F401

        post_migrate.connect(_create_cache_table, sender=self)
