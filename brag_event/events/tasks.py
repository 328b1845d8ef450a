"""Celery tasks of events. They take ids, call services, and are safe to run twice."""

from __future__ import annotations

from celery import shared_task

from .closing import day_close_run


@shared_task(acks_late=True, reject_on_worker_lost=True, name="events.day_close")
def day_close_task(close_id: int) -> str:
    """Close a day (``events.closing``). Acknowledged only when done, so a worker that dies
    mid-way leaves the task to be delivered again; the run picks up where it stopped."""
    return day_close_run(close_id=close_id).status
