"""Read side of hands: the live state is always the engine's replay of the log."""

from __future__ import annotations

from django.db.models import QuerySet

from brag_event.engine import HandState

from .models import Hand, HandAction
from .money import LogRow, log_action, state_start

LOG_FIELDS = ("seq", "seat", "action", "amount", "hand_choice", "cards")


def hand_live_actions(hand: Hand) -> QuerySet[HandAction]:
    return hand.actions.filter(void__isnull=True).order_by("seq")


def hand_log(hand: Hand) -> list[LogRow]:
    """The live (not voided) actions as plain rows ``(seq, seat, action, amount, hand, cards)``:
    what a replay needs, without building a model instance per action."""
    return list(hand_live_actions(hand).values_list(*LOG_FIELDS))


def hand_state(hand: Hand, log: list[LogRow] | None = None) -> HandState:
    state = state_start(hand)
    for row in hand_log(hand) if log is None else log:
        action = log_action(row)
        if action.action == "misdeal":
            # The reason is kept with the hand's result (and ``floor.Misdeal``), not in the row.
            reason = ((hand.result or {}).get("misdeal") or {}).get("reason")
            action = action._replace(reason=reason if isinstance(reason, str) else None)
        state.apply(action)
    return state
