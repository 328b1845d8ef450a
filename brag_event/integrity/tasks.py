"""Celery tasks of the integrity monitor: they take ids, call services, are safe to run twice."""

from __future__ import annotations

import logging
from typing import Any

from celery import shared_task
from django.db import transaction

from brag_event.events.models import Day, Event

from .models import IntegrityRun
from .services import integrity_check, integrity_run

log = logging.getLogger("brag_event.integrity")


@shared_task(name="integrity.check_all")
def integrity_check_all_task() -> int:
    """Celery beat's periodic check: every event with something new since its last run."""
    ran = 0
    for event in Event.objects.all():
        ran += integrity_check(event=event) is not None
    return ran


@shared_task(name="integrity.check_event")
def integrity_check_event_task(event_id: int, day_id: int | None = None) -> int:
    """The run after a day's close. Twice is harmless: the second run finds the same hands and
    raises the same flags (the page shows the latest run)."""
    event = Event.objects.get(pk=event_id)
    day = Day.objects.filter(pk=day_id).first() if day_id else None
    run = integrity_run(event=event, trigger=IntegrityRun.Trigger.DAY_CLOSE, day=day, by=None)
    return run.pk


def queue_after_close(sender: Any, day: Day, **kwargs: Any) -> None:
    """``day_closed`` listener: queue the run once the close is committed. Without a broker
    (tasks run in-process) a failure of the monitor is logged: it never fails the close."""
    event_id, day_id = day.event_id, day.pk

    def queue() -> None:
        try:
            integrity_check_event_task.delay(event_id, day_id)
        except Exception:
            log.exception("the integrity run after the close of day %s failed", day_id)

    transaction.on_commit(queue)
