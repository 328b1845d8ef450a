"""A deadlock that still happens is run again by the service layer; past that, ``Busy``: a 503
with ``Retry-After`` from the API (nothing kept under the idempotency key), a message on a page,
a retry in a task. The deadlocks here are real ones, made on purpose on PostgreSQL."""

from __future__ import annotations

import os
import threading
from typing import Any

import pytest
from django.contrib.auth.models import Group, User
from django.db import OperationalError, connection, connections, transaction
from rest_framework.test import APIClient

from brag_event.api.models import IdempotencyRecord
from brag_event.closing import services as closing
from brag_event.closing.services import day_close_request
from brag_event.core import transactions
from brag_event.core.errors import Busy, ServiceError
from brag_event.events.models import Day, DayClose
from brag_event.tables.models import Seat
from brag_event.tables.services import seat_sit_out
from tests.factories import assert_audit_ok, user_in, world
from tests.races.harness import Outcome, _blocked_or_done, _run, _Watch

TABLE_LOCK = 'FROM "tables_table"'


def _postgresql() -> None:
    if connection.vendor != "postgresql":
        if os.environ.get("CI"):
            pytest.fail("the deadlock tests must run on PostgreSQL in CI")
        pytest.skip("deadlocks are made on PostgreSQL (set DATABASE_URL)")


def deadlock(seat: Seat, job: Any) -> tuple[Outcome, int]:
    """Run ``job`` — something that locks the seat's table, then the seat (a sit-out) — while
    another transaction holds the seat; once ``job`` waits for it, that transaction asks for the
    table: a real deadlock. ``job`` waited first, so PostgreSQL's check runs in its backend, and
    its transaction is the one rolled back. Returns its outcome and how many times it locked
    the table (once per run of its transaction)."""
    held, go = threading.Event(), threading.Event()
    locks = [0]

    def holder() -> None:
        try:
            with transaction.atomic(), connection.cursor() as cursor:
                cursor.execute("SELECT 1 FROM tables_seat WHERE id = %s FOR UPDATE", [seat.pk])
                held.set()
                go.wait(timeout=20)
                cursor.execute(
                    "SELECT 1 FROM tables_table WHERE id = %s FOR UPDATE", [seat.table_id]
                )
        finally:
            connections.close_all()

    watch = _Watch()
    outcome: list[Outcome] = []
    done = threading.Event()

    def count(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        if TABLE_LOCK in sql and "FOR NO KEY UPDATE" in sql:
            locks[0] += 1
        return watch(execute, sql, params, many, context)

    def service() -> None:
        try:
            with connection.execute_wrapper(count):
                outcome.append(_run(job))
        finally:
            done.set()
            connections.close_all()

    first = threading.Thread(target=holder)
    first.start()
    assert held.wait(timeout=20)
    second = threading.Thread(target=service)
    second.start()
    assert watch.started.wait(timeout=20)
    assert _blocked_or_done(watch.pid, done, 10.0) == "blocked"
    go.set()
    first.join(timeout=30)
    second.join(timeout=30)
    return outcome[0], locks[0]


@pytest.mark.django_db(transaction=True)
def test_a_service_caught_in_a_deadlock_runs_again_and_gets_through() -> None:
    _postgresql()
    w = world(3)
    seat = w.seat(2)
    outcome, runs = deadlock(
        seat, lambda: seat_sit_out(seat=Seat.objects.get(pk=seat.pk), sitting_out=True, by=None)
    )
    assert outcome.kind == "ok", outcome
    assert runs == 2  # rolled back by PostgreSQL once, then through
    assert Seat.objects.get(pk=seat.pk).sitting_out
    assert_audit_ok(w.event)


@pytest.mark.django_db(transaction=True)
def test_past_its_retries_a_service_answers_busy_in_words(monkeypatch: Any) -> None:
    _postgresql()
    monkeypatch.setattr(transactions, "RETRIES", 0)
    w = world(3)
    seat = w.seat(2)
    outcome, runs = deadlock(
        seat, lambda: seat_sit_out(seat=Seat.objects.get(pk=seat.pk), sitting_out=True, by=None)
    )
    assert (outcome.kind, outcome.value, runs) == ("refused", "busy", 1), outcome
    assert outcome.message.startswith("Someone else was changing the same table")
    assert not Seat.objects.get(pk=seat.pk).sitting_out  # nothing was saved


def organiser_client() -> APIClient:
    client = APIClient()
    client.force_authenticate(user_in("organiser", "org"))
    return client


def sit_out_request(client: APIClient, seat: Seat) -> Any:
    def job() -> Any:
        return client.post(
            f"/api/v1/seats/{seat.pk}/sit-out/",
            {"sitting_out": True},
            format="json",
            HTTP_IDEMPOTENCY_KEY="sit-out-1",
        )

    return job


@pytest.mark.django_db(transaction=True)
def test_an_api_write_caught_in_a_deadlock_is_run_again_under_its_key() -> None:
    _postgresql()
    w = world(3)
    seat = w.seat(2)
    outcome, runs = deadlock(seat, sit_out_request(organiser_client(), seat))
    assert outcome.kind == "ok" and outcome.value.status_code == 200, outcome
    assert runs == 2
    assert IdempotencyRecord.objects.filter(key="sit-out-1").count() == 1


@pytest.mark.django_db(transaction=True)
def test_past_its_retries_the_api_answers_503_and_keeps_nothing_under_the_key(
    monkeypatch: Any,
) -> None:
    _postgresql()
    monkeypatch.setattr(transactions, "RETRIES", 0)
    monkeypatch.setattr("brag_event.api.idempotency.RETRIES", 0)
    w = world(3)
    seat = w.seat(2)
    client = organiser_client()
    outcome, _runs = deadlock(seat, sit_out_request(client, seat))
    response = outcome.value
    assert response.status_code == 503 and response["Retry-After"] == "1", response.content
    assert response.json()["error"]["code"] == "busy"
    assert not IdempotencyRecord.objects.exists()  # a retry with the same key runs again
    again = sit_out_request(client, seat)()
    assert again.status_code == 200 and "Idempotent-Replayed" not in again
    assert Seat.objects.get(pk=seat.pk).sitting_out


def test_only_deadlocks_and_serialization_failures_are_run_again() -> None:
    class Cause(Exception):
        def __init__(self, sqlstate: str) -> None:
            self.sqlstate = sqlstate

    def error(sqlstate: str) -> OperationalError:
        err = OperationalError("x")
        err.__cause__ = Cause(sqlstate)
        return err

    assert transactions.transient(error("40P01")) and transactions.transient(error("40001"))
    assert not transactions.transient(error("57P01"))  # the server went away: not this
    assert not transactions.transient(OperationalError("no cause"))
    assert transactions.transient(Busy())
    assert not transactions.transient(ServiceError("x", "y"))


@pytest.mark.django_db
def test_a_page_shows_busy_in_words(client: Any, monkeypatch: Any) -> None:
    w = world(2)
    user = User.objects.create_user("org", password="x")
    user.groups.add(Group.objects.get_or_create(name="organiser")[0])
    client.force_login(user)

    def busy(**kwargs: Any) -> Any:
        raise Busy()

    monkeypatch.setattr("brag_event.organiser.player_views.player_issue_money", busy)
    response = client.post(
        f"/organiser/events/{w.event.pk}/players/",
        {"form": "issue", "player": w.players[0].pk, "amount": "10"},
    )
    assert response.status_code == 400  # the form again, with the refusal in words
    assert "Someone else was changing the same table, player or day" in response.content.decode()


@pytest.mark.django_db
def test_the_close_task_runs_again_when_the_database_gave_up(
    monkeypatch: Any, django_capture_on_commit_callbacks: Any
) -> None:
    w = world(2)
    real = closing._finish
    calls = [0]

    def once_busy(*args: Any, **kwargs: Any) -> Any:
        calls[0] += 1
        if calls[0] == 1:
            raise Busy()
        return real(*args, **kwargs)

    monkeypatch.setattr(closing, "_finish", once_busy)
    with django_capture_on_commit_callbacks(execute=True):
        close = day_close_request(day=w.day, by=None)
    close.refresh_from_db()
    assert close.status == DayClose.Status.DONE and close.runs == 2, (close.status, close.step)
    assert Day.objects.get(pk=w.day.pk).status == Day.Status.CLOSED


@pytest.mark.django_db
def test_a_close_the_database_keeps_refusing_fails_in_words_and_can_be_asked_again(
    monkeypatch: Any, django_capture_on_commit_callbacks: Any
) -> None:
    w = world(2)
    real = closing._finish

    def always_busy(*args: Any, **kwargs: Any) -> Any:
        raise Busy()

    monkeypatch.setattr(closing, "_finish", always_busy)
    with django_capture_on_commit_callbacks(execute=True):
        close = day_close_request(day=w.day, by=None)
    close.refresh_from_db()
    assert close.status == DayClose.Status.FAILED and close.report["error"]["code"] == "busy"
    assert close.runs == 1 + closing_task_retries()
    assert Day.objects.get(pk=w.day.pk).status == Day.Status.CLOSING
    monkeypatch.setattr(closing, "_finish", real)
    with django_capture_on_commit_callbacks(execute=True):
        day_close_request(day=w.day, by=None)
    close.refresh_from_db()
    assert close.status == DayClose.Status.DONE


def closing_task_retries() -> int:
    from brag_event.closing.tasks import CLOSE_RETRIES

    return CLOSE_RETRIES
