"""A closed day's standings and the qualifications, forged in plain SQL by an insider (issue 42:
each of these passed ``audit_ledger`` before), are named by the audit in words (docs/integrity.md,
"What an insider can and cannot do"). One world, built once for the module; each forgery is a test
of its own, rolled back after it. Written for PostgreSQL, as CI runs it (the statements are
portable: SQLite too)."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.db import connection

from brag_event.closing.services import day_close_request, day_close_run
from brag_event.events.models import Day, DayClose, Event
from brag_event.events.services import day_set_qualification
from brag_event.ledger.audit import ledger_audit
from brag_event.players.models import Player, Qualification, StandingSnapshot
from brag_event.players.qualify import player_requalify
from brag_event.players.services import player_register
from tests.exchange_world import past_event
from tests.factories import play_hand, world
from tests.once import built_once

pytestmark = pytest.mark.django_db

STANDINGS = "standings are on the record"
RECORDS = "hand records are intact"
MONEY = "money record is intact"


def sql(statement: str, params: list[Any] | None = None) -> None:
    with connection.cursor() as cur:
        cur.execute(statement, params or [])


def table(model: Any) -> str:
    return str(model._meta.db_table)


@dataclass
class Built:
    """Event A: Andy wins day 1's hand from Bill, Chris and Dan; Eddie and Fred never sit down
    (did not play: out). Day 1 closed with the top 2 (Andy, and the three tied behind him);
    Eddie let back in for day 2. Event P: a past event imported from a results file."""

    a: int
    day1: int
    day2: int
    players: dict[str, int]
    past: int


def build() -> Built:
    w = world(4)
    for name in ("Eddie", "Fred"):
        player_register(event=w.event, name=name, starting_money=1000, by=None)
    play_hand(w, winner=w.players[0])
    day_set_qualification(day=w.day, rule="top", top=2, by=None)
    close = day_close_request(day=w.day, by=None)
    day_close_run(close_id=close.pk)  # (inside the module's transaction: no commit to run it)
    day2 = w.event.days.get(number=2)
    eddie = Player.objects.get(event=w.event, name="Eddie")
    player_requalify(day=day2, player=eddie, reason="an appeal upheld", by=None)
    return Built(
        a=w.event.pk,
        day1=w.day.pk,
        day2=day2.pk,
        players=dict(Player.objects.filter(event=w.event).values_list("name", "pk")),
        past=past_event().pk,
    )


@pytest.fixture(scope="module")
def built(django_db_setup: None, django_db_blocker: Any) -> Any:
    yield from built_once(django_db_blocker, build)


def named(event_id: int, check: str) -> list[str]:
    """What the audit of the event says is wrong under ``check`` (it must fail)."""
    report = ledger_audit(event=Event.objects.get(pk=event_id))
    assert not report.ok and check in [c.name for c in report.checks if not c.ok], report.lines()
    return [p.removeprefix(f"{check}: ") for p in report.problems if p.startswith(check)]


def test_the_world_audits_clean(built: Built) -> None:
    for event in (built.a, built.past):
        report = ledger_audit(event=Event.objects.get(pk=event))
        assert report.ok, "\n".join(report.lines())
    assert Day.objects.get(pk=built.day1).status == Day.Status.CLOSED
    assert DayClose.objects.get(day_id=built.day1).standings_sealed is False
    assert DayClose.objects.get(day__event_id=built.past).standings_sealed is True


def _snap(b: Built, name: str, day: int | None = None) -> StandingSnapshot:
    return StandingSnapshot.objects.get(day_id=day or b.day1, player_id=b.players[name])


def _total_raised(b: Built) -> tuple[int, str, str]:
    snap = _snap(b, "Bill")
    sql(f"UPDATE {table(StandingSnapshot)} SET total = total + 1000 WHERE id = %s", [snap.pk])
    return (
        b.a,
        STANDINGS,
        f"day 1's standings: Bill (player {snap.player_id})'s money reads "
        f"{snap.total + 1000}, the close recorded {snap.total}",
    )


def _ranks_swapped(b: Built) -> tuple[int, str, str]:
    andy, eddie = _snap(b, "Andy"), _snap(b, "Eddie")
    sql(f"UPDATE {table(StandingSnapshot)} SET rank = %s WHERE id = %s", [eddie.rank, andy.pk])
    sql(f"UPDATE {table(StandingSnapshot)} SET rank = %s WHERE id = %s", [andy.rank, eddie.pk])
    return (
        b.a,
        STANDINGS,
        f"day 1's standings: Andy (player {andy.player_id})'s rank reads {eddie.rank}, the "
        f"close recorded {andy.rank}",
    )


def _row_deleted(b: Built) -> tuple[int, str, str]:
    snap = _snap(b, "Fred")
    sql(f"DELETE FROM {table(StandingSnapshot)} WHERE id = %s", [snap.pk])
    return b.a, STANDINGS, f"day 1's standings: Fred (player {snap.player_id})'s row is missing"


def _qualified_forged(b: Built) -> tuple[int, str, str]:
    """Fred, who did not play day 1, given a place on day 2."""
    fred = b.players["Fred"]
    sql(
        f"INSERT INTO {table(Qualification)} (day_id, player_id, reason, hash) "
        "VALUES (%s, %s, 'top 2', '')",
        [b.day2, fred],
    )
    return (
        b.a,
        STANDINGS,
        f"day 2's qualifiers: Fred (player {fred}) is on no record (neither qualified by day "
        "1's close nor let back in)",
    )


def _qualifier_deleted(b: Built) -> tuple[int, str, str]:
    bill = b.players["Bill"]
    sql(
        f"DELETE FROM {table(Qualification)} WHERE day_id = %s AND player_id = %s",
        [b.day2, bill],
    )
    return (
        b.a,
        STANDINGS,
        f"day 2's qualifiers: Bill (player {bill}), qualified by day 1's close, is missing",
    )


def _let_back_reason(b: Built) -> tuple[int, str, str]:
    q = Qualification.objects.get(day_id=b.day2, player_id=b.players["Eddie"])
    sql(f"UPDATE {table(Qualification)} SET reason = 'a friend' WHERE id = %s", [q.pk])
    return b.a, RECORDS, f"Day 2's own record: let_back seq {q.seq} does not match its hash"


def _let_back_deleted(b: Built) -> tuple[int, str, str]:
    q = Qualification.objects.get(day_id=b.day2, player_id=b.players["Eddie"])
    sql(f"DELETE FROM {table(Qualification)} WHERE id = %s", [q.pk])
    return b.a, RECORDS, "Day 2's own record: its head is not its last record's hash"


def _entry_rewritten(b: Built) -> tuple[int, str, str]:
    """The row and the close's kept copy of it both raised: the copy no longer hashes."""
    close = DayClose.objects.get(day_id=b.day1)
    assert close.standings is not None
    fields = close.standings
    snap = _snap(b, "Bill")
    for row in fields["rows"]:
        if row[0] == snap.player_id:
            row[3] += 1000
    sql(f"UPDATE {table(StandingSnapshot)} SET total = total + 1000 WHERE id = %s", [snap.pk])
    sql(
        f"UPDATE {table(DayClose)} SET standings = %s WHERE id = %s",
        [json.dumps(fields), close.pk],
    )
    return (
        b.a,
        RECORDS,
        f"Day 1's own record: standings seq {close.standings_seq} does not match its hash",
    )


def _entry_removed(b: Built) -> tuple[int, str, str]:
    close = DayClose.objects.get(day_id=b.day1)
    sql(
        f"UPDATE {table(DayClose)} SET standings = NULL, standings_seq = NULL, "
        "standings_hash = '' WHERE id = %s",
        [close.pk],
    )
    return (
        b.a,
        STANDINGS,
        "day 1 has closed, but its standings are on no record (written behind the services, "
        "or their entry removed)",
    )


def _moved_to_the_record(b: Built) -> tuple[int, str, str]:
    """The entry claimed to be on the money record instead: the day's chain loses it."""
    close = DayClose.objects.get(day_id=b.day1)
    sql(f"UPDATE {table(DayClose)} SET standings_sealed = TRUE WHERE id = %s", [close.pk])
    return b.a, MONEY, "day 1's standings as sealed"


def _imported_edited(b: Built) -> tuple[int, str, str]:
    snap = StandingSnapshot.objects.get(day__event_id=b.past, rank=1)
    sql(f"UPDATE {table(StandingSnapshot)} SET total = 99999 WHERE id = %s", [snap.pk])
    return (
        b.past,
        STANDINGS,
        f"day 1's standings: {snap.player.name} (player {snap.player_id})'s money reads 99999, "
        f"the close recorded {snap.total}",
    )


def _imported_field_forged(b: Built) -> tuple[int, str, str]:
    day = Day.objects.get(event_id=b.past, number=1)
    player = Player.objects.filter(event_id=b.past).order_by("pk")[0]
    sql(
        f"INSERT INTO {table(Qualification)} (day_id, player_id, reason, hash) "
        "VALUES (%s, %s, 'forged', '')",
        [day.pk, player.pk],
    )
    return (
        b.past,
        STANDINGS,
        f"day 1's field: {player.name} (player {player.pk}) is on no record (not in the file it "
        "was imported from)",
    )


FORGERIES: list[Callable[[Built], tuple[int, str, str]]] = [
    _total_raised,
    _ranks_swapped,
    _row_deleted,
    _qualified_forged,
    _qualifier_deleted,
    _let_back_reason,
    _let_back_deleted,
    _entry_rewritten,
    _entry_removed,
    _moved_to_the_record,
    _imported_edited,
    _imported_field_forged,
]


@pytest.mark.parametrize("forge", FORGERIES, ids=lambda f: f.__name__.strip("_"))
def test_each_forgery_is_named_in_words(
    built: Built, forge: Callable[[Built], tuple[int, str, str]]
) -> None:
    event, check, said = forge(built)
    found = named(event, check)
    assert any(said in p for p in found), found
