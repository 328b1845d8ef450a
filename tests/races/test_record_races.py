"""A ruling against the day's close (issue 20, the day's own chain): a ruling made while the day
closes is chained onto the day's own chain before the root is computed, or — once the close has
published the root — refused with ``day_closed``; never chained after the root that was
published without it. Forced both ways (``interleave``), on PostgreSQL."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from brag_event.closing.models import CloseRequest
from brag_event.closing.services import _finish, day_close_request
from brag_event.core.transactions import retrying
from brag_event.engine import chain as engine_chain
from brag_event.events.models import Day, DayClose
from brag_event.floor.models import Ruling
from brag_event.floor.services import ruling_record
from brag_event.hands.models import Hand
from brag_event.hands.services import hand_apply_action
from brag_event.tables.models import Seat
from brag_event.tables.services import seat_leave

from .floor import SETTLING, Floor, floor, one_to_settle, problems
from .harness import crashes, interleave

# slow: races on PostgreSQL
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

# The close's last step locks the day, then its close row (``closing.services._finish``).
FINISH_LOCK = r'FROM "events_dayclose" WHERE "events_dayclose"\."id" = .* FOR NO KEY UPDATE'
# The ruling's entry on the day's own chain, written to the day's row.
RULING_ON_DAY = r'^UPDATE "events_day" SET "record_seq"'


def rule(f: Floor, decision: str) -> Any:
    return lambda: (
        ruling_record(
            table=f.t1.pk,
            what_happened="Andy swore at the dealer",
            decision=decision,
            players=[f.player("Andy").pk],
            by=None,
        ).pk
    )


def check(f: Floor, outcomes: list[Any]) -> None:
    assert not crashes(outcomes), "\n".join(crashes(outcomes))
    found = problems(f.event)
    assert not found, "\n".join(found)


def test_a_ruling_after_the_close_locked_the_day_is_refused_once_the_root_is_published() -> None:
    f = floor()
    day_id = f.day.pk
    outcomes, seen = interleave(
        lambda: day_close_request(day=Day.objects.get(pk=day_id), by=None).pk,
        rule(f, "too late"),
        after=FINISH_LOCK,
    )
    check(f, outcomes)
    assert seen == "blocked", seen  # on the day's row, until the close committed
    assert outcomes[0].kind == "ok" and outcomes[1].kind == "refused", outcomes
    assert outcomes[1].value == "day_closed"
    day = Day.objects.get(pk=day_id)
    # Its own chain holds the close's request, then the standings the close took, and
    # nothing after them.
    (asked,) = CloseRequest.objects.filter(day_id=day_id)
    close_row = DayClose.objects.get(day=day)
    assert (asked.seq, close_row.standings_seq, day.record_seq) == (1, 2, 3)
    assert day.status == Day.Status.CLOSED and day.record_head == close_row.standings_hash
    assert not Ruling.objects.filter(event=f.event).exists()


def test_a_ruling_chained_while_the_close_takes_its_snapshot_makes_the_close_run_again(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The close's last step reads one snapshot (REPEATABLE READ), taken when it asks for the
    day's row — here while a ruling holds that row, having just chained onto the day. When the
    ruling commits, the close's snapshot is stale: PostgreSQL refuses its lock on the row the
    ruling changed (a serialization failure), the close runs again and its root includes the
    ruling."""
    f = floor()
    for seat in Seat.objects.filter(table__day=f.day, left_at__isnull=True):
        seat_leave(seat=seat, by=None)
    Day.objects.filter(pk=f.day.pk).update(status=Day.Status.CLOSING)
    close = DayClose.objects.create(day=f.day)
    day_id, close_id = f.day.pk, close.pk
    with caplog.at_level(logging.WARNING):
        outcomes, seen = interleave(
            rule(f, "a warning at the close"),
            lambda: retrying(lambda: _finish(close_id, day_id, seats_returned=0)).status,
            after=RULING_ON_DAY,
        )
    check(f, outcomes)
    assert seen == "blocked", seen
    assert [o.kind for o in outcomes] == ["ok", "ok"], outcomes
    ruling = Ruling.objects.get(pk=outcomes[0].value)
    day = Day.objects.get(pk=day_id)
    assert (ruling.chain_day_id, day.status) == (day_id, Day.Status.CLOSED)
    money = engine_chain.MoneyHead(day.record_money_seq or 0, day.record_money_head)
    # The ruling is in the root: the day's own chain is the ruling, then the standings the
    # close took when it ran again.
    close_row = DayClose.objects.get(day=day)
    # (The close here was made directly, without a request on the chain.)
    assert (ruling.seq, close_row.standings_seq) == (1, 2)
    assert day.record_head == close_row.standings_hash
    assert day.record_root == engine_chain.record_root_v3(
        [], day.record_head, event=str(f.event.uid), day=day.number, money=money
    )
    assert any("serialize" in r.getMessage() for r in caplog.records), caplog.text


HAND_LOCK = r'FROM "hands_hand".* FOR (NO KEY )?UPDATE'


@pytest.mark.parametrize("ruling_first", [True, False])
def test_a_disqualifying_ruling_against_the_dealers_action_forced_both_ways(
    ruling_first: bool,
) -> None:
    """The ruling locks the day's row (for the day's own chain), then the hand; an action locks
    the hand: whichever goes first, the other waits for it — no deadlock, no raw error. The
    ruling first: Andy is folded out, Chris wins, and the dealer's fold for Andy is stale. The
    action first: the hand settles, then Andy is disqualified between hands."""
    f = floor()
    hand = one_to_settle(f)
    seq = hand.next_seq
    andy = f.player("Andy").pk

    def disqualify() -> Any:
        return ruling_record(
            table=f.t1.pk,
            hand=hand.pk,
            what_happened="Andy marked the cards",
            decision="disqualified",
            players=[andy],
            penalty="disqualified",
            by=None,
        ).pk

    def fold() -> Any:
        return hand_apply_action(hand=hand.pk, action=SETTLING, expected_seq=seq, by=None)[0].status

    if ruling_first:
        outcomes, seen = interleave(disqualify, fold, after=HAND_LOCK)
    else:
        outcomes, seen = interleave(fold, disqualify, after=HAND_LOCK)
    check(f, outcomes)
    assert seen == "blocked", seen
    ruling_outcome, action_outcome = outcomes if ruling_first else outcomes[::-1]
    assert ruling_outcome.kind == "ok", outcomes
    if ruling_first:
        assert (action_outcome.kind, action_outcome.value) == ("refused", "stale_sequence")
    else:
        assert action_outcome.kind == "ok", outcomes
    ruling = Ruling.objects.get(pk=ruling_outcome.value)
    assert (ruling.chain_hand_id, ruling.chain_day_id) == (hand.pk, None)
    assert Hand.objects.get(pk=hand.pk).status == Hand.Status.SETTLED
