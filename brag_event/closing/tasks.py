"""Celery tasks of the close. They take ids, call services, and are safe to run twice."""

from __future__ import annotations

import logging
from typing import Any

from celery import current_app, shared_task

from brag_event.core.errors import Busy
from brag_event.core.transactions import backoff
from brag_event.events.models import Day

from .services import day_close_dispatched, day_close_fail, day_close_run, day_closes_waiting

log = logging.getLogger("brag_event.closing")

CLOSE_RETRIES = 5


def queue_close(*, close_id: int, **_signal: Any) -> None:
    """``day_close_requested`` listener (connected in ``ClosingConfig.ready``): queue the close,
    the request being committed."""
    day_close_dispatch(close_id=close_id)


def day_close_dispatch(*, close_id: int) -> bool:
    """Hand the close's job to the job queue; whether it got there. The close's row is the
    outbox: a queue that cannot be reached (Redis down) is written on the row, in words, for
    the close's page, and the close is sent again by ``day_close_requeue_task`` (Celery beat)
    or by the next look at its page once the queue is back — never lost, never a failed
    request. Run eagerly (no broker: ``make run``, tests) the job runs here and now."""
    if current_app.conf.task_always_eager:
        day_close_dispatched(close_id=close_id)
        day_close_task.delay(close_id)
        return True
    try:
        day_close_task.delay(close_id)
    except Exception as err:  # any transport error: the queue is unreachable (logged)
        log.warning("the close %s could not reach the job queue: %s", close_id, err)
        day_close_dispatched(close_id=close_id, error=f"{type(err).__name__}: {err}")
        return False
    day_close_dispatched(close_id=close_id)
    return True


def day_closes_requeue(*, day: Day | None = None) -> int:
    """Send again every close (of ``day``, or all) whose job never reached the job queue or was
    lost with it (``day_closes_waiting``); how many reached it now. Safe at any time: a close
    runs once at a time and does nothing once done."""
    return sum(day_close_dispatch(close_id=pk) for pk in day_closes_waiting(day=day))


def day_close_nudge(*, day: Day) -> int:
    """The next look at a close's page: its close is sent again if it is waiting for the job
    queue (``day_closes_requeue``). Run eagerly there is no queue to wait for."""
    if current_app.conf.task_always_eager:
        return 0
    return day_closes_requeue(day=day)


@shared_task(name="closing.requeue")
def day_close_requeue_task() -> int:
    """Celery beat's sweep of the closes' outbox (``day_closes_requeue``)."""
    return day_closes_requeue()


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
