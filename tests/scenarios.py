"""Hands played through the services to each way a hand can end, for the tests of what is
shown afterwards (the results' hand history, a player's own hands): by folds, by a see, by a
see given up (conceded), and by a covered pot. Each returns the settled hand. All but the
folds are the table's first hand (the button at seat 1: Bill, seat 2, acts first)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from brag_event.closing.services import day_close_request
from brag_event.events.models import Event
from brag_event.events.services import day_open
from brag_event.hands.models import Hand
from brag_event.hands.selectors import hand_state
from brag_event.hands.services import hand_void_last_action
from brag_event.players.models import Person, Player
from brag_event.players.services import player_register

from .factories import World, act, play_day, start, world

# The cards each seat shows where a hand needs them (distinct across seats).
CARDS = {1: "2c 7d 9h", 2: "As Ad 2c", 3: "Kh Kd 4c"}


def ends_by_folds(w: World) -> Hand:
    """The first to act looks and bets 10 (Bill, seat 2, at the table's first hand); everyone
    else folds. Nothing is shown."""
    hand = start(w)
    first = hand_state(hand).to_act
    act(hand, seat=first, action="look")
    hand, state = act(hand, seat=first, action="bet", amount=10)
    while state.to_act is not None:
        hand, state = act(hand, seat=state.to_act, action="fold")
    return hand


def _to_a_see(w: World) -> Hand:
    hand = start(w)
    act(hand, seat=2, action="look")
    act(hand, seat=2, action="bet", amount=10)
    act(hand, seat=3, action="look")
    hand, state = act(hand, seat=3, action="bet", amount=10)
    while state.to_act != 2:
        hand, state = act(hand, seat=state.to_act, action="fold")
    act(hand, seat=2, action="see", amount=20)
    return hand


def ends_by_a_see(w: World) -> Hand:
    """Andy folds; Bill sees Chris: Chris shows a pair of kings, Bill a pair of aces and wins."""
    hand = _to_a_see(w)
    act(hand, seat=3, cards=CARDS[3], action="show")
    hand, _ = act(hand, seat=2, cards=CARDS[2], action="show")
    return hand


def ends_by_a_concede(w: World, *, wrong: str = "Qs Qd 5h") -> Hand:
    """Bill sees Chris, Chris shows; the dealer first enters ``wrong`` cards for Bill, voids
    them, and Bill gives up without showing: his cards stay unknown (RULES §3.6)."""
    hand = _to_a_see(w)
    act(hand, seat=3, cards=CARDS[3], action="show")
    act(hand, seat=2, cards=wrong, action="show")  # settles the hand: Bill's queens lose
    hand.refresh_from_db()
    hand_void_last_action(hand=hand, reason="entered by mistake", by=None)
    hand, _ = act(hand, seat=2, action="concede")
    return hand


def ends_by_a_cover(w: World) -> Hand:
    """With 90 each at the table: Andy folds; Bill and Chris bet until Chris, short, covers
    the pot. Both hands are shown (the coverer's and the other's)."""
    hand = start(w)
    act(hand, seat=2, action="look")
    act(hand, seat=2, action="bet", amount=20)
    act(hand, seat=3, action="look")
    act(hand, seat=3, action="bet", amount=40)
    act(hand, seat=1, action="fold")
    act(hand, seat=2, action="bet", amount=60)
    hand, state = act(hand, seat=3, action="cover")
    for seat in list(state.cards_needed):
        hand, state = act(hand, seat=seat, cards=CARDS[seat], action="show")
    return hand


def finished(
    name: str,
    play: Callable[[World], Hand],
    commits: Any,
    *,
    others: Iterable[tuple[str, int]] = (),
    returning: bool = True,
) -> Event:
    """A three-day event of Andy, Bill and Chris (and ``others``, registered with their money
    and never seated): ``play`` is day 1's one hand; days 2 and 3 seat the three, who play one
    hand that the leader wins from the others' antes (so each day's order is day 1's); every
    day closed (``commits``: pytest-django's ``django_capture_on_commit_callbacks``).
    ``returning``: players already registered (by name) in another event are entered as the
    same people, as a series counts them."""
    w = world(3, name=name, returning=returning)
    for other, money in others:
        person = Person.objects.filter(name=other, merged_into=None).first() if returning else None
        player_register(event=w.event, name=other, starting_money=money, person=person, by=None)
    play(w)
    days_played_and_closed(w, commits)
    return w.event


def days_played_and_closed(w: World, commits: Any) -> None:
    """Close day 1 of ``w`` (played), then open, play and close days 2 and 3: the three players
    of ``w`` sit at a new table each day and play one hand that the leader wins from the
    others' antes, so each day's order is day 1's (``commits``: pytest-django's
    ``django_capture_on_commit_callbacks``)."""
    for number in (1, 2, 3):
        day = w.event.days.get(number=number)
        if number > 1:
            day = day_open(day=day, by=None)
            leader = max(
                Player.objects.filter(pk__in=[p.pk for p in w.players]),
                key=lambda p: (p.balance, -p.pk),
            )
            play_day(day, w.players, winner=leader)
        with commits(execute=True):
            day_close_request(day=day, by=None)
