"""The race suite: every pair of services that touch the same table, seat, player or day, started
together, on PostgreSQL.

Each pair runs on a fresh floor (``floor.floor``) in three ways: released by a barrier
(``BRAG_RACE_REPEAT`` times, default 1), and forced to interleave both ways round — the first
one held just after its first lock while the second runs into it (``harness.interleave``; one
way only for the same service twice on the same rows).
Every run must end with no raw error out of a service, the pair's own expectation (one of two
buy-ins at one seat wins, …), the ledger audit passing and the invariants intact
(``floor.problems``: no live hand or seated player on a day that is not open, no live hand with
a player who has gone, a close either done or re-runnable). Runs go ``BRAG_RACE_PARALLEL`` at a
time (default 4; each on its own event)."""

from __future__ import annotations

import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import pytest
from django.db import connections

from brag_event.closing.services import day_close_request, day_close_run
from brag_event.events.models import Day, DayClose, Event
from brag_event.events.services import day_open, day_set_qualification, day_update_rules
from brag_event.hands.models import Hand
from brag_event.hands.services import hand_apply_action, hand_start, hand_void_last_action
from brag_event.players.imports import players_import_confirm, players_import_preview
from brag_event.players.models import Player, Qualification
from brag_event.players.services import player_issue_money, player_register
from brag_event.tables.models import Seat, SeatingDraw, Table
from brag_event.tables.seating import (
    balance_apply,
    balance_proposals,
    seat_move,
    seating_apply,
    seating_draw,
)
from brag_event.tables.services import (
    seat_buy_in,
    seat_leave,
    seat_rebuy,
    seat_sit_out,
    table_create,
)

from .floor import SETTLING, Floor, floor, one_to_settle, problems, run_out, settled
from .harness import REPEAT, Outcome, crashes, interleave, race

# slow: races on PostgreSQL, each pair both ways and with a barrier
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

PARALLEL = max(1, int(os.environ.get("BRAG_RACE_PARALLEL", "4")))

Job = Callable[[], Any]
Expect = Callable[[Floor, list[Outcome]], None]


@dataclass
class Pair:
    name: str
    build: Callable[[Floor], tuple[Job, Job]]
    expect: Expect | None = None
    symmetric: bool = False  # the same service twice on the same rows: one forced order is enough


# ------------------------------------------------------------------------------------ jobs


def start(table_id: int) -> Job:
    return lambda: hand_start(table=table_id, by=None).number


def act(hand_id: int, action: dict[str, Any], seq: int) -> Job:
    def job() -> int:
        _hand, row, _state = hand_apply_action(
            hand=hand_id, action=action, expected_seq=seq, by=None
        )
        return row.seq

    return job


def void(hand_id: int) -> Job:
    return lambda: hand_void_last_action(hand=hand_id, reason="race", by=None)[0].next_seq


def leave(seat_id: int) -> Job:
    return lambda: seat_leave(seat=Seat.objects.get(pk=seat_id), by=None).pk


def sit_out(seat_id: int) -> Job:
    return lambda: seat_sit_out(seat=Seat.objects.get(pk=seat_id), sitting_out=True, by=None).pk


def buy(table_id: int, number: int, player_id: int) -> Job:
    return lambda: (
        seat_buy_in(
            table=Table.objects.get(pk=table_id),
            seat_number=number,
            player=Player.objects.get(pk=player_id),
            amount=200,
            by=None,
        ).pk
    )


def rebuy(seat_id: int) -> Job:
    def job() -> int:
        seat = Seat.objects.get(pk=seat_id)
        others = list(
            Seat.objects.filter(table_id=seat.table_id, left_at__isnull=True)
            .exclude(pk=seat_id)
            .values_list("player_id", flat=True)
        )
        return seat_rebuy(seat=seat, consenting=others, by=None).stack

    return job


def move(seat_id: int, table_id: int, number: int) -> Job:
    return lambda: (
        seat_move(
            seat=Seat.objects.get(pk=seat_id),
            to_table=Table.objects.get(pk=table_id),
            to_seat=number,
            by=None,
        ).pk
    )


def balance(day_id: int, proposal_id: str) -> Job:
    return lambda: balance_apply(day=Day.objects.get(pk=day_id), proposal_id=proposal_id, by=None)[
        "id"
    ]


def close(day_id: int) -> Job:
    return lambda: day_close_request(day=Day.objects.get(pk=day_id), by=None).status


def run(close_id: int) -> Job:
    return lambda: day_close_run(close_id=close_id).status


def issue(player_id: int, amount: int) -> Job:
    return lambda: (
        player_issue_money(player=Player.objects.get(pk=player_id), amount=amount, by=None).pk
    )


def of(event_id: int, name: str) -> str:
    """``name`` as this floor's own (a surname from its event's id): people are registered once
    for every event, and the same first name in another floor's event would be asked about as
    a returning person."""
    return f"{name} {''.join(chr(ord('A') + int(d)) for d in str(event_id))}ova"


def load(event_id: int, names: list[str]) -> Job:
    def job() -> int:
        text = "name,starting_money\n" + "".join(f"{of(event_id, n)},100\n" for n in names)
        event = Event.objects.get(pk=event_id)
        batch = players_import_preview(event=event, data=text.encode(), by=None)
        return len(players_import_confirm(batch=batch, by=None))

    return job


def register(event_id: int, name: str) -> Job:
    return lambda: (
        player_register(
            event=Event.objects.get(pk=event_id),
            name=of(event_id, name),
            starting_money=100,
            by=None,
        ).pk
    )


def new_table(day_id: int) -> Job:
    return lambda: table_create(day=Day.objects.get(pk=day_id), by=None).number


def apply_draw(draw_id: int) -> Job:
    return lambda: len(seating_apply(draw=SeatingDraw.objects.get(pk=draw_id), by=None))


def open_day(day_id: int) -> Job:
    return lambda: day_open(day=Day.objects.get(pk=day_id), by=None).status


def draw(day_id: int) -> Job:
    return lambda: seating_draw(day=Day.objects.get(pk=day_id), seed="race", by=None).pk


# ------------------------------------------------------------------------------ expectations


def one_wins(f: Floor, outcomes: list[Outcome]) -> None:
    assert sorted(o.kind for o in outcomes) == ["ok", "refused"], outcomes


def sits_once(name: str) -> Expect:
    def check(f: Floor, outcomes: list[Outcome]) -> None:
        one_wins(f, outcomes)
        assert Seat.objects.filter(player=f.player(name), left_at__isnull=True).count() == 1

    return check


def everyone_once(f: Floor, outcomes: list[Outcome]) -> None:
    names = [of(f.event.pk, n) for n in ("Xavier", "Yvonne", "Zoe", "Walter")]
    assert Player.objects.filter(event=f.event, name__in=names).count() == 4, outcomes


def the_import_whole_or_not_at_all(f: Floor, outcomes: list[Outcome]) -> None:
    """A confirmation registers every row it previewed or none: the register first leaves
    the import refused (its preview is stale), the import first leaves the register refused."""
    names = [of(f.event.pk, n) for n in ("Xavier", "Yvonne", "Zoe", "Walter")]
    registered = Player.objects.filter(event=f.event, name__in=names).count()
    kinds = sorted((o.kind, o.value if o.kind == "refused" else "") for o in outcomes)
    if registered == 4:
        assert kinds == [("ok", ""), ("refused", "player_exists")], outcomes
    else:
        assert registered == 1, outcomes
        assert kinds == [("ok", ""), ("refused", "import_stale")], outcomes


def day_closed(f: Floor, outcomes: list[Outcome]) -> None:
    assert Day.objects.get(pk=f.day.pk).status == Day.Status.CLOSED, outcomes


def drawn_from_qualifiers(f: Floor, outcomes: list[Outcome]) -> None:
    qualified = set(
        Qualification.objects.filter(day__event=f.event, day__number=2).values_list(
            "player_id", flat=True
        )
    )
    for o in outcomes:
        if o.kind == "ok" and isinstance(o.value, int):
            drawn = SeatingDraw.objects.filter(pk=o.value).first()
            if drawn is not None:
                placed = {e["player"] for t in drawn.plan for e in t["seats"]}
                assert placed <= qualified, (placed, qualified)


# --------------------------------------------------------------------------------- set-ups


def day2(f: Floor) -> Day:
    return Day.objects.get(event=f.event, number=2)


def closed_day1(f: Floor) -> Day:
    """Day 1 closed (everyone qualifies for day 2); day 2 scheduled."""
    day_close_request(day=f.day, by=None)  # tasks run eagerly: done when this returns
    assert Day.objects.get(pk=f.day.pk).status == Day.Status.CLOSED
    return day2(f)


def seat_of(f: Floor, name: str) -> int:
    return f.seat(name).pk


def player_of(f: Floor, name: str) -> int:
    return f.player(name).pk


def the_move(f: Floor) -> str:
    """Three players at table 1, one at table 2: move Chris (table 1's highest seat)."""
    assert f.t2
    return next(p["id"] for p in balance_proposals(day=f.day) if p["kind"] == "move")


def settle(f: Floor) -> Job:
    """The action that settles a hand at table 1 (``floor.one_to_settle``: Chris wins)."""
    hand = one_to_settle(f)
    return act(hand.pk, SETTLING, hand.next_seq)


def settle_and(f: Floor, other: Callable[[int], Job]) -> tuple[Job, Job]:
    """The settling action, and another job on the same hand."""
    hand = one_to_settle(f)
    return act(hand.pk, SETTLING, hand.next_seq), other(hand.pk)


PAIRS: dict[str, list[Pair]] = {
    "table": [
        Pair("hand start × leave", lambda f: (start(f.t1.pk), leave(seat_of(f, "Chris")))),
        Pair(
            "hand start × buy-in",
            lambda f: (start(f.t1.pk), buy(f.t1.pk, 5, player_of(f, "Gina"))),
        ),
        Pair("hand start × sit out", lambda f: (start(f.t1.pk), sit_out(seat_of(f, "Chris")))),
        Pair(
            "hand start × move",
            lambda f: (start(f.t1.pk), move(seat_of(f, "Chris"), f.t2.pk, 3)),
        ),
        Pair(
            "hand start × hand start",
            lambda f: (start(f.t1.pk), start(f.t1.pk)),
            one_wins,
            symmetric=True,
        ),
        Pair("hand start × close", lambda f: (start(f.t1.pk), close(f.day.pk))),
        Pair("hand start × void", lambda f: (start(f.t1.pk), void(settled(f).pk))),
        Pair(
            "hand start × re-buy", lambda f: (start(run_out(f).table_id), rebuy(f.seat("Gina").pk))
        ),
        Pair(
            "settling action × leave",
            lambda f: (settle(f), leave(seat_of(f, "Bill"))),
        ),
        Pair(
            "settling action × buy-in",
            lambda f: (settle(f), buy(f.t1.pk, 5, player_of(f, "Gina"))),
        ),
        Pair(
            "settling action × move",
            lambda f: (settle(f), move(seat_of(f, "Chris"), f.t2.pk, 3)),
        ),
        Pair(
            "settling action × balancing",
            lambda f: (settle(f), balance(f.day.pk, the_move(f))),
        ),
        Pair("settling action × close", lambda f: (settle(f), close(f.day.pk))),
        Pair(
            "settling action × void",
            lambda f: settle_and(f, void),
        ),
        Pair(
            "settling action × sit out",
            lambda f: (settle(f), sit_out(seat_of(f, "Bill"))),
        ),
        Pair(
            "settling action × the same action",
            lambda f: settle_and(f, lambda h: act(h, SETTLING, Hand.objects.get(pk=h).next_seq)),
            one_wins,
            symmetric=True,
        ),
        Pair("void × leave", lambda f: (void(settled(f).pk), leave(seat_of(f, "Chris")))),
        Pair("void × move", lambda f: (void(settled(f).pk), move(seat_of(f, "Chris"), f.t2.pk, 3))),
        Pair("void × close", lambda f: (void(settled(f).pk), close(f.day.pk))),
        Pair(
            "void × void", lambda f: (lambda h: (void(h), void(h)))(settled(f).pk), symmetric=True
        ),
        Pair(
            "void × buy-in", lambda f: (void(settled(f).pk), buy(f.t1.pk, 5, player_of(f, "Gina")))
        ),
        Pair(
            "leave × leave",
            lambda f: (leave(seat_of(f, "Chris")), leave(seat_of(f, "Chris"))),
            symmetric=True,
        ),
        Pair(
            "leave × sit out", lambda f: (leave(seat_of(f, "Chris")), sit_out(seat_of(f, "Chris")))
        ),
        Pair("leave × close", lambda f: (leave(seat_of(f, "Chris")), close(f.day.pk))),
        Pair("re-buy × leave", lambda f: (rebuy(run_out(f).pk), leave(f.seat("Gina").pk))),
        Pair("re-buy × close", lambda f: (rebuy(run_out(f).pk), close(f.day.pk))),
        Pair(
            "re-buy × re-buy",
            lambda f: (lambda s: (rebuy(s), rebuy(s)))(run_out(f).pk),
            one_wins,
            symmetric=True,
        ),
    ],
    "seats": [
        Pair(
            "buy-in × buy-in at one seat",
            lambda f: (
                buy(f.t1.pk, 5, player_of(f, "Gina")),
                buy(f.t1.pk, 5, player_of(f, "Hal")),
            ),
            one_wins,
        ),
        Pair(
            "buy-in × buy-in of one player",
            lambda f: (
                buy(f.t1.pk, 5, player_of(f, "Gina")),
                buy(f.t2.pk, 3, player_of(f, "Gina")),
            ),
            sits_once("Gina"),
        ),
        Pair("buy-in × close", lambda f: (buy(f.t1.pk, 5, player_of(f, "Gina")), close(f.day.pk))),
        Pair(
            "buy-in × move of one player",
            lambda f: (
                buy(f.t2.pk, 4, player_of(f, "Chris")),
                move(seat_of(f, "Chris"), f.t2.pk, 3),
            ),
            sits_once("Chris"),
        ),
        Pair(
            "buy-in × table create",
            lambda f: (buy(f.t1.pk, 5, player_of(f, "Gina")), new_table(f.day.pk)),
        ),
        Pair(
            "move × move to one seat",
            lambda f: (
                move(seat_of(f, "Chris"), f.t2.pk, 3),
                move(seat_of(f, "Bill"), f.t2.pk, 3),
            ),
            one_wins,
        ),
        Pair(
            "move × leave of one player",
            lambda f: (move(seat_of(f, "Chris"), f.t2.pk, 3), leave(seat_of(f, "Chris"))),
        ),
        Pair("move × close", lambda f: (move(seat_of(f, "Chris"), f.t2.pk, 3), close(f.day.pk))),
        Pair(
            "balancing × balancing",
            lambda f: (lambda p: (balance(f.day.pk, p), balance(f.day.pk, p)))(the_move(f)),
            one_wins,
            symmetric=True,
        ),
        Pair("balancing × close", lambda f: (balance(f.day.pk, the_move(f)), close(f.day.pk))),
        Pair(
            "balancing × leave",
            lambda f: (balance(f.day.pk, the_move(f)), leave(seat_of(f, "Chris"))),
        ),
    ],
    "players": [
        Pair(
            "issue × buy-in",
            lambda f: (issue(player_of(f, "Gina"), 50), buy(f.t1.pk, 5, player_of(f, "Gina"))),
        ),
        Pair("issue × close", lambda f: (issue(player_of(f, "Andy"), 7), close(f.day.pk))),
        Pair(
            "issue × issue",
            lambda f: (issue(player_of(f, "Andy"), 7), issue(player_of(f, "Andy"), 9)),
            symmetric=True,
        ),
        Pair(
            "import × import, names in opposite orders",
            lambda f: (
                load(f.event.pk, ["Walter", "Xavier", "Yvonne", "Zoe"]),
                load(f.event.pk, ["Zoe", "Yvonne", "Xavier", "Walter"]),
            ),
            everyone_once,
        ),
        Pair(
            "register × import",
            lambda f: (
                register(f.event.pk, "Xavier"),
                load(f.event.pk, ["Walter", "Xavier", "Yvonne", "Zoe"]),
            ),
            the_import_whole_or_not_at_all,
        ),
    ],
    "days": [
        Pair(
            "close × close",
            lambda f: (close(f.day.pk), close(f.day.pk)),
            day_closed,
            symmetric=True,
        ),
        Pair("close × table create", lambda f: (close(f.day.pk), new_table(f.day.pk))),
        Pair(
            "close × seating apply",
            lambda f: (close(f.day.pk), apply_draw(seating_draw(day=f.day, by=None).pk)),
        ),
        Pair(
            "close × qualification rule",
            lambda f: (
                close(f.day.pk),
                lambda: (
                    day_set_qualification(
                        day=Day.objects.get(pk=f.day.pk), rule="top", top=3, by=None
                    ).qualify_rule
                ),
            ),
        ),
        Pair(
            "close × rules change",
            lambda f: (
                close(f.day.pk),
                lambda: (
                    day_update_rules(
                        day=Day.objects.get(pk=f.day.pk), changes={"max_bet": 30}, by=None
                    ).max_bet
                ),
            ),
        ),
        Pair(
            "a queued close run twice (a redelivered task)",
            lambda f: (lambda c: (run(c), run(c)))(DayClose.objects.create(day=f.day).pk),
            day_closed,
            symmetric=True,
        ),
        Pair(
            "a failed close asked again × its redelivered run",
            lambda f: (lambda c: (close(f.day.pk), run(c)))(
                DayClose.objects.create(day=f.day, status=DayClose.Status.FAILED, runs=1).pk
            ),
            day_closed,
        ),
        Pair(
            "seating apply × seating apply",
            lambda f: (lambda d: (apply_draw(d), apply_draw(d)))(
                seating_draw(day=f.day, by=None).pk
            ),
            one_wins,
            symmetric=True,
        ),
        Pair(
            "table create × table create",
            lambda f: (new_table(f.day.pk), new_table(f.day.pk)),
            symmetric=True,
        ),
        Pair(
            "day 2 opened twice",
            lambda f: (lambda d: (open_day(d), open_day(d)))(closed_day1(f).pk),
            one_wins,
            symmetric=True,
        ),
        Pair("day 2 opened × day 1 closed", lambda f: (open_day(day2(f).pk), close(f.day.pk))),
        Pair(
            "day 2 drawn × day 1 closed",
            lambda f: (draw(day2(f).pk), close(f.day.pk)),
            drawn_from_qualifiers,
        ),
        Pair(
            "day 2 drawn × day 2 opened",
            lambda f: (lambda d: (draw(d), open_day(d)))(closed_day1(f).pk),
            drawn_from_qualifiers,
        ),
    ],
}


def _one_run(pair: Pair, how: str) -> list[str]:
    """Build a floor, run the pair one way, and say what went wrong (nothing: [])."""
    try:
        f = floor()
        a, b = pair.build(f)
        if how == "race":
            outcomes, seen = race(a, b), "together"
        elif how == "a first":
            outcomes, seen = interleave(a, b, after=1)
        else:
            outcomes, seen = interleave(b, a, after=1)
            outcomes = outcomes[::-1]
        label = f"{pair.name} ({how}; the other one {seen}): {outcomes}"
        found = [f"{label}: a raw error escaped a service:\n{c}" for c in crashes(outcomes)]
        if not found and pair.expect is not None:
            try:
                pair.expect(f, outcomes)
            except AssertionError as err:
                found.append(f"{label}: {err}")
        found += [f"{label}: {p}" for p in problems(f.event)]
        return found
    finally:
        connections.close_all()


@pytest.mark.parametrize("area", list(PAIRS))
def test_pairs_started_together_leave_nothing_wrong(area: str) -> None:
    runs = [
        (pair, how)
        for pair in PAIRS[area]
        for how in ["a first", *([] if pair.symmetric else ["b first"]), *["race"] * REPEAT]
    ]
    with ThreadPoolExecutor(max_workers=PARALLEL) as pool:
        found = [p for problems_ in pool.map(lambda r: _one_run(*r), runs) for p in problems_]
    assert not found, f"{len(found)} problem(s) in {len(runs)} runs:\n" + "\n\n".join(found)
