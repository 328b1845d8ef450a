"""Celery application for Brag Event.

Imported by ``brag_event.core.apps.CoreConfig.ready()`` so it is configured whenever Django
starts; ``brag_event/__init__.py`` deliberately stays free of imports so that
``brag_event.engine`` can be used without Django or Celery.

Start a worker with: ``celery -A brag_event.celery worker -l info`` (needs CELERY_BROKER_URL).
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "brag_event.settings")

app = Celery("brag_event")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

__all__ = ["app"]
