"""The end-of-day count (bag and tag, issue 31): the close waits until every table is counted
and every difference ruled, or the count is waived; a correction is a transfer on the money
record that says where its chips came from, and the ledger audit passes after it."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from brag_event.access.models import StaffRole
from brag_event.audit.models import AuditEntry, Verb
from brag_event.closing.count import (
    count_difference_rule,
    count_report,
    count_state,
    day_count_waive,
    table_count_enter,
)
from brag_event.closing.models import CountWaiver, SeatCount, TableCount
from brag_event.closing.services import day_close_request
from brag_event.core.actors import Actor
from brag_event.events.models import Day, DayClose
from brag_event.events.services import event_create_flash
from brag_event.ledger.audit import ledger_audit
from brag_event.ledger.models import Account, MoneyRecord, Transfer
from brag_event.ledger.record import recompute
from brag_event.ledger.services import account_balance, account_count
from brag_event.players.models import Player
from brag_event.players.selectors import event_names_shown
from brag_event.players.services import player_register
from brag_event.tables.models import Seat
from tests.factories import World, assert_audit_ok, played, refused, user_in, world

pytestmark = pytest.mark.django_db


@pytest.fixture
def commits(django_capture_on_commit_callbacks: Any) -> Any:
    return django_capture_on_commit_callbacks


@pytest.fixture
def w() -> World:
    """Three players at one table of an event that counts at the close, one hand played
    (Bill won 25: stacks Andy 195, Bill 210, Chris 195), the close asked for."""
    w = world(3, count=True)
    played(w)
    close = day_close_request(day=w.day, by=None)
    assert close.status == DayClose.Status.COUNTING
    return w


def stacks(w: World) -> dict[int, int]:
    return dict(Seat.objects.filter(table=w.table).values_list("number", "stack"))


def everything(w: World) -> tuple[Any, ...]:
    """What any service of the count could change."""
    return (
        tuple(Transfer.objects.order_by("pk").values_list("pk")),
        tuple(Seat.objects.order_by("pk").values_list("pk", "stack", "left_at")),
        tuple(SeatCount.objects.order_by("pk").values_list("pk", "counted", "ruling")),
        TableCount.objects.count(),
        CountWaiver.objects.count(),
        AuditEntry.objects.count(),
        tuple(DayClose.objects.values_list("status")),
    )


def close_now(w: World, commits: Any) -> DayClose:
    with commits(execute=True):
        close = day_close_request(day=w.day, by=None)
    close.refresh_from_db()
    return close


def test_the_request_takes_the_day_out_of_play_and_waits_for_the_count(
    w: World, commits: Any
) -> None:
    day = Day.objects.get(pk=w.day.pk)
    assert day.status == Day.Status.CLOSING
    state = count_state(day)
    assert state.uncounted == [1] and not state.done
    err = refused("count_outstanding", lambda: close_now(w, commits))
    assert "table 1 not counted" in err.message and err.details["tables"] == [1]
    assert DayClose.objects.get(day=day).status == DayClose.Status.COUNTING


def test_a_count_equal_to_the_records_leaves_nothing_to_rule(w: World, commits: Any) -> None:
    before = stacks(w)
    table_count_enter(table=w.table, counts=dict(before), by=None)
    state = count_state(w.day)
    assert state.done and state.unruled == [] and state.tables[0].differences == []
    close = close_now(w, commits)
    assert close.status == DayClose.Status.DONE
    report = close.report["count"]
    assert report["tables"] == [{"table": 1, "by": "", "seats": 3, "differences": []}]
    assert report["waived"] is None and report["required"] is True
    assert_audit_ok(w.event)


def test_a_difference_accepted_leaves_the_records_as_they_are(w: World, commits: Any) -> None:
    counts = stacks(w) | {2: 200}  # Bill's bag holds 200; the records say 210
    table_count_enter(table=w.table, counts=counts, by=None)
    assert count_state(w.day).unruled == [1]
    refused("count_outstanding", lambda: close_now(w, commits))
    transfers = Transfer.objects.count()
    row = SeatCount.objects.get(seat__number=2)
    assert row.difference == -10
    ruled = count_difference_rule(
        seat_count=row, ruling="accept", reason="recounted: 210, a stack miscounted", by=None
    )
    assert ruled.ruling == "accept" and ruled.transfer is None
    assert Transfer.objects.count() == transfers and stacks(w)[2] == 210
    close = close_now(w, commits)
    assert close.status == DayClose.Status.DONE
    assert Player.objects.get(name="Bill").balance == 790 + 210
    (table,) = close.report["count"]["tables"]
    assert table["differences"] == [
        {
            "seat": 2,
            "player": "Bill",
            "recorded": 210,
            "counted": 200,
            "difference": -10,
            "ruling": "accept",
            "source": "",
            "reason": "recounted: 210, a stack miscounted",
            "by": "",
        }
    ]
    assert_audit_ok(w.event)


def test_differences_corrected_on_the_money_record_and_the_audit_passes(
    w: World, commits: Any
) -> None:
    """Chips moved by hand: Andy's bag is 15 short, Chris's 15 over. Andy's stack is lowered
    into the count's account, Chris's raised from it; the record chains both and the audit's
    equation holds with the count's account in it."""
    boss = Actor(user_in("organiser", "boss"), "test")
    table_count_enter(table=w.table, counts={1: 180, 2: 210, 3: 210}, by=boss)
    andy, chris = SeatCount.objects.get(seat__number=1), SeatCount.objects.get(seat__number=3)
    # Nothing set aside yet: Chris cannot be raised from the count's chips before Andy is lowered.
    refused(
        "count_source_short",
        lambda: count_difference_rule(
            seat_count=chris, ruling="correct", reason="chips passed", source="count", by=boss
        ),
    )
    refused(
        "count_source_missing",
        lambda: count_difference_rule(
            seat_count=chris, ruling="correct", reason="chips passed", by=boss
        ),
    )
    seq = MoneyRecord.objects.get(event=w.event).next_seq
    count_difference_rule(
        seat_count=andy, ruling="correct", reason="passed 15 to seat 3 by hand", by=boss
    )
    count_difference_rule(
        seat_count=chris, ruling="correct", reason="had 15 of seat 1's", source="count", by=boss
    )
    assert stacks(w) == {1: 180, 2: 210, 3: 210}
    account = account_count(w.event)
    assert account_balance(account) == 0
    moved = list(
        Transfer.objects.filter(kind=Transfer.Kind.COUNT)
        .order_by("pk")
        .values_list("source__kind", "target__kind", "amount", "record_seq", "created_by")
    )
    boss_id = boss.user.pk
    # Each ruling follows its correction on the record: transfer, ruling, transfer, ruling.
    assert moved == [
        (Account.Kind.STACK, Account.Kind.COUNT, 15, seq, boss_id),
        (Account.Kind.COUNT, Account.Kind.STACK, 15, seq + 2, boss_id),
    ]
    assert [SeatCount.objects.get(pk=s.pk).rule_seq for s in (andy, chris)] == [seq + 1, seq + 3]
    assert "passed 15 to seat 3 by hand" in Transfer.objects.get(record_seq=seq).memo
    found = recompute(w.event)
    assert found.problems == [] and found.head is not None and found.head.seq == seq + 3
    assert_audit_ok(w.event)
    close = close_now(w, commits)
    assert close.status == DayClose.Status.DONE, close.report
    balances = dict(Player.objects.values_list("name", "balance"))
    assert balances == {"Andy": 790 + 180, "Bill": 790 + 210, "Chris": 790 + 210}
    rulings = [d["ruling"] for d in close.report["count"]["tables"][0]["differences"]]
    assert rulings == ["correct", "correct"]
    assert AuditEntry.objects.filter(verb=Verb.DAY_COUNT_RULING).count() == 2


def test_chips_missing_stay_set_aside_and_the_equation_counts_them(w: World, commits: Any) -> None:
    table_count_enter(table=w.table, counts={1: 195, 2: 190, 3: 195}, by=None)
    row = SeatCount.objects.get(seat__number=2)
    count_difference_rule(seat_count=row, ruling="correct", reason="20 chips lost", by=None)
    report = ledger_audit(event=w.event)
    assert report.ok, report.lines()
    conservation = next(c for c in report.checks if c.name == "money is conserved")
    assert "count 20" in conservation.detail
    assert close_now(w, commits).status == DayClose.Status.DONE
    assert account_balance(account_count(w.event)) == 20
    assert_audit_ok(w.event)


def test_a_stack_raised_from_the_house_needs_the_house_to_hold_it(w: World) -> None:
    house_account = Account.objects.get(event=w.event, kind=Account.Kind.HOUSE)
    house = account_balance(house_account)
    assert house >= 5  # the buy-ins' fees
    table_count_enter(table=w.table, counts={1: 195, 2: 210 + house + 1, 3: 200}, by=None)
    too_much, five = SeatCount.objects.get(seat__number=2), SeatCount.objects.get(seat__number=3)
    err = refused(
        "count_source_short",
        lambda: count_difference_rule(
            seat_count=too_much, ruling="correct", reason="found", source="house", by=None
        ),
    )
    assert f"only {house}" in err.message
    count_difference_rule(
        seat_count=five, ruling="correct", reason="the house makes it good", source="house", by=None
    )
    assert stacks(w) == {1: 195, 2: 210, 3: 200}
    assert account_balance(house_account) == house - 5
    assert_audit_ok(w.event)


def test_a_ruling_is_given_once_and_only_on_a_difference(w: World) -> None:
    table_count_enter(table=w.table, counts={1: 195, 2: 200, 3: 195}, by=None)
    same = SeatCount.objects.get(seat__number=1)
    refused(
        "count_no_difference",
        lambda: count_difference_rule(seat_count=same, ruling="accept", reason="x", by=None),
    )
    row = SeatCount.objects.get(seat__number=2)
    count_difference_rule(seat_count=row, ruling="accept", reason="miscount", by=None)
    refused(
        "count_already_ruled",
        lambda: count_difference_rule(seat_count=row, ruling="correct", reason="x", by=None),
    )
    refused(
        "count_already_entered",
        lambda: table_count_enter(table=w.table, counts={1: 195, 2: 210, 3: 195}, by=None),
    )


@pytest.mark.parametrize(
    ("counts", "code"),
    [
        ({1: 195, 2: 210}, "count_seats_mismatch"),
        ({1: 195, 2: 210, 3: 195, 4: 0}, "count_seats_mismatch"),
        ({1: 195, 2: -1, 3: 195}, "count_invalid"),
        ({1: 195, 2: "210", 3: 195}, "count_invalid"),
        ({1: 195, 2: True, 3: 195}, "count_invalid"),
        ({1: 195, 2: 10**16, 3: 195}, "count_invalid"),
    ],
)
def test_bad_counts_are_refused_and_change_nothing(
    w: World, counts: dict[int, Any], code: str
) -> None:
    before = everything(w)
    err = refused(code, lambda: table_count_enter(table=w.table, counts=counts, by=None))
    assert err.message and "seat" in err.message.lower()
    assert everything(w) == before


@pytest.mark.parametrize(
    ("ruling", "reason", "source", "code"),
    [
        ("maybe", "x", "", "count_bad_ruling"),
        ("accept", "   ", "", "count_reason_missing"),
        ("accept", "x" * 201, "", "count_reason_too_long"),
        ("correct", "found", "bank", "count_source_missing"),
    ],
)
def test_bad_rulings_are_refused_and_change_nothing(
    w: World, ruling: str, reason: str, source: str, code: str
) -> None:
    table_count_enter(table=w.table, counts={1: 195, 2: 220, 3: 195}, by=None)
    row = SeatCount.objects.get(seat__number=2)
    before = everything(w)
    refused(
        code,
        lambda: count_difference_rule(
            seat_count=row, ruling=ruling, reason=reason, source=source, by=None
        ),
    )
    assert everything(w) == before


def test_the_count_is_only_entered_while_the_close_waits_for_it() -> None:
    w = world(3, count=True)
    refused(
        "count_not_now",
        lambda: table_count_enter(table=w.table, counts={1: 200, 2: 200, 3: 200}, by=None),
    )
    assert TableCount.objects.count() == 0


def test_the_organiser_waives_the_count_with_a_reason(w: World, commits: Any) -> None:
    refused("count_reason_missing", lambda: day_count_waive(day=w.day, reason="", by=None))
    boss = Actor(user_in("organiser", "boss"), "test")
    day_count_waive(day=w.day, reason="the hall closes at midnight", by=boss)
    refused("count_already_waived", lambda: day_count_waive(day=w.day, reason="x", by=boss))
    entry = AuditEntry.objects.get(verb=Verb.DAY_COUNT_WAIVED)
    assert entry.actor == boss.user and entry.data == {"reason": "the hall closes at midnight"}
    close = close_now(w, commits)
    assert close.status == DayClose.Status.DONE
    assert close.report["count"]["waived"] == {
        "reason": "the hall closes at midnight",
        "by": "boss",
    }
    refused("count_not_now", lambda: day_count_waive(day=w.day, reason="late", by=boss))


def test_an_event_that_does_not_count_closes_at_once(commits: Any) -> None:
    w = world(3, count=False)
    with commits(execute=True):
        close = day_close_request(day=w.day, by=None)
    close.refresh_from_db()
    assert close.status == DayClose.Status.DONE
    assert close.report["count"] == {"required": False, "waived": None, "tables": []}


def test_a_new_event_counts_at_its_close() -> None:
    assert event_create_flash(name="NEW", by=None).count_at_close is True


def test_staff_of_another_event_and_the_floor_are_refused(w: World) -> None:
    other = event_create_flash(name="OTHER", by=None)
    stranger = User.objects.create_user("stranger")
    StaffRole.objects.create(user=stranger, event=other, role="organiser")
    away = Actor(stranger, "test")
    before = everything(w)
    counts = {1: 195, 2: 200, 3: 195}
    refused("forbidden", lambda: table_count_enter(table=w.table, counts=counts, by=away))
    refused("forbidden", lambda: day_count_waive(day=w.day, reason="mine", by=away))
    assert everything(w) == before
    # A supervisor of this event counts, but only an organiser moves money or waives.
    supervisor = User.objects.create_user("floor")
    StaffRole.objects.create(user=supervisor, event=w.event, role="supervisor")
    floor = Actor(supervisor, "test")
    table_count_enter(table=w.table, counts=counts, by=floor)
    row = SeatCount.objects.get(seat__number=2)
    before = everything(w)
    refused(
        "forbidden",
        lambda: count_difference_rule(seat_count=row, ruling="correct", reason="x", by=floor),
    )
    refused(
        "forbidden",
        lambda: count_difference_rule(seat_count=row, ruling="accept", reason="x", by=away),
    )
    refused("forbidden", lambda: day_count_waive(day=w.day, reason="x", by=floor))
    assert everything(w) == before


def test_a_difference_names_its_player_as_every_list_does(w: World) -> None:
    """Two Bills of the event (another one registered, confirmed a different person): the
    count's difference and the close's report say which, with the membership number."""
    bill = Player.objects.get(event=w.event, seats__table=w.table, seats__number=2)
    other = player_register(event=w.event, name=bill.name, look_alike_confirmed=True, by=None)
    table_count_enter(table=w.table, counts=stacks(w) | {2: 200}, by=None)
    shown = f"{bill.name} (no. {bill.person.number})"
    assert event_names_shown(w.event.pk)[other.pk] != shown
    report = count_report(w.day)
    assert [d["player"] for t in report["tables"] for d in t["differences"]] == [shown]
