"""Celery tasks of the close. They take ids, call services, and are safe to run twice."""

from __future__ import annotations

from typing import Any

from celery import shared_task

from brag_event.core.errors import Busy
from brag_event.core.transactions import backoff

from .services import day_close_fail, day_close_run

CLOSE_RETRIES = 5


def queue_close(*, close_id: int, **_signal: Any) -> None:
    """``day_close_requested`` listener (connected in ``ClosingConfig.ready``): queue the close,
    the request being committed."""
    day_close_task.delay(close_id)


@shared_task(
    bind=True,
    acks_late=True,
    reject_on_worker_lost=True,
    # The name it had in ``events``: tasks already queued under it still run.
    name="events.day_close",
    max_retries=CLOSE_RETRIES,
)
def day_close_task(self: Any, close_id: int) -> str:
    """Close a day (``closing.services``). Acknowledged only when done, so a worker that dies
    mid-way leaves the task to be delivered again; the run picks up where it stopped. When the
    database gives up on a step again and again (``Busy``), the task runs again a little later;
    after ``CLOSE_RETRIES`` times the close is marked failed, in words, for the organiser to ask
    again."""
    attempt = self.request.retries
    while True:
        try:
            return day_close_run(close_id=close_id).status
        except Busy as err:
            if attempt >= CLOSE_RETRIES:
                return day_close_fail(close_id=close_id, error=err).status
            if not self.request.is_eager:
                raise self.retry(exc=err, countdown=2**attempt) from err
            # Run eagerly (no broker: ``make run``, tests), where Celery's retry would raise:
            # run again here, after a short pause.
            attempt += 1
            backoff(attempt)
