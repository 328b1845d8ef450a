"""Read side of hands: the live state is always the engine's replay of the log."""

from __future__ import annotations

from collections.abc import Container
from typing import Any

from django.db.models import QuerySet

from brag_event.engine import HandState, cards_str

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


# ------------------------------------------------------------ what a player may see of a hand


def cards_shown_to(player_id: int, hand: Hand, *, day_closed: bool) -> dict[int, str]:
    """The cards of ``hand`` that the player ``player_id`` may see, by seat: the one rule for
    every page and answer that shows a player their hands (the player's page, ``/api/v1/me/``).

    Nothing until the day is over (``day_closed``: the hand's day has closed), nothing of a
    hand the player was not dealt into, nothing of a misdealt or unsettled hand. Then exactly
    the hands shown at the table — at a see, for a covered pot or at an agreed showdown (the
    engine's ``Outcome.shown``) — the player's own among them: a hand folded, given up at the
    showdown or never needed was never entered, and a voided entry is not in the replay, so
    neither can appear (the event sheet: cards are never shown to anyone else unless the
    betting ends with a see)."""
    if not day_closed or hand.status != Hand.Status.SETTLED:
        return {}
    seats = {s.get("player_id"): s.get("seat") for s in hand.seats or []}
    if player_id not in seats:
        return {}
    state = hand_state(hand)
    outcome = state.outcome
    if outcome is None or outcome.misdeal is not None or seats[player_id] not in state.by_seat:
        return {}
    return {seat: cards_str(cards) for seat, cards in outcome.shown.items()}


def without_cards_not_shown(data: Any, visible: Container[int]) -> Any:
    """``data`` (a hand as an answer: its state, result, log or ``brag-hh/1`` document) with
    every card text of a seat not in ``visible`` taken out: the ``cards`` and ``shown`` maps
    keyed by seat, and the ``cards`` of an entry naming its ``seat`` (the key left out)."""
    if isinstance(data, list):
        return [without_cards_not_shown(item, visible) for item in data]
    if not isinstance(data, dict):
        return data
    out: dict[str, Any] = {}
    for key, value in data.items():
        if key in ("cards", "shown") and isinstance(value, dict):
            out[key] = {s: v for s, v in value.items() if _seat(s) in visible}
        elif key == "cards" and isinstance(value, str) and value:
            if _seat(data.get("seat")) in visible:  # else left out, as an entry without cards
                out[key] = value
        else:
            out[key] = without_cards_not_shown(value, visible)
    return out


def _seat(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None
