"""The close's row is its job's outbox (issue 29): asked while the job queue (Redis, Celery's
broker) cannot be reached, the close is committed, its page says in words that it waits for the
queue, and it is sent again — by Celery beat's sweep or by the next look at its page — once the
queue is back, with nobody pressing anything. (``tests/production/test_redis_outage.py`` does the
same with a real Redis stopped and started again.)"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.contrib.auth.models import Group, User
from django.test import Client
from django.utils import timezone
from django.utils.html import escape

from brag_event.celery import app
from brag_event.closing.services import REDISPATCH_AFTER, day_close_request, day_closes_waiting
from brag_event.closing.tasks import day_close_requeue_task, day_closes_requeue
from brag_event.events.models import Day, DayClose
from brag_event.organiser.closing_report import WAITING_WORDS
from tests.factories import world

pytestmark = pytest.mark.django_db


@contextmanager
def broker(url: str) -> Iterator[None]:
    """Tasks sent to the broker at ``url`` (not run eagerly) for the block."""
    saved = app.conf.broker_url, app.conf.task_always_eager
    app.conf.broker_url, app.conf.task_always_eager = url, False
    app._pool = app.amqp._producer_pool = None  # the pools are made for one broker
    try:
        yield
    finally:
        app.conf.broker_url, app.conf.task_always_eager = saved
        app._pool = app.amqp._producer_pool = None


DOWN = "redis://127.0.0.1:1/0"  # nobody listens on port 1: Redis down


@pytest.fixture
def queue_down() -> Iterator[None]:
    with broker(DOWN):
        yield


def organiser() -> Client:
    user = User.objects.create_user("org", password="pw")
    user.groups.add(Group.objects.get_or_create(name="organiser")[0])
    client = Client()
    client.force_login(user)
    return client


def test_a_close_asked_with_the_queue_down_waits_in_words_and_runs_when_it_is_back(
    django_capture_on_commit_callbacks: Any, queue_down: None
) -> None:
    w = world(3)
    page = organiser()
    started = time.monotonic()
    with django_capture_on_commit_callbacks(execute=True):
        answer = page.post(f"/organiser/days/{w.day.pk}/close/", {"confirm": "yes"})
    assert answer.status_code == 302, answer.content[:500]  # not a 500: the request committed
    assert time.monotonic() - started < 10
    close = DayClose.objects.get(day=w.day)
    assert close.status == DayClose.Status.QUEUED and close.runs == 0
    assert close.dispatched_at is None and close.queue_error
    assert Day.objects.get(pk=w.day.pk).status == Day.Status.CLOSING  # out of play at once
    assert day_closes_waiting() == [close.pk]

    # The page says it waits for the queue, in words (and so does its poll).
    shown = page.get(f"/organiser/days/{w.day.pk}/close/")
    assert shown.status_code == 200
    assert escape(WAITING_WORDS) in shown.content.decode()
    polled = page.get(f"/organiser/days/{w.day.pk}/close/status/").json()
    assert polled["waiting"] is True and polled["step"] == "waiting for the job queue"

    # The sweep finds the queue still down: nothing sent, nothing lost.
    assert day_closes_requeue() == 0
    assert DayClose.objects.get(pk=close.pk).status == DayClose.Status.QUEUED


def test_the_sweep_sends_a_waiting_close_once_the_queue_is_back(
    django_capture_on_commit_callbacks: Any,
) -> None:
    w = world(3)
    with broker(DOWN), django_capture_on_commit_callbacks(execute=True):
        close = day_close_request(day=w.day, by=None)
    assert DayClose.objects.get(pk=close.pk).queue_error
    # The queue is back (tasks run eagerly here): beat's sweep sends it, and it runs.
    assert day_close_requeue_task.apply().get() == 1
    done = DayClose.objects.get(pk=close.pk)
    assert done.status == DayClose.Status.DONE and done.runs == 1
    assert done.queue_error == "" and done.dispatched_at is not None
    assert Day.objects.get(pk=w.day.pk).status == Day.Status.CLOSED
    # Idempotent: the next sweep finds nothing to send.
    assert day_closes_waiting() == [] and day_closes_requeue() == 0


def test_a_job_lost_with_the_queue_is_sent_again_after_a_while_only(
    django_capture_on_commit_callbacks: Any,
) -> None:
    """Redis restarted without its data loses a job it had accepted: the close, queued and
    never started, is sent again once ``REDISPATCH_AFTER`` has passed — not before."""
    w = world(3)
    with django_capture_on_commit_callbacks(execute=False):  # the job never reaches a worker
        close = day_close_request(day=w.day, by=None)
    now = timezone.now()
    DayClose.objects.filter(pk=close.pk).update(dispatched_at=now)
    assert day_closes_waiting() == []  # sent a moment ago: a worker may be on its way
    DayClose.objects.filter(pk=close.pk).update(dispatched_at=now - REDISPATCH_AFTER * 2)
    assert day_closes_waiting() == [close.pk]
