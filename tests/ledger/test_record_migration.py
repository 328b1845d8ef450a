"""The rows of the kinds the money record took in issue 42 (dealers' shifts, counts, rulings and
waivers, lifted disqualifications, large pots waiting and withdrawn, players' identities, a
close under way, a day's standings closed before they were chained) made before its
migrations audit clean after them: each migration puts the
rows it finds onto its event's money record (and a close under way gets its request on its
day's own chain), so no row of before is exempt.

The rows are made by the services as they were (the chaining of these kinds taken out), then
each migration's data step runs on the migrations' own models (``MigrationExecutor``'s project
state), in the migrations' order. Migrating the schema back and forth as well (the pattern of
``tests/players/test_people.py``) costs 16 s here for nothing these migrations wrote: their
schema steps are Django's ``AddField`` and ``CreateModel``."""

from __future__ import annotations

from importlib import import_module
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from brag_event.closing import count as closing_count
from brag_event.closing import services as closing_services
from brag_event.closing.count import count_difference_rule, day_count_waive, table_count_enter
from brag_event.closing.models import CloseRequest, SeatCount, TableCount
from brag_event.closing.services import day_close_request
from brag_event.core.actors import Actor
from brag_event.events.models import Day, DayClose, Event
from brag_event.events.services import day_update_rules
from brag_event.floor import awards as floor_awards
from brag_event.floor import services as floor_services
from brag_event.floor.models import AwardConfirmation, Penalty
from brag_event.floor.services import hand_award_confirm, penalty_lift
from brag_event.hands.services import hand_void_last_action
from brag_event.ledger import audit as ledger_audit_module
from brag_event.ledger import record as ledger_record
from brag_event.ledger.audit import ledger_audit
from brag_event.players import people as players_people
from brag_event.players import services as players_services
from brag_event.players.models import Player
from brag_event.players.people import person_merge
from brag_event.players.services import player_register
from brag_event.tables import shifts as tables_shifts
from brag_event.tables.models import DealerShift, Seat
from brag_event.tables.shifts import shift_sign_in
from tests.factories import act, disqualify, user_in, world
from tests.integrity.test_insider_rows import one_wins

pytestmark = pytest.mark.django_db

# The migrations that put each app's rows on the record, in the order they run.
SEALS = [
    ("tables", "0008_shifts_on_money_record"),
    ("floor", "0005_lifts_and_large_pots_on_money_record"),
    ("closing", "0002_count_on_the_record"),
    ("players", "0012_people_on_record_and_checkin"),
    ("events", "0016_standings_and_rules_changes_on_record"),
]


def _unchained(monkeypatch: pytest.MonkeyPatch) -> None:
    """The services as they were before the migrations: none of these rows chained."""

    def nothing(*_args: Any, **_kwargs: Any) -> None:
        return None

    for module, name in [
        (tables_shifts, "shift_record_start"),
        (tables_shifts, "shift_record_end"),
        (closing_count, "count_record"),
        (closing_count, "ruling_record"),
        (closing_count, "waiver_record"),
        (closing_services, "close_request_record"),
        (closing_services, "standings_chain"),
        (players_services, "players_record"),
        (players_people, "merge_record"),
    ]:
        monkeypatch.setattr(module, name, nothing)
    monkeypatch.setattr(floor_awards, "_chain", lambda *_a, **_k: (None, ""))
    monkeypatch.setattr(floor_services, "record_append", lambda *_a, **_k: (None, ""))
    monkeypatch.setattr(floor_services, "record_for_change", nothing)
    # And the audit as it was (a close's audit among them): transfers and seats on the record.
    monkeypatch.setattr(
        ledger_record,
        "RECORD_SOURCES",
        [s for s in ledger_record.RECORD_SOURCES if s.name in ("transfers", "seats")],
    )
    monkeypatch.setattr(
        ledger_audit_module,
        "_REGISTERED",
        [
            c
            for c in ledger_audit_module._REGISTERED
            if c[0] not in ("closes kept their count", "standings are on the record")
        ],
    )


def test_rows_made_before_the_migrations_audit_clean_after_them(
    monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    with monkeypatch.context() as before:
        _unchained(before)
        # Event A: shifts, large pots (confirmed, withdrawn, waiting), a lift, a merge.
        a = world(3)
        day_update_rules(day=a.day, changes={"award_confirm_from": 20}, by=None)
        dee, dan = Actor(user_in("dealer", "dee"), "t"), Actor(user_in("dealer", "dan"), "t")
        sue = Actor(user_in("supervisor", "sue"), "phone")
        shift_sign_in(table=a.table, by=dee)
        shift_sign_in(table=a.table, by=dan)
        confirmed, _last = one_wins(a, dan)
        hand_award_confirm(hand=confirmed, by=sue)
        undone, last = one_wins(a, dan)
        hand_void_last_action(hand=undone, reason="did not fold", by=sue)
        act(undone, by=dan, seat=last, action="fold")
        dora = player_register(event=a.event, name="Dora", starting_money=100, by=None)
        penalty_lift(penalty=disqualify(a.table, dora).penalties.get(), reason="ok", by=None)
        # Event B: its close waits for the count, counted and ruled; Andy merged into A's.
        b = world(3, name="SECOND", count=True)
        one_wins(b, None)
        with django_capture_on_commit_callbacks(execute=True):
            day_close_request(day=b.day, by=None)
        stacks = dict(Seat.objects.filter(table=b.table).values_list("number", "stack"))
        table_count_enter(
            table=b.table, counts={1: stacks[1] - 5, 2: stacks[2], 3: stacks[3] + 5}, by=None
        )
        for number, ruling in ((1, "correct"), (3, "accept")):
            count_difference_rule(
                seat_count=SeatCount.objects.get(seat__table=b.table, seat__number=number),
                ruling=ruling,
                reason="chips",
                by=None,
            )
        person_merge(
            keep=Player.objects.get(event=a.event, name="Andy").person,
            remove=Player.objects.get(event=b.event, name="Andy").person,
            by=None,
        )
        # Event C: its count waived, its close done.
        c = world(2, name="THIRD", count=True)
        with django_capture_on_commit_callbacks(execute=True):
            day_close_request(day=c.day, by=None)
        day_count_waive(day=c.day, reason="no time", by=None)
        with django_capture_on_commit_callbacks(execute=True):
            day_close_request(day=c.day, by=None)
        assert DayClose.objects.get(day=c.day).status == DayClose.Status.DONE
    assert {a.status for a in AwardConfirmation.objects.all()} == {
        "confirmed",
        "withdrawn",
        "waiting",
    }
    assert not DealerShift.objects.filter(start_seq__isnull=False).exists()
    assert not Player.objects.filter(person_seq__isnull=False).exists()
    assert not TableCount.objects.filter(record_seq__isnull=False).exists()
    assert not CloseRequest.objects.exists()
    assert DayClose.objects.get(day=c.day).standings_seq is None  # closed, its standings loose
    events = [a.event, b.event, c.event]
    assert not any(ledger_audit(event=e).ok for e in events)  # rows on no record, before

    loader = MigrationExecutor(connection).loader
    state = loader.project_state(loader.graph.leaf_nodes())
    for app, name in SEALS:
        import_module(f"brag_event.{app}.migrations.{name}").seal(state.apps, None)

    for event in events:
        report = ledger_audit(event=Event.objects.get(pk=event.pk))
        assert report.ok, "\n".join(report.lines())
    assert not Player.objects.filter(person_seq__isnull=True).exists()
    assert not DealerShift.objects.filter(start_seq__isnull=True).exists()
    assert not AwardConfirmation.objects.filter(wait_seq__isnull=True).exists()
    assert Penalty.objects.get(player=dora).lift_record_seq is not None
    # C's day, closed before, has its standings sealed on the money record as they were.
    sealed = DayClose.objects.get(day=c.day)
    assert sealed.standings_sealed and sealed.standings_seq is not None
    assert sealed.standings is not None and len(sealed.standings["rows"]) == 2
    # B's close under way got its request on the day's own chain, and goes ahead as recorded.
    (asked,) = CloseRequest.objects.filter(day=b.day)
    assert (asked.count, asked.queued, asked.tables, asked.seq) == (True, False, [1], 1)
    with django_capture_on_commit_callbacks(execute=True):
        day_close_request(day=Day.objects.get(pk=b.day.pk), by=None)
    closed = DayClose.objects.get(day=b.day)
    assert closed.status == DayClose.Status.DONE and not closed.standings_sealed
    report = ledger_audit(event=Event.objects.get(pk=b.event.pk))
    assert report.ok, "\n".join(report.lines())
    assert "1 closes that required the count" in "\n".join(report.lines())
