"""The day close on a real Celery worker, with Redis as the broker and PostgreSQL underneath:
the request queues the task on commit, a worker process (``celery worker``) runs it, and asking
again changes nothing."""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Iterator
from typing import Any

import pytest

from brag_event.closing.services import day_close_request
from brag_event.events.models import DayClose
from brag_event.players.models import Qualification
from tests.factories import assert_audit_ok, played, world
from tests.worker import celery_worker, wait_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


@pytest.fixture
def worker() -> Iterator[subprocess.Popen[bytes]]:
    with celery_worker(f"test-{os.getpid()}") as proc:
        yield proc


def test_the_day_close_runs_on_a_real_worker_and_twice_is_once(worker: Any) -> None:
    w = world(3, money=1000, buy_in=200)
    played(w)
    close = day_close_request(day=w.day, by=None)  # queued when this commits
    close = wait_for(close, worker)
    assert close.status == DayClose.Status.DONE, close.report
    assert close.runs == 1 and close.progress == 100
    assert Qualification.objects.filter(day__number=2).count() == 3
    again = day_close_request(day=w.day, by=None)
    assert again.pk == close.pk
    time.sleep(1)
    close.refresh_from_db()
    assert close.runs == 1
    assert_audit_ok(w.event)
