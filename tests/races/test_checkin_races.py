"""Check-in at a desk of two (issue 47), on PostgreSQL: two staff checking the same player in at
the same moment — or the desk and the player's own phone — make one check-in, both answered
with it, one entry on the day's own chain; two staff checking two players in at once lose
neither; two late arrivals for the last free seat never take it twice. Each released by a
barrier and forced to interleave both ways (``harness``)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from brag_event.audit.models import AuditEntry, Verb
from brag_event.events.models import Day, Event
from brag_event.events.services import day_open, event_create_flash
from brag_event.hands.chain import day_chains
from brag_event.players.checkin import checkin_window_set, player_check_in
from brag_event.players.models import CheckIn, Player
from brag_event.players.services import player_register
from brag_event.tables.models import Seat
from brag_event.tables.seating import seat_late_arrival, seating_apply, seating_draw

from .floor import problems
from .harness import Outcome, crashes, interleave, race

# slow: races on PostgreSQL
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

DAY_LOCKED = 1  # the check-in's first locking statement: the day's row


def desk(name: str, players: int = 2) -> tuple[Event, Day, list[Player]]:
    event = event_create_flash(name=name, by=None)
    day = day_open(day=event.days.get(number=1), by=None)
    now = timezone.now()
    checkin_window_set(
        day=day, opens_at=now - timedelta(minutes=5), closes_at=now + timedelta(hours=1), by=None
    )
    found = [
        player_register(event=event, name=f"Player {i}", starting_money=1000, by=None)
        for i in range(players)
    ]
    return event, day, found


def check_in(day: Day, player: Player, how: str = "desk") -> Any:
    return lambda: (
        player_check_in(day=Day.objects.get(pk=day.pk), player=player, how=how, by=None)[0].pk
    )


def intact(event: Event, day: Day, outcomes: list[Outcome], *, check_ins: int) -> None:
    assert not crashes(outcomes), "\n".join(crashes(outcomes))
    assert all(o.kind == "ok" for o in outcomes), outcomes
    assert CheckIn.objects.filter(day=day).count() == check_ins
    assert AuditEntry.objects.filter(verb=Verb.PLAYER_CHECK_IN, day=day).count() == check_ins
    (chained,) = list(day_chains(Day.objects.filter(pk=day.pk)))
    assert not chained.problems, chained.problems
    assert len(chained.entries) == check_ins
    found = problems(event)
    assert not found, "\n".join(found)


@pytest.mark.parametrize("how", ["barrier", "desk first", "phone first"])
def test_two_desks_or_a_desk_and_the_phone_check_one_player_in_once(how: str) -> None:
    event, day, (sam, _other) = desk(f"ONE {how}")
    at_desk, on_phone = check_in(day, sam, "desk"), check_in(day, sam, "page")
    if how == "barrier":
        outcomes = race(at_desk, check_in(day, sam, "desk"))
    else:
        first, second = (at_desk, on_phone) if how == "desk first" else (on_phone, at_desk)
        outcomes, seen = interleave(first, second, after=DAY_LOCKED)
        assert seen == "blocked", seen  # on the day's row, until the first committed
    intact(event, day, outcomes, check_ins=1)
    assert outcomes[0].value == outcomes[1].value  # both answered with the one check-in


def test_two_desks_checking_two_players_in_at_once_lose_neither() -> None:
    event, day, (sam, kim) = desk("TWO")
    outcomes, seen = interleave(check_in(day, sam), check_in(day, kim), after=DAY_LOCKED)
    assert seen == "blocked", seen
    intact(event, day, outcomes, check_ins=2)
    outcomes = race(check_in(day, sam), check_in(day, kim))  # again: both already in
    intact(event, day, outcomes, check_ins=2)


def test_two_late_arrivals_for_the_last_free_seat_never_take_it_twice() -> None:
    # 11 checked in and drawn: tables of 6 and 5 (six seats a table), one free seat left.
    event, day, players = desk("LATE", players=13)
    for p in players[:11]:
        player_check_in(day=day, player=p, how="page", by=None)
    seating_apply(draw=seating_draw(day=day, seed="late", by=None), by=None)
    first, second = players[11], players[12]
    for p in (first, second):
        player_check_in(day=day, player=p, how="desk", by=None)

    def seat(p: Player) -> Any:
        return lambda: seat_late_arrival(day=Day.objects.get(pk=day.pk), player=p, by=None).pk

    outcomes, seen = interleave(seat(first), seat(second), after=DAY_LOCKED)
    assert not crashes(outcomes), "\n".join(crashes(outcomes))
    assert seen == "blocked", seen
    assert [o.kind for o in outcomes] == ["ok", "refused"], outcomes
    assert outcomes[1].value == "no_free_seat"
    seated = Seat.objects.filter(table__day=day, left_at__isnull=True)
    assert seated.count() == 12
    numbers = list(seated.values_list("table_id", "number"))
    assert len(numbers) == len(set(numbers))
    found = problems(event)
    assert not found, "\n".join(found)
