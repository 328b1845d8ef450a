"""The outbox on a real Celery worker (Redis, PostgreSQL): a worker killed in the middle of
sending an email leaves the notice owed, and after a restart it is sent exactly once."""

from __future__ import annotations

import asyncio
import os
import signal
import threading
import time
from typing import Any

import pytest
from django.db import transaction

from brag_event.notify.models import Kind, Notice
from brag_event.notify.services import contact_update, notice_write
from brag_event.notify.tasks import notice_requeue_task
from tests.worker import celery_worker

from .smtp import Inbox, _Keep, smtp_server
from .test_emails import make_players

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


class StallFirst(_Keep):
    """Keeps messages, but holds the first sender at its recipient (before any message is
    handed over) until the test has killed it."""

    def __init__(self, inbox: Inbox) -> None:
        super().__init__(inbox)
        self.reached = threading.Event()
        self.stalled = False

    async def handle_RCPT(
        self, server: Any, session: Any, envelope: Any, address: str, options: Any
    ) -> str:
        if not self.stalled:
            self.stalled = True
            self.reached.set()
            await asyncio.sleep(20)
        envelope.rcpt_tos.append(address)
        return "250 OK"


def wait(until: Any, seconds: float, what: str) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if until():
            return
        time.sleep(0.2)
    pytest.fail(f"waited {seconds} s for {what}")


def test_a_worker_killed_mid_send_sends_once_after_a_restart(monkeypatch: Any) -> None:
    inbox = Inbox()
    handler = StallFirst(inbox)
    with smtp_server(handler) as box:
        handler.inbox = box
        for name, value in {
            "EMAIL_HOST": "127.0.0.1",
            "EMAIL_PORT": str(box.port),
            "BRAG_NOTIFY_LEASE_SECONDS": "2",
            "BRAG_CELERY_VISIBILITY_TIMEOUT": "3",
        }.items():
            monkeypatch.setenv(name, value)
        _event, _day, (p,) = make_players(1)
        contact_update(player=p, email="one@example.org", kinds=[Kind.SEAT], by=None)
        queue = f"test-notify-{os.getpid()}"
        with celery_worker(queue) as first:
            with transaction.atomic():  # queued to the worker when this commits
                (notice,) = notice_write(
                    player=p, kind=Kind.SEAT, fact="seat-day-x", subject="Seat", body="table 1"
                )
            assert handler.reached.wait(60), "the worker never reached the mail server"
            notice.refresh_from_db()
            assert notice.status == Notice.Status.SENDING and notice.attempts == 1
            os.kill(first.pid, signal.SIGKILL)
            first.wait(timeout=20)
        assert box.messages == []
        with celery_worker(queue) as second:
            time.sleep(2.5)  # the dead worker's claim lapses
            notice_requeue_task.delay()  # the beat's sweep; the task itself also comes back
            wait(lambda: Notice.objects.get(pk=notice.pk).status == Notice.Status.SENT, 60, "sent")
            time.sleep(4)  # anything sent twice would have arrived by now
            assert second.poll() is None
        notice.refresh_from_db()
        assert len(box.messages) == 1 and box.messages[0]["To"] == "one@example.org"
        assert notice.attempts == 2 and notice.sent_at is not None
