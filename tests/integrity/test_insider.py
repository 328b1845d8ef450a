"""An insider with database write access (the append-only triggers on), attacking in SQL: each
attack of issue 29 passed the ledger audit before the event's money record, and is caught and
named now (docs/integrity.md, "What an insider can and cannot do"). Run on PostgreSQL (the
attacks are its SQL): ``DATABASE_URL=postgres://… pytest tests/integrity/test_insider.py``."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.db import DatabaseError, connection, transaction
from django.test.client import Client
from django.utils import timezone

from brag_event.closing.services import day_close_request
from brag_event.events.models import Day, DayClose, Event
from brag_event.events.services import day_open
from brag_event.hands.models import Hand
from brag_event.ledger.audit import ledger_audit
from brag_event.ledger.models import Account, Transfer
from brag_event.ledger.services import account_issuer, account_player
from brag_event.players.models import Player
from brag_event.tables.models import Seat
from brag_event.tables.services import seat_leave
from tests.admin.conftest import admin_url, change_form_data
from tests.factories import World, act, start, world

pytestmark = pytest.mark.django_db

MONEY = "money record is intact"


def sql(statement: str, params: list[Any]) -> None:
    with connection.cursor() as cur:
        cur.execute(statement, params)


def insert_transfer(w: World, kind: str, source: Account, target: Account, amount: int) -> int:
    """A transfer as a plain INSERT, outside the services."""
    with connection.cursor() as cur:
        cur.execute(
            f"INSERT INTO {Transfer._meta.db_table} (event_id, kind, source_id, target_id, "
            "amount, memo, created_at, record_hash) VALUES (%s, %s, %s, %s, %s, '', %s, '') "
            "RETURNING id",
            [w.event.pk, kind, source.pk, target.pk, amount, timezone.now()],
        )
        return int(cur.fetchone()[0])


def fix_balance(player: Player, delta: int) -> None:
    sql(
        f"UPDATE {Player._meta.db_table} SET balance = balance + %s WHERE id = %s",
        [delta, player.pk],
    )


def problems(event: Event, check: str = MONEY) -> list[str]:
    report = ledger_audit(event=event)
    assert not report.ok
    failed = [c.name for c in report.checks if not c.ok]
    assert check in failed, report.lines()
    return [p for p in report.problems if p.startswith(check)]


def settled(w: World) -> Hand:
    hand = start(w)
    n = len(w.seats)
    first, *others = [(hand.dealer_seat + i) % n + 1 for i in range(n)]
    act(hand, seat=first, action="look")
    act(hand, seat=first, action="bet", amount=10)
    for seat in others:
        hand, _state = act(hand, seat=seat, action="fold")
    assert hand.status == Hand.Status.SETTLED
    return hand


def test_money_issued_in_sql_with_the_balance_raised_is_caught() -> None:
    w = world(3)
    assert ledger_audit(event=w.event).ok
    player = w.players[0]
    pk = insert_transfer(w, "issue", account_issuer(w.event), account_player(player), 5000)
    fix_balance(player, 5000)
    found = problems(w.event)
    assert any(f"transfer {pk} (issue 5000, issuer → player) is on no record" in p for p in found)
    assert any("the ledger has 8000 issued, the record 3000" in p for p in found), found


def test_money_moved_between_players_in_sql_with_both_balances_fixed_is_caught() -> None:
    w = world(3)
    a, b = w.players[:2]
    pk = insert_transfer(w, "leave", account_player(a), account_player(b), 300)
    fix_balance(a, -300)
    fix_balance(b, 300)
    found = problems(w.event)
    assert any(f"transfer {pk} (leave 300, player → player) is on no record" in p for p in found)


def test_an_occupied_seat_given_to_another_player_in_sql_is_caught() -> None:
    w = world(4)
    seat_leave(seat=w.seats[3], by=None)  # the fourth player is free to be named
    seat = w.seats[0]
    sql(
        f"UPDATE {Seat._meta.db_table} SET player_id = %s WHERE id = %s",
        [w.players[3].pk, seat.pk],
    )
    found = problems(w.event)
    assert any(
        f"seat 1 of table 1, day 1 (seat id {seat.pk}): taken: does not match its hash" in p
        for p in found
    ), found


def test_a_seat_left_in_sql_or_seated_again_is_caught() -> None:
    w = world(3)
    left, seated = w.seats[0], w.seats[1]
    seat_leave(seat=left, by=None)
    sql(f"UPDATE {Seat._meta.db_table} SET left_at = NULL WHERE id = %s", [left.pk])
    sql(
        f"UPDATE {Seat._meta.db_table} SET left_at = %s WHERE id = %s",
        [timezone.now(), seated.pk],
    )
    found = problems(w.event)
    assert any("seat 1 of table 1, day 1" in p and "seated again" in p for p in found), found
    assert any("seat 2 of table 1, day 1" in p and "is on no record" in p for p in found), found


def test_a_settled_hands_result_rewritten_in_sql_is_caught() -> None:
    w = world(3)
    hand = settled(w)
    assert ledger_audit(event=w.event).ok
    # The pot shown as won by another seat (what players' pages show), the money untouched.
    result = dict(hand.result or {})
    pot = result["pots"][0]
    (winner,) = pot["winners"]
    other = next(str(s["seat"]) for s in hand.seats if str(s["seat"]) != str(winner))
    result["pots"] = [pot | {"winners": [int(other)], "shares": {other: pot["amount"]}}]
    sql(
        f"UPDATE {Hand._meta.db_table} SET result = %s WHERE id = %s",
        [json.dumps(result), hand.pk],
    )
    found = problems(w.event, "hands replay to their transfers")
    assert found == [
        "hands replay to their transfers: "
        f"Hand {hand.number} at table 1: its stored result is not its replay's (pots rewritten)"
    ]


def test_the_money_record_at_a_close_enters_the_published_root(
    django_capture_on_commit_callbacks: Any,
) -> None:
    """A closed day's root takes the money record as it stood: rewriting an entry before the
    close (even with every hash after it recomputed) breaks the published root."""
    w = world(3)
    settled(w)
    with django_capture_on_commit_callbacks(execute=True):
        day_close_request(day=w.day, by=None)
    day = Day.objects.get(pk=w.day.pk)
    assert day.status == Day.Status.CLOSED and day.record_money_seq
    assert ledger_audit(event=w.event).ok
    # The record's row rewound to its genesis: the entries after it are stray.
    sql("UPDATE ledger_moneyrecord SET next_seq = 1 WHERE event_id = %s", [w.event.pk])
    found = problems(w.event)
    assert any("is not its last entry's hash" in p for p in found), found


def test_a_closed_days_number_cannot_change_and_later_closes_finish(
    admin_client: Client, django_capture_on_commit_callbacks: Any, settings: Any
) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    w = world(3)
    settled(w)
    with django_capture_on_commit_callbacks(execute=True):
        day_close_request(day=w.day, by=None)
    day = Day.objects.get(pk=w.day.pk)
    assert day.status == Day.Status.CLOSED
    # The admin: the number is read-only — a POST changing it changes nothing.
    url = admin_url(Day, "change", day.pk)
    form = change_form_data(admin_client, url)
    assert "number" not in form
    response = admin_client.post(url, form | {"number": "7"})
    assert response.status_code == 302
    day.refresh_from_db()
    assert day.number == 1
    # SQL: the database refuses it, and an event's identity.
    with pytest.raises(DatabaseError, match="identity_fixed"), transaction.atomic():
        sql(f"UPDATE {Day._meta.db_table} SET number = 7 WHERE id = %s", [day.pk])
    with pytest.raises(DatabaseError, match="identity_fixed"), transaction.atomic():
        sql(
            f"UPDATE {Event._meta.db_table} SET uid = gen_random_uuid() WHERE id = %s"
            if connection.vendor == "postgresql"
            else f"UPDATE {Event._meta.db_table} SET uid = 'x' WHERE id = %s",
            [w.event.pk],
        )
    # The organiser's edits (the name) change nothing of the record.
    Event.objects.filter(pk=w.event.pk).update(name="RENAMED")
    assert ledger_audit(event=w.event).ok
    # The next day opens, plays and closes.
    second = day_open(day=w.event.days.get(number=2), by=None)
    assert second.status == Day.Status.OPEN
    with django_capture_on_commit_callbacks(execute=True):
        close = day_close_request(day=second, by=None)
    close.refresh_from_db()
    assert close.status == DayClose.Status.DONE, close.step
    assert Day.objects.get(pk=second.pk).record_root
