"""A small, busy floor to race on, built through the services, and the invariants every run
must leave intact."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

from brag_event.closing.services import day_close_request
from brag_event.core.errors import ServiceError
from brag_event.events.models import Day, DayClose, Event
from brag_event.hands.models import Hand
from brag_event.hands.services import hand_apply_action, hand_start
from brag_event.ledger.audit import ledger_audit
from brag_event.players.models import Player, StandingSnapshot
from brag_event.players.services import player_register
from brag_event.tables.models import Seat, Table
from brag_event.tables.services import seat_buy_in, table_create
from tests.factories import world

_tags = itertools.count(1)


@dataclass
class Floor:
    """Day 1 of a FLASH event, open, with Andy, Bill and Chris at table 1 (seats 1-3, buy-ins of
    200 from 1,000 each). Table 2 (Eddie at seat 1) and the unseated players Gina and Hal are
    made when a run first asks for them: a floor costs a few hundred statements, and most
    pairs need only part of it."""

    event: Event
    day: Day
    t1: Table
    _t2: Table | None = None

    @property
    def t2(self) -> Table:
        if self._t2 is None:
            self._t2 = table_create(day=self.day, by=None)
            seat_buy_in(
                table=self._t2, seat_number=1, player=self.player("Eddie"), amount=200, by=None
            )
        return self._t2

    def player(self, name: str) -> Player:
        """The player, registered with 1,000 if not yet."""
        found = Player.objects.filter(event=self.event, name=name).first()
        return found or player_register(event=self.event, name=name, starting_money=1000, by=None)

    def seat(self, name: str) -> Seat:
        return Seat.objects.get(player__event=self.event, player__name=name, left_at__isnull=True)


def floor() -> Floor:
    w = world(3, name=f"Race {next(_tags)}")
    return Floor(w.event, w.day, w.table)


def act(hand_id: int, **action: Any) -> Hand:
    hand = Hand.objects.get(pk=hand_id)
    hand, _row, _state = hand_apply_action(
        hand=hand, action=action, expected_seq=hand.next_seq, by=None
    )
    return hand


SETTLING = {"seat": 1, "action": "fold"}  # after ``one_to_settle``: Chris wins the pot


def one_to_settle(f: Floor) -> Hand:
    """A hand at table 1 that the next action (Andy folds: ``SETTLING``) settles: Bill has
    folded, Chris (seat 3, the table's highest) has bet and wins."""
    hand = hand_start(table=f.t1, by=None)  # Andy deals; Bill acts first
    act(hand.pk, seat=2, action="fold")
    act(hand.pk, seat=3, action="look")
    act(hand.pk, seat=3, action="bet", amount=5)
    return Hand.objects.get(pk=hand.pk)


def settled(f: Floor) -> Hand:
    """A hand at table 1 that Chris won; its last action (Andy's fold) settled it."""
    hand = one_to_settle(f)
    return act(hand.pk, **SETTLING)


def run_out(f: Floor) -> Seat:
    """Hal and Gina at a third table (buy-ins of 90): Gina loses everything to Hal in one hand
    that Hal deals. Returns Gina's seat, with a stack of 0."""
    t3 = table_create(day=f.day, by=None)
    for number, name in enumerate(("Hal", "Gina"), start=1):
        seat_buy_in(table=t3, seat_number=number, player=f.player(name), amount=90, by=None)
    hand = hand_start(table=t3, by=None)  # Hal deals: Gina (seat 2) first
    act(hand.pk, seat=2, action="look")
    act(hand.pk, seat=2, action="bet", amount=20)
    act(hand.pk, seat=1, action="look")
    act(hand.pk, seat=1, action="bet", amount=20)
    while f.seat("Gina").stack >= 40:
        act(hand.pk, seat=2, action="bet", amount=20)
        act(hand.pk, seat=1, action="bet", amount=20)
    act(hand.pk, seat=2, action="cover")
    act(hand.pk, seat=1, action="show", cards="As Ad Ac")
    act(hand.pk, seat=2, action="show", cards="2s 3d 5c")
    gina = f.seat("Gina")
    assert gina.stack == 0
    return gina


# ------------------------------------------------------------------------------ invariants


def problems(event: Event) -> list[str]:
    """What is wrong with the event after a run: the ledger audit, and the states nothing
    could undo (a live hand or a seated player on a day not open, a live hand with a player
    who has gone, a close that is neither done nor re-runnable)."""
    event = Event.objects.get(pk=event.pk)
    out: list[str] = []
    report = ledger_audit(event=event)
    if not report.ok:
        out += report.lines()
    live = Hand.objects.filter(table__day__event=event, status=Hand.Status.IN_PROGRESS)
    for hand in live.select_related("table__day"):
        if hand.table.day.status != "open":
            out.append(f"{hand} is live on day {hand.table.day.number}, {hand.table.day.status}")
        dealt = [s["seat_id"] for s in hand.seats if s.get("dealt")]
        for seat in Seat.objects.filter(pk__in=dealt, left_at__isnull=False):
            out.append(f"{hand} is live with {seat.player} dealt in, who has left")
    seated = Seat.objects.filter(table__day__event=event, left_at__isnull=True)
    for seat in seated.exclude(table__day__status__in=("open", "closing")).select_related(
        "table__day", "player"
    ):
        out.append(f"{seat} is seated on day {seat.table.day.number}, {seat.table.day.status}")
    for day in event.days.order_by("number"):
        close = DayClose.objects.filter(day=day).first()
        if day.status == "closed" and (close is None or close.status != DayClose.Status.DONE):
            out.append(f"day {day.number} is closed but its close is {close and close.status}")
        if close is not None and close.status == DayClose.Status.DONE:
            if day.status != "closed":
                out.append(f"day {day.number}'s close is done but the day is {day.status}")
            players = Player.objects.filter(event=event).count()
            if StandingSnapshot.objects.filter(day=day).count() != players:
                out.append(f"day {day.number}'s close is done without a standings snapshot")
    out += _rerun_closes(event)
    return out


def _rerun_closes(event: Event) -> list[str]:
    """A close that is not done must be re-runnable: asking again finishes it (tasks run
    eagerly here), or refuses in words with the day still open for play."""
    out: list[str] = []
    for close in DayClose.objects.filter(day__event=event).exclude(status=DayClose.Status.DONE):
        try:
            day_close_request(day=close.day, by=None)
        except ServiceError as err:
            if err.code == "count_outstanding":
                # Waiting for the end-of-day count (closing.count) is waiting for people, not a
                # stuck state: counting, ruling or the organiser's waiver lets it go on.
                continue
            day = Day.objects.get(pk=close.day_id)
            if day.status != "open":
                out.append(
                    f"asking again for day {day.number}'s close: {err.code} on a {day.status} day"
                )
            continue
        except Exception as err:
            out.append(f"asking again for a close crashed: {type(err).__name__}: {err}")
            continue
        close.refresh_from_db()
        day = Day.objects.get(pk=close.day_id)
        live = Hand.objects.filter(table__day=day, status=Hand.Status.IN_PROGRESS).exists()
        if close.status != DayClose.Status.DONE and not (day.status == "open" and live):
            out.append(f"day {day.number}'s close is stuck: {close.status} ({close.step})")
    return out
