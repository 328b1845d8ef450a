"""Celery tasks of the ledger: take ids, call services, safe to run twice."""

from __future__ import annotations

from celery import shared_task

from brag_event.events.models import Event

from .checks import ledger_check_run


@shared_task(name="ledger.check_all")
def ledger_check_all_task() -> int:
    """Audit every event's ledger (Celery beat runs this every few minutes). Incremental: the
    settled hands that replayed cleanly before and have not changed are not replayed again."""
    for event in Event.objects.all():
        ledger_check_run(event=event)
    return Event.objects.count()
