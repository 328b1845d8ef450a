"""A small event for the integrity monitor's database tests: three players at one table, two
dealers and a supervisor, hands played through the services with real cards."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth.models import Group, User

from brag_event.core.actors import Actor
from brag_event.hands.models import Hand
from brag_event.hands.selectors import hand_state
from brag_event.hands.services import hand_apply_action, hand_start, hand_void_last_action
from tests.api.conftest import api  # noqa: F401 (the API tests' fixture, used here too)
from tests.factories import World, world


@dataclass
class Floor:
    world: World
    users: dict[str, User]

    def actor(self, role: str) -> Actor:
        return Actor(self.users[role], f"token:{role} tablet")

    def act(self, hand: Hand, by: str = "dealer1", **action: Any) -> Hand:
        hand.refresh_from_db()
        hand, _row, _state = hand_apply_action(
            hand=hand, action=action, expected_seq=hand.next_seq, by=self.actor(by)
        )
        return hand

    def start(self, by: str = "dealer1") -> Hand:
        return hand_start(table=self.world.table, by=self.actor(by))

    def void(self, hand: Hand, reason: str = "wrong amount") -> Hand:
        hand, _state = hand_void_last_action(hand=hand, reason=reason, by=self.actor("supervisor"))
        return hand

    def showdown_hand(self, by: str = "dealer1") -> Hand:
        """Seat 2 looks and bets 10; seat 3, blind, pays 5; seat 1 (blind) folds; seat 2 bets
        10; seat 3 sees blind for 10. Seat 2 shows a pair, seat 3 (never looked) a running
        flush and wins."""
        hand = self.start(by)
        for action in (
            {"seat": 2, "action": "look"},
            {"seat": 2, "action": "bet", "amount": 10},
            {"seat": 3, "action": "bet", "amount": 5},
            {"seat": 1, "action": "fold"},
            {"seat": 2, "action": "bet", "amount": 10},
            {"seat": 3, "action": "see", "amount": 10},
            {"seat": 2, "action": "show", "cards": "As Ad 2c"},
            {"seat": 3, "action": "show", "cards": "Kh Qh Jh"},
        ):
            hand = self.act(hand, by=by, **action)
        assert hand.status == Hand.Status.SETTLED
        return hand

    def folded_hand(self, by: str = "dealer1", *, voided: bool = False) -> Hand:
        """The first to act looks and bets 10; everyone else folds. With ``voided``, the dealer
        first enters a look that the supervisor voids."""
        hand = self.start(by)
        if voided:
            state = hand_state(hand)
            hand = self.act(hand, by=by, seat=state.players[state.turn].seat, action="look")
            hand = self.void(hand)
        return self.play_out(hand, by)

    def play_out(self, hand: Hand, by: str) -> Hand:
        for _ in range(6):
            hand.refresh_from_db()
            if hand.status == Hand.Status.SETTLED:
                break
            state = hand_state(hand)
            seat = state.players[state.turn].seat
            if state.stake == 0:
                hand = self.act(hand, by=by, seat=seat, action="look")
                hand = self.act(hand, by=by, seat=seat, action="bet", amount=10)
            else:
                hand = self.act(hand, by=by, seat=seat, action="fold")
        assert hand.status == Hand.Status.SETTLED
        return hand


@pytest.fixture
def floor(db: Any) -> Floor:
    w = world(3)
    users: dict[str, User] = {}
    for name, group in (
        ("organiser", "organiser"),
        ("supervisor", "supervisor"),
        ("dealer1", "dealer"),
        ("dealer2", "dealer"),
        ("player", None),
        ("nobody", None),
    ):
        user = User.objects.create_user(name, password="x")
        if group:
            user.groups.add(Group.objects.get_or_create(name=group)[0])
        users[name] = user
    w.table.dealers.add(users["dealer1"], users["dealer2"])
    w.players[0].user = users["player"]
    w.players[0].save()
    return Floor(w, users)
