"""Celery tasks of the players' notifications. They take ids and are safe to run twice: the
outbox row says whether a notice is owed (``services.notice_deliver``)."""

from __future__ import annotations

from typing import Any

from celery import shared_task

from .services import MAX_ATTEMPTS, notice_deliver, notices_due, retry_wait


@shared_task(
    bind=True,
    name="notify.send",
    # Acknowledged when done: a worker that dies mid-send leaves the task to come back, and the
    # outbox's sweep (notify.requeue) sends it too once the claim lapsed; the row decides.
    acks_late=True,
    reject_on_worker_lost=True,
    max_retries=MAX_ATTEMPTS,
)
def notice_send_task(self: Any, notice_id: int) -> str:
    """Send one notice; a failure comes back later, further apart each time."""
    try:
        return notice_deliver(notice_id=notice_id)
    except Exception as err:
        if self.request.is_eager:  # no queue (make run, tests): the sweep tries again
            return "pending"
        wait = retry_wait(self.request.retries + 1).total_seconds()
        raise self.retry(exc=err, countdown=wait) from err


@shared_task(name="notify.requeue")
def notice_requeue_task() -> int:
    """Celery beat's sweep of the outbox: queue every notice owed now (``notices_due``)."""
    due = notices_due()
    for pk in due:
        notice_send_task.delay(pk)
    return len(due)


@shared_task(name="feed.refresh")
def feed_refresh_task() -> int:
    """Celery beat: write the public feeds' new entries of every event with a day in play."""
    from brag_event.events.models import Day

    from .feed import feed_refresh

    events = Day.objects.filter(status=Day.Status.OPEN).values_list("event_id", flat=True)
    return sum(feed_refresh(event_id=pk) for pk in set(events))
