"""Every row that decides money, seats, results or eligibility, forged in plain SQL by an insider
(issue 42, part B: each of these passed ``audit_ledger`` before), is named by the audit in
words: which row, and what is wrong with it (docs/integrity.md, "What an insider can and cannot
do"). One world, built once for the module; each forgery is a test of its own, rolled back
after it. Written for PostgreSQL, as CI runs it (the statements are portable: SQLite too)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.client import Client
from django.utils import timezone

from brag_event.closing.count import count_difference_rule, table_count_enter
from brag_event.closing.models import CloseRequest, CountWaiver, SeatCount, TableCount
from brag_event.closing.services import day_close_request
from brag_event.core.actors import Actor
from brag_event.events.models import Day, DayClose, Event
from brag_event.events.services import day_update_rules, event_set_count_at_close
from brag_event.floor.models import AwardConfirmation, Penalty
from brag_event.floor.services import hand_award_confirm, penalty_lift
from brag_event.hands.models import Hand
from brag_event.hands.services import hand_start, hand_void_last_action
from brag_event.ledger.audit import ledger_audit
from brag_event.ledger.checks import ledger_check_run
from brag_event.ledger.models import Transfer
from brag_event.players.models import Person, PersonMerge, Player
from brag_event.players.people import person_merge
from brag_event.players.services import player_register
from brag_event.tables.models import DealerShift, Seat, Table
from brag_event.tables.services import seat_buy_in, table_create
from brag_event.tables.shifts import shift_sign_in
from tests.admin.conftest import admin_url, change_form_data
from tests.factories import World, act, disqualify, refused, user_in, world
from tests.once import built_once

pytestmark = pytest.mark.django_db

MONEY = "money record is intact"
RECORDS = "hand records are intact"
COUNT = "closes kept their count"


def sql(statement: str, params: list[Any] | None = None) -> None:
    with connection.cursor() as cur:
        cur.execute(statement, params or [])


def table(model: Any) -> str:
    return str(model._meta.db_table)


def named(event_id: int, check: str) -> list[str]:
    """What the audit of the event says is wrong under ``check`` (it must fail)."""
    report = ledger_audit(event=Event.objects.get(pk=event_id))
    assert not report.ok and check in [c.name for c in report.checks if not c.ok], report.lines()
    return [p.removeprefix(f"{check}: ") for p in report.problems if p.startswith(check)]


def one_wins(w: World, by: Actor | None) -> tuple[Hand, int]:
    """The first to speak looks and bets 10, the others fold: a pot of 25 (antes 3 × 5, the
    bet 10) to them. The hand, and the seat that folded last."""
    hand = hand_start(table=w.table, by=by)
    n = len(w.seats)
    first, *others = [(hand.dealer_seat + i) % n + 1 for i in range(n)]
    act(hand, by=by, seat=first, action="look")
    act(hand, by=by, seat=first, action="bet", amount=10)
    for seat in others:
        hand, _state = act(hand, by=by, seat=seat, action="fold")
    assert hand.status == Hand.Status.SETTLED
    return hand, others[-1]


@dataclass
class Built:
    """Event A (plays on): two dealers' shifts, large pots confirmed, withdrawn and waiting,
    a disqualification lifted and one in force. Event B: its day waits for the count, counted
    with a difference corrected and one accepted, and one of its players merged into A's
    person of the name."""

    a: int
    b: int
    day_b: int
    shifts: dict[str, int]  # dealer's name → their shift at A's table 1
    awards: dict[str, int]  # confirmed, withdrawn, waiting
    penalties: dict[str, int]  # lifted (Dora), in force (Eddie)
    players_a: dict[str, int]
    players_b: dict[str, int]
    seat_counts: dict[int, int]  # seat number → its count at B's table 1
    correction: int  # the transfer that corrected seat 1 at B
    sue: int


def build() -> Built:
    a = world(3)
    day_update_rules(day=a.day, changes={"award_confirm_from": 20}, by=None)
    a.day.refresh_from_db()
    dee, dan = Actor(user_in("dealer", "dee"), "tablet"), Actor(user_in("dealer", "dan"), "tab")
    sue = Actor(user_in("supervisor", "sue"), "sue's phone")
    first = shift_sign_in(table=a.table, by=dee)
    second = shift_sign_in(table=a.table, by=dan)  # dee relieved
    confirmed, _last = one_wins(a, dan)
    hand_award_confirm(hand=confirmed, by=sue)
    undone, last = one_wins(a, dan)
    hand_void_last_action(hand=undone, reason="did not fold", by=sue)
    act(undone, by=dan, seat=last, action="fold")  # settled again: asks again, and waits
    awards = {
        a.status: a.pk for a in AwardConfirmation.objects.filter(event=a.event).order_by("pk")
    }
    dora = player_register(event=a.event, name="Dora", starting_money=500, by=None)
    eddie = player_register(event=a.event, name="Eddie", starting_money=500, by=None)
    penalty_lift(penalty=disqualify(a.table, dora).penalties.get(), reason="appeal", by=None)
    eddie_out = disqualify(a.table, eddie).penalties.get()

    b = world(3, name="SECOND", count=True)
    one_wins(b, None)
    day_close_request(day=b.day, by=None)  # waits for the count
    stacks = dict(Seat.objects.filter(table=b.table).values_list("number", "stack"))
    olga = Actor(user_in("organiser", "olga"), "laptop")
    table_count_enter(
        table=b.table, counts={1: stacks[1] - 10, 2: stacks[2], 3: stacks[3] + 5}, by=olga
    )
    counts = dict(SeatCount.objects.filter(seat__table=b.table).values_list("seat__number", "pk"))
    corrected = count_difference_rule(
        seat_count=SeatCount.objects.get(pk=counts[1]),
        ruling="correct",
        reason="ten chips fell",
        by=olga,
    )
    count_difference_rule(
        seat_count=SeatCount.objects.get(pk=counts[3]),
        ruling="accept",
        reason="miscounted",
        by=olga,
    )
    andy_a = Player.objects.get(event=a.event, name="Andy").person
    andy_b = Player.objects.get(event=b.event, name="Andy").person
    person_merge(keep=andy_a, remove=andy_b, by=None)
    assert corrected.transfer_id is not None
    return Built(
        a=a.event.pk,
        b=b.event.pk,
        day_b=b.day.pk,
        shifts={"dee": first.pk, "dan": second.pk},
        awards=awards,
        penalties={"Dora": dora.penalties.get().pk, "Eddie": eddie_out.pk},
        players_a=dict(Player.objects.filter(event=a.event).values_list("name", "pk")),
        players_b=dict(Player.objects.filter(event=b.event).values_list("name", "pk")),
        seat_counts=counts,
        correction=corrected.transfer_id,
        sue=sue.user_id or 0,
    )


@pytest.fixture(scope="module")
def built(django_db_setup: None, django_db_blocker: Any) -> Any:
    yield from built_once(django_db_blocker, build)


def test_the_world_audits_clean(built: Built) -> None:
    for event in (built.a, built.b):
        report = ledger_audit(event=Event.objects.get(pk=event))
        assert report.ok, "\n".join(report.lines())
    assert set(built.awards) == {"confirmed", "withdrawn", "waiting"}
    assert PersonMerge.objects.get(event_id=built.b).seq is not None


def _lift_forged(b: Built) -> tuple[int, str]:
    """Eddie's disqualification lifted in SQL, then Eddie bought in again at a new table."""
    pk = b.penalties["Eddie"]
    sql(
        f"UPDATE {table(Penalty)} SET lifted_at = %s, lift_reason = 'appeal' WHERE id = %s",
        [timezone.now(), pk],
    )
    day = Day.objects.get(event_id=b.a, number=1)
    new = table_create(day=day, by=None)
    eddie = Player.objects.get(pk=b.players_a["Eddie"])
    seat_buy_in(table=new, seat_number=1, player=eddie, amount=200, by=None)
    return b.a, f"the disqualification of Eddie (penalty {pk}) is lifted on no record"


def _lift_undone(b: Built) -> tuple[int, str]:
    pk = b.penalties["Dora"]
    seq = Penalty.objects.get(pk=pk).lift_record_seq
    sql(f"UPDATE {table(Penalty)} SET lifted_at = NULL WHERE id = %s", [pk])
    return b.a, (
        f"the disqualification of Dora (penalty {pk}) was lifted on the record (entry {seq}) "
        "but is in force again"
    )


def _award(b: Built, status: str) -> AwardConfirmation:
    return AwardConfirmation.objects.select_related("hand").get(pk=b.awards[status])


def _pot(award: AwardConfirmation) -> str:
    (pot,) = award.awards
    return f"pot of 25 to {pot['players'][0]}"


def _award_confirmed(b: Built) -> tuple[int, str]:
    award = _award(b, "waiting")
    sql(
        f"UPDATE {table(AwardConfirmation)} SET status = 'confirmed', confirmed_by_id = %s, "
        "confirmed_at = %s, \"where\" = 'floor' WHERE id = %s",
        [b.sue, timezone.now(), award.pk],
    )
    return b.a, (
        f"the large pot of hand {award.hand.number} at table 1, day 1 (award {award.pk}: "
        f"{_pot(award)}) is confirmed on no record"
    )


def _award_deleted(b: Built) -> tuple[int, str]:
    """The waiting pot's row deleted, and the table plays on."""
    award = _award(b, "waiting")
    sql(f"DELETE FROM {table(AwardConfirmation)} WHERE id = %s", [award.pk])
    hand_start(table=Table.objects.get(pk=award.table_id), by=None)
    return b.a, f"entry {award.wait_seq} of the record is missing (its row deleted)"


def _award_unwithdrawn(b: Built) -> tuple[int, str]:
    award = _award(b, "withdrawn")
    sql(f"UPDATE {table(AwardConfirmation)} SET status = 'confirmed' WHERE id = %s", [award.pk])
    return b.a, f"(award {award.pk}: {_pot(award)}) is confirmed on no record"


def _shift(b: Built, name: str) -> DealerShift:
    return DealerShift.objects.get(pk=b.shifts[name])


def _shift_moved(b: Built) -> tuple[int, str]:
    shift = _shift(b, "dee")
    sql(
        f"UPDATE {table(DealerShift)} SET started_at = %s WHERE id = %s",
        [shift.started_at - timedelta(hours=1), shift.pk],
    )
    return b.a, (
        f"record entry {shift.start_seq}, the shift of dee at table 1, day 1 (shift {shift.pk}): "
        "its start: does not match its hash"
    )


def _shift_ended(b: Built) -> tuple[int, str]:
    shift = _shift(b, "dan")
    sql(
        f"UPDATE {table(DealerShift)} SET ended_at = %s, ended_how = 'signed_out' WHERE id = %s",
        [timezone.now(), shift.pk],
    )
    return b.a, f"the shift of dan at table 1, day 1 (shift {shift.pk}): its end is on no record"


def _shift_reopened(b: Built) -> tuple[int, str]:
    dan, dee = _shift(b, "dan"), _shift(b, "dee")
    sql(f"DELETE FROM {table(DealerShift)} WHERE id = %s", [dan.pk])  # the table free for dee
    sql(f"UPDATE {table(DealerShift)} SET ended_at = NULL WHERE id = %s", [dee.pk])
    return b.a, (
        f"the shift of dee at table 1, day 1 (shift {dee.pk}): ended on the record (entry "
        f"{dee.end_seq}) but open again"
    )


def _shift_inserted(b: Built) -> tuple[int, str]:
    dee = _shift(b, "dee")
    now = timezone.now()
    sql(
        f"INSERT INTO {table(DealerShift)} (dealer_id, table_id, day_id, started_at, ended_at, "
        "ended_how) VALUES (%s, %s, %s, %s, %s, 'signed_out')",
        [dee.dealer_id, dee.table_id, dee.day_id, now - timedelta(hours=3), now],
    )
    added = DealerShift.objects.order_by("-pk").first()
    assert added is not None
    return b.a, f"the shift of dee at table 1, day 1 (shift {added.pk}): its start is on no record"


def _shift_deleted(b: Built) -> tuple[int, str]:
    dee = _shift(b, "dee")
    sql(f"DELETE FROM {table(DealerShift)} WHERE id = %s", [dee.pk])
    return b.a, f"entry {dee.start_seq} of the record is missing (its row deleted)"


def _person_of(event: int, name: str) -> Person:
    return Player.objects.select_related("person").get(event_id=event, name=name).person


def _player_moved(b: Built) -> tuple[int, str]:
    """A's Chris given B's Chris's person (someone else, as far as the record knows)."""
    theirs = _person_of(b.b, "Chris")
    pk = b.players_a["Chris"]
    seq = Player.objects.get(pk=pk).person_seq
    sql(f"UPDATE {table(Player)} SET person_id = %s WHERE id = %s", [theirs.pk, pk])
    return b.a, (
        f"record entry {seq}, player {pk} (Chris): does not match its hash — the row was changed "
        "(the person they were registered as)"
    )


def _merged_player_moved(b: Built) -> tuple[int, str]:
    """B's Andy, merged on the record into A's Andy's person, moved on to Bill's."""
    bill, andy = _person_of(b.a, "Bill"), _person_of(b.a, "Andy")
    pk = b.players_b["Andy"]
    sql(f"UPDATE {table(Player)} SET person_id = %s WHERE id = %s", [bill.pk, pk])
    return b.b, (
        f"player {pk} (Andy) belongs to person {bill.pk} (no. {bill.number}), but the record has "
        f"them as person {andy.pk} (no. {andy.number}): moved to another person"
    )


def _merge_forged(b: Built) -> tuple[int, str]:
    """B's Chris merged into A's Chris in SQL: the entry moved, the duplicate marked merged."""
    keep, remove = _person_of(b.a, "Chris"), _person_of(b.b, "Chris")
    sql(f"UPDATE {table(Player)} SET person_id = %s WHERE person_id = %s", [keep.pk, remove.pk])
    sql(f"UPDATE {table(Person)} SET merged_into_id = %s WHERE id = %s", [keep.pk, remove.pk])
    return b.b, (
        f"player {b.players_b['Chris']} (Chris) is person {remove.pk} (no. {remove.number}) on "
        f"the record, but belongs to person {keep.pk} (no. {keep.number}), into whom person "
        f"{remove.pk} is marked merged on no record: a merge forged behind the services"
    )


def _marked_merged(b: Built) -> tuple[int, str]:
    bill, andy = _person_of(b.a, "Bill"), _person_of(b.a, "Andy")
    sql(f"UPDATE {table(Person)} SET merged_into_id = %s WHERE id = %s", [andy.pk, bill.pk])
    return b.a, (
        f"person {bill.pk} (no. {bill.number}), who the record has as player "
        f"{b.players_a['Bill']} (Bill), is marked merged into person {andy.pk} "
        f"(no. {andy.number}) on no record"
    )


def _merge_undone(b: Built) -> tuple[int, str]:
    """The recorded merge of B's Andy taken back in SQL: the entry moved back."""
    merge = PersonMerge.objects.get(event_id=b.b)
    sql(
        f"UPDATE {table(Player)} SET person_id = %s WHERE id = %s",
        [merge.removed_id, b.players_b["Andy"]],
    )
    sql(f"UPDATE {table(Person)} SET merged_into_id = NULL WHERE id = %s", [merge.removed_id])
    return b.b, (
        f"person {merge.removed_id} (no. {merge.removed.number}) was merged into person "
        f"{merge.kept_id} (no. {merge.kept.number}) on the record, but is marked merged into "
        "no one"
    )


def _seat_count(b: Built, seat: int) -> SeatCount:
    return SeatCount.objects.select_related("table_count").get(pk=b.seat_counts[seat])


def _counted_edited(b: Built) -> tuple[int, str]:
    count = _seat_count(b, 2).table_count
    sql(f"UPDATE {table(SeatCount)} SET counted = counted + 5 WHERE id = %s", [b.seat_counts[2]])
    return b.b, (
        f"record entry {count.record_seq}, the count of table 1, day 1 (count {count.pk}): does "
        "not match its hash — the row was changed (a seat's recorded or counted figure"
    )


def _ruling(b: Built, seat: int, name: str, recorded: int, counted: int) -> str:
    return (
        f"the ruling on the count of {name} at seat {seat} of table 1, day 1 (recorded "
        f"{recorded}, counted {counted})"
    )


def _ruling_words(b: Built, seat: int) -> str:
    row = _seat_count(b, seat)
    return _ruling(b, seat, row.player.name, row.recorded, row.counted)


def _reason_edited(b: Built) -> tuple[int, str]:
    words, seq = _ruling_words(b, 1), _seat_count(b, 1).rule_seq
    sql(f"UPDATE {table(SeatCount)} SET reason = 'nothing' WHERE id = %s", [b.seat_counts[1]])
    return b.b, f"record entry {seq}, {words}: does not match its hash"


def _ruler_edited(b: Built) -> tuple[int, str]:
    words, seq = _ruling_words(b, 3), _seat_count(b, 3).rule_seq
    sql(f"UPDATE {table(SeatCount)} SET ruled_by_id = %s WHERE id = %s", [b.sue, b.seat_counts[3]])
    return b.b, f"record entry {seq}, {words}: does not match its hash"


def _unruled(b: Built) -> tuple[int, str]:
    row = _seat_count(b, 3)
    sql(
        f"UPDATE {table(SeatCount)} SET ruling = '', reason = '', ruled_by_id = NULL, "
        "ruled_at = NULL WHERE id = %s",
        [row.pk],
    )
    return b.b, f"{_ruling_words(b, 3)[15:]} was ruled on the record (entry {row.rule_seq}) but is"


def _transfer_unlinked(b: Built) -> tuple[int, str]:
    sql(
        f"UPDATE {table(SeatCount)} SET ruling = 'accept', transfer_id = NULL WHERE id = %s",
        [b.seat_counts[1]],
    )
    return b.b, f"transfer {b.correction} (count 10: count at the close of day 1, table 1 seat 1"


def _counts_deleted(b: Built) -> tuple[int, str]:
    count = _seat_count(b, 1).table_count
    sql(f"DELETE FROM {table(SeatCount)} WHERE table_count_id = %s", [count.pk])
    sql(f"DELETE FROM {table(TableCount)} WHERE id = %s", [count.pk])
    return b.b, f"entry {count.record_seq} of the record is missing (its row deleted)"


def _waiver_inserted(b: Built) -> tuple[int, str]:
    sql(
        f"INSERT INTO {table(CountWaiver)} (day_id, reason, waived_at) VALUES (%s, 'late', %s)",
        [b.day_b, timezone.now()],
    )
    return b.b, "the waiver of day 1's count (“late”) is on no record: written behind the services"


FORGERIES = {
    "a disqualification lifted, the player seated again": _lift_forged,
    "a lift undone": _lift_undone,
    "a waiting large pot set confirmed": _award_confirmed,
    "a waiting large pot deleted, the table playing on": _award_deleted,
    "a withdrawn large pot set confirmed": _award_unwithdrawn,
    "a shift's start moved": _shift_moved,
    "a shift ended": _shift_ended,
    "an ended shift open again": _shift_reopened,
    "a shift inserted": _shift_inserted,
    "a shift deleted": _shift_deleted,
    "a player given another person": _player_moved,
    "a merged player given another person": _merged_player_moved,
    "a merge of people forged": _merge_forged,
    "a person marked merged": _marked_merged,
    "a merge taken back": _merge_undone,
    "a counted amount edited": _counted_edited,
    "a ruling's reason edited": _reason_edited,
    "a ruling's ruler edited": _ruler_edited,
    "a ruling taken back": _unruled,
    "a correction's transfer unlinked": _transfer_unlinked,
    "a day's counts deleted": _counts_deleted,
    "a count waiver inserted": _waiver_inserted,
}


@pytest.mark.parametrize("forgery", FORGERIES)
def test_a_row_forged_in_sql_is_named_in_words(built: Built, forgery: str) -> None:
    event, words = FORGERIES[forgery](built)
    found = named(event, MONEY)
    assert any(words in p for p in found), found


def test_the_periodic_check_names_it_too(built: Built) -> None:
    """The periodic check (every few minutes, changed hands only) reads the whole money record:
    the dashboard's alert says the same words."""
    event, words = _shift_ended(built)
    check = ledger_check_run(event=Event.objects.get(pk=event))
    assert not check.ok and any(words in line for line in check.lines), check.lines


def test_every_forgery_of_the_issue_is_in_the_table() -> None:
    """The issue's list, each kind of row with at least one forgery here."""
    kinds = " / ".join(FORGERIES)
    for kind in ("lifted", "large pot", "shift", "person", "merge", "count", "ruling", "waiver"):
        assert kind in kinds, kind


# ----------------------------------------------------------------- the count and the close


def test_a_close_that_went_ahead_without_its_count_is_named(
    built: Built, django_capture_on_commit_callbacks: Any
) -> None:
    """B's close goes ahead with its count done; the day's counts deleted afterwards leave a
    closed day that required a count with none on the record."""
    with django_capture_on_commit_callbacks(execute=True):
        close = day_close_request(day=Day.objects.get(pk=built.day_b), by=None)
    close.refresh_from_db()
    assert close.status == DayClose.Status.DONE, close.step
    _counts_deleted(built)
    found = named(built.b, COUNT)
    assert found == [
        "day 1's close went ahead without its count: table 1 was not counted on the record, "
        "and no waiver of the count is on it"
    ]


@pytest.fixture
def counting(django_capture_on_commit_callbacks: Any) -> World:
    """A day whose close waits for its count, not counted yet."""
    w = world(3, name="COUNTED", count=True)
    with django_capture_on_commit_callbacks(execute=True):
        day_close_request(day=w.day, by=None)
    assert DayClose.objects.get(day=w.day).status == DayClose.Status.COUNTING
    return w


def test_the_count_setting_cannot_change_mid_close(admin_client: Client, counting: World) -> None:
    event = counting.event
    err = refused(
        "count_setting_mid_close",
        lambda: event_set_count_at_close(event=event, count=False, by=None),
    )
    assert "Day 1 is closing" in err.message and "waive it with a reason" in err.message
    url = admin_url(Event, "change", event.pk)
    form = change_form_data(admin_client, url)
    form.pop("count_at_close", None)  # unticked
    response = admin_client.post(url, form)
    assert response.status_code == 200
    assert "whether the close waits for the chip count cannot change" in response.content.decode()
    assert Event.objects.get(pk=event.pk).count_at_close is True
    # Once the close is done (the count waived, with a reason) it may change again.


def test_the_count_unticked_in_sql_mid_close_still_holds_the_close(
    counting: World, django_capture_on_commit_callbacks: Any
) -> None:
    sql(f"UPDATE {table(Event)} SET count_at_close = FALSE WHERE id = %s", [counting.event.pk])
    with django_capture_on_commit_callbacks(execute=True):
        err = refused("count_outstanding", lambda: day_close_request(day=counting.day, by=None))
    assert err.details["uncounted"] == [1]


def test_the_close_requests_record_rewritten_fails_the_closes_audit(
    counting: World, django_capture_on_commit_callbacks: Any
) -> None:
    """The first request's recorded requirement rewritten in SQL: the close goes ahead, and its
    own audit refuses it, naming the day's record."""
    sql(f"UPDATE {table(CloseRequest)} SET count = FALSE WHERE day_id = %s", [counting.day.pk])
    with django_capture_on_commit_callbacks(execute=True):
        close = day_close_request(day=counting.day, by=None)
    close.refresh_from_db()
    assert close.status == DayClose.Status.FAILED
    lines = close.report["error"]["details"]["audit"]
    assert any(
        "Day 1's own record: close_request seq 1 does not match its hash" in x for x in lines
    )
    assert Day.objects.get(pk=counting.day.pk).status == Day.Status.CLOSING


def test_the_count_setting_changes_when_no_close_is_under_way() -> None:
    w = world(2, name="THIRD")
    assert event_set_count_at_close(event=w.event, count=True, by=None).count_at_close is True
    user: User = user_in("organiser", "ollie")
    done = event_set_count_at_close(event=w.event, count=False, by=Actor(user, "laptop"))
    assert done.count_at_close is False
    assert Transfer.objects.filter(event=w.event).exists()
