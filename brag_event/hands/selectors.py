"""Read side of hands: the live state is always the engine's replay of the log."""

from __future__ import annotations

from django.db.models import QuerySet

from brag_event.engine import HandState

from .models import Hand, HandAction
from .money import engine_action, state_start


def hand_live_actions(hand: Hand) -> QuerySet[HandAction]:
    return hand.actions.filter(void__isnull=True).order_by("seq")


def hand_state(hand: Hand) -> HandState:
    state = state_start(hand)
    for row in hand_live_actions(hand):
        state.apply(engine_action(row))
    return state
