"""The monitor's Celery tasks: Celery beat's periodic check, and the run after a day's close —
in-process, and on a real worker with Redis as the broker (PostgreSQL underneath)."""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings

from brag_event.celery import app
from brag_event.closing.services import day_close_request, day_close_run
from brag_event.events.models import DayClose
from brag_event.integrity.models import IntegrityRun
from brag_event.integrity.tasks import integrity_check_all_task, integrity_check_event_task
from tests.worker import celery_worker, wait_for

from .conftest import Floor


def test_beat_runs_the_check_beside_the_ledger_audit() -> None:
    schedule = settings.CELERY_BEAT_SCHEDULE
    assert schedule["integrity-check"]["task"] == "integrity.check_all"
    assert "ledger-check" in schedule
    assert "integrity.check_all" in app.tasks and "integrity.check_event" in app.tasks


@pytest.mark.django_db
def test_the_periodic_task_checks_each_event_with_news_once(floor: Floor) -> None:
    floor.folded_hand()
    assert integrity_check_all_task.delay().get() == 1
    assert integrity_check_all_task.delay().get() == 0  # nothing new: safe to run again
    assert IntegrityRun.objects.get().trigger == "periodic"
    run_id = integrity_check_event_task.delay(floor.world.event.pk).get()
    assert IntegrityRun.objects.get(pk=run_id).trigger == "day_close"


@pytest.mark.django_db
def test_a_day_close_queues_a_run_when_it_is_done(
    floor: Floor, django_capture_on_commit_callbacks: Any
) -> None:
    floor.folded_hand()
    close = DayClose.objects.create(day=floor.world.day)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        close = day_close_run(close_id=close.pk)
    assert close.status == DayClose.Status.DONE
    assert len(callbacks) == 1
    run = IntegrityRun.objects.get()
    assert (run.trigger, run.day, run.hands) == ("day_close", floor.world.day, 1)
    # A failed close sends nothing.
    assert IntegrityRun.objects.count() == 1


@pytest.fixture
def worker() -> Iterator[subprocess.Popen[bytes]]:
    """A real worker that also takes tasks queued by the worker itself (the close queues the
    monitor's run from inside the worker, on Celery's default queue)."""
    with celery_worker(f"test-integrity-{os.getpid()}", "celery") as proc:
        yield proc


@pytest.mark.slow  # a real Celery worker
@pytest.mark.django_db(transaction=True)
def test_the_close_and_the_run_after_it_on_a_real_worker(floor: Floor, worker: Any) -> None:
    floor.showdown_hand()
    close = day_close_request(day=floor.world.day, by=None)  # queued when this commits
    close = wait_for(close, worker)
    assert close.status == DayClose.Status.DONE, close.report
    end = time.monotonic() + 60
    while not IntegrityRun.objects.exists():
        assert time.monotonic() < end, "the worker never ran the monitor"
        assert worker.poll() is None, worker.stdout.read().decode(errors="replace")
        time.sleep(0.2)
    run = IntegrityRun.objects.get()
    assert (run.trigger, run.day_id, run.hands) == ("day_close", floor.world.day.pk, 1)
