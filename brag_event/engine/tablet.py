"""What the dealer's tablet shows of a hand, computed by the engine alone.

The server's API builds the live part of a hand from :func:`hand_live` (``api.resources.state``) and
deals the next hand at the seat :func:`first_dealer` names (``hands.services``). The tablet runs
this same package in the browser (Pyodide, ``static/tablet/offline/``) when the network is gone:
:func:`answer` is its one entry point — JSON in, JSON out — and rebuilds a hand from its
``brag-hh/1`` document plus the actions queued on the tablet, deals the next hand from the table
as the tablet last saw it, and says what the table looks like after a settlement. One engine, two
places: nothing here is a second copy of a rule.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from .errors import EngineError
from .history import dump, load_history, outcome_dict, replay
from .model import Action, SeatSetup
from .rules import Rules
from .state import HandState

_ACTION_FIELDS = ("seat", "amount", "hand", "cards")


def hand_live(state: HandState) -> dict[str, Any]:
    """The engine's part of a hand's view: the phase, whose turn, the stake, pots and players,
    the actions legal now (with amounts, costs and the reason for those not allowed), the live
    log, and the outcome once settled (what the server stores as the hand's ``result``)."""
    engine = state.to_dict()
    return {
        "phase": engine["phase"],
        "to_act": engine["to_act"],
        "stake": engine["stake"],
        "pots": engine["pots"],
        "players": engine["players"],
        "pending": engine["pending"],
        "must_choose": engine["must_choose"],
        "cards_needed": engine["cards_needed"],
        "legal_actions": [a.to_dict() for a in state.legal_actions()],
        "actions": [a.to_dict() for a in state.log],
        "result": outcome_dict(state) if state.outcome is not None else None,
    }


def first_dealer(
    button: int | None, seated: Sequence[int], seats: int, out: Collection[int] = ()
) -> int:
    """Who deals the next hand: the button's seat if seated, else the next seated seat clockwise
    from it (the first seated seat at a table that has no button yet). The deal passes over the
    seats in ``out``, players sitting out (RULES §3.12), unless every seated player sits out."""
    able = [s for s in seated if s not in out] or list(seated)
    if button is None:
        return able[0]
    for step in range(seats):
        seat = (button - 1 + step) % seats + 1
        if seat in able:
            return seat
    return able[0]


def _sitting_out(table: Mapping[str, Any]) -> list[int]:
    return [s["number"] for s in table["seats"] if s.get("sitting_out")]


def next_dealer(table: Mapping[str, Any]) -> int | None:
    """Who deals the next hand at ``table`` (the tablet's dealer button between hands)."""
    seated = sorted(s["number"] for s in table["seats"])
    if not seated:
        return None
    rules = Rules.from_dict(table["rules"])
    return first_dealer(table.get("button"), seated, rules.seats, _sitting_out(table))


def next_hand(table: Mapping[str, Any]) -> HandState:
    """The next hand at a table, as the server's ``hand_start`` deals it. ``table`` is what the
    tablet knows: ``rules``, ``button``, ``carried`` (``pot``, ``seat``), ``shuffle_next`` and
    ``seats`` (``number``, ``player`` name, ``stack``, ``sitting_out``) of the seated players."""
    rules = Rules.from_dict(table["rules"])
    seated = sorted(table["seats"], key=lambda s: s["number"])
    if len(seated) < 2:
        raise EngineError("not_enough_players", ante=rules.ante, count=len(seated))
    numbers = [s["number"] for s in seated]
    carried = table.get("carried") or {}
    carried_seat = carried.get("seat")
    return HandState(
        rules,
        first_dealer(table.get("button"), numbers, rules.seats, _sitting_out(table)),
        [SeatSetup(s["number"], s["player"], s["stack"], bool(s["sitting_out"])) for s in seated],
        carried_pot=carried.get("pot") or 0,
        carried_seat=carried_seat if carried_seat in numbers else None,
        first_deal=bool(table.get("shuffle_next")),
    )


def table_after(table: Mapping[str, Any], state: HandState) -> dict[str, Any]:
    """The table once ``state`` has settled, as the server leaves it: every seat's stack, the
    button passed on, the carried pot and the seat that kept a blind hand, the shuffle."""
    outcome = state.outcome
    if outcome is None:
        raise EngineError("invalid_setup", problem="the hand has not settled")
    seats = [dict(s, stack=outcome.stacks.get(s["number"], s["stack"])) for s in table["seats"]]
    return dict(
        table,
        seats=seats,
        button=outcome.next_dealer,
        shuffle_next=outcome.shuffle,
        carried={"pot": outcome.carried_pot, "seat": outcome.carried_seat},
    )


def _action(raw: Mapping[str, Any]) -> Action:
    return Action(str(raw["action"]), *(raw.get(name) for name in _ACTION_FIELDS))


def _state(history: Mapping[str, Any], queued: Sequence[Mapping[str, Any]]) -> HandState:
    state = replay(load_history(history))
    for index, raw in enumerate(queued):
        try:
            state.apply(_action(raw))
        except EngineError as err:
            raise err.with_index(index) from None
    return state


def _one(request: Mapping[str, Any]) -> dict[str, Any]:
    op = request.get("op")
    if op == "hand":
        # The hand from its document and the actions queued after it.
        state = _state(request["history"], request.get("queued") or [])
        return {"hand": hand_live(state), "history": dump(state)}
    if op == "steps":
        # The hand after each queued action in turn: one replay for a whole hand's views.
        state = replay(load_history(request["history"]))
        views = [hand_live(state)]
        for index, raw in enumerate(request.get("queued") or []):
            try:
                state.apply(_action(raw))
            except EngineError as err:
                raise err.with_index(index) from None
            views.append(hand_live(state))
        return {"hands": views}
    if op == "start":
        # The next hand at the table (after the queued hand, when one is given and settled).
        table = request["table"]
        if request.get("history") is not None:
            table = table_after(table, _state(request["history"], request.get("queued") or []))
        state = next_hand(table)
        return {
            "hand": hand_live(state),
            "history": dump(state),
            "dealer": state.dealer,
            "shuffle_before": state.shuffle_before_deal,
            "carried": {"pot": state.carried_in, "seat": state.carried_seat_in},
            "table": table,
            "next_dealer": state.dealer,
        }
    if op == "after":
        # The table once the queued hand has settled, and who deals the hand after it.
        state = _state(request["history"], request.get("queued") or [])
        table = table_after(request["table"], state)
        return {"table": table, "next_dealer": next_dealer(table)}
    raise EngineError("invalid_history", index=None, problem=f"unknown request {op!r}")


def answer(text: str) -> str:
    """The tablet's one call into the engine: a JSON request (or a list of them) in, a JSON
    answer (or a list) out. Refusals are answers, ``{"error": {code, message, index}}``, never
    exceptions: the tablet shows them in words."""
    request = json.loads(text)
    many = isinstance(request, list)
    out = []
    for one in request if many else [request]:
        try:
            out.append({"ok": True, **_one(one)})
        except EngineError as err:
            out.append(
                {
                    "ok": False,
                    "error": {"code": err.code, "message": err.message, "index": err.index},
                }
            )
        except (KeyError, TypeError, ValueError) as err:
            out.append({"ok": False, "error": {"code": "bad_request", "message": repr(err)}})
    return json.dumps(out if many else out[0])
