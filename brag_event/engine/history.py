"""``brag-hh/1``: one JSON document that describes a hand completely (RULES §5).

:func:`load_history` validates a document into a :class:`HandHistory`; :func:`replay` plays it
through the state machine (feeding the shown cards when the betting ends); :func:`dump` writes a
state back as a document; :func:`outcome_dict` is what the CLI prints.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final, Protocol

from .cards import cards_str, parse_cards
from .errors import EngineError, IllegalAction
from .model import ACTIONS, SHOWING, Action, SeatSetup
from .rules import Rules
from .state import HandState

FORMAT: Final = "brag-hh/1"
_TOP_KEYS: Final = {
    "format",
    "rules",
    "dealer",
    "seats",
    "carried",
    "actions",
    "cards",
    "meta",
    # The tamper-evident record (``chain``): the hand's head and its entries outside the live
    # log; replay ignores them.
    "head",
    "others",
}
_ACTION_KEYS: Final = {"seat", "action", "amount", "hand", "cards", "reason", "seq", "hash"}
_SEAT_KEYS: Final = {"seat", "player", "stack", "sitting_out", "penalty"}


class SetUp(Protocol):
    """What a hand starts from: a document's set-up (:class:`HandHistory`), a test's table."""

    @property
    def rules(self) -> Rules: ...
    @property
    def dealer(self) -> int: ...
    @property
    def seats(self) -> tuple[SeatSetup, ...]: ...
    @property
    def carried_pot(self) -> int: ...
    @property
    def carried_seat(self) -> int | None: ...


def start_of(set_up: SetUp) -> HandState:
    """The hand of ``set_up`` after the antes, before any action."""
    return HandState(
        set_up.rules,
        set_up.dealer,
        set_up.seats,
        carried_pot=set_up.carried_pot,
        carried_seat=set_up.carried_seat,
    )


@dataclass(frozen=True, slots=True)
class HandHistory:
    """A validated ``brag-hh/1`` document."""

    rules: Rules
    dealer: int
    seats: tuple[SeatSetup, ...]
    carried_pot: int
    carried_seat: int | None
    actions: tuple[Action, ...]
    cards: Mapping[int, str]
    meta: Mapping[str, Any]

    def start(self) -> HandState:
        """The hand after the antes, before any action."""
        return start_of(self)


def _bad(problem: str, index: int | None = None) -> EngineError:
    return EngineError("invalid_history", index=index, problem=problem)


def _int(value: Any) -> bool:
    return type(value) is int


def load_history(data: str | bytes | Mapping[str, Any]) -> HandHistory:
    """Validate a ``brag-hh/1`` document (JSON text or parsed). Raises :class:`EngineError`
    (``invalid_history``, ``invalid_rules``, ``invalid_card``, ``duplicate_card`` …), for the
    first problem in the order of the document's fields."""
    doc = _document(data)
    rules = Rules.from_dict(doc["rules"])
    dealer = doc["dealer"]
    if not _int(dealer):
        raise _bad("dealer must be a seat number")
    seats = _seats(doc["seats"])
    carried_pot, carried_seat = _carried(doc.get("carried") or {"pot": 0, "seat": None})
    actions_raw = doc["actions"]
    if not isinstance(actions_raw, list):
        raise _bad("actions must be a list")
    actions = tuple(_action(a, i) for i, a in enumerate(actions_raw))
    cards = _cards(doc.get("cards") or {}, {s.seat: s.player for s in seats})
    # A hand given up at the showdown is never shown (RULES §3.6): its cards stay unknown.
    for a in actions:
        if a.action == "concede" and a.seat in cards:
            raise _bad(f"seat {a.seat} gives up without showing, so cards must not give its hand")
    meta = doc.get("meta") or {}
    if not isinstance(meta, Mapping):
        raise _bad("meta must be an object")
    return HandHistory(
        rules, dealer, tuple(seats), carried_pot, carried_seat, actions, cards, dict(meta)
    )


def _document(data: str | bytes | Mapping[str, Any]) -> Mapping[str, Any]:
    """The parsed document, once it is an object of known fields with the format and the
    fields every hand needs."""
    if isinstance(data, str | bytes):
        try:
            data = json.loads(data)
        except (ValueError, UnicodeDecodeError) as err:
            raise _bad(f"not JSON ({err})") from None
    if not isinstance(data, Mapping):
        raise _bad("the document must be a JSON object")
    unknown = sorted(set(data) - _TOP_KEYS)
    if unknown:
        raise _bad(f"unknown field {unknown[0]!r}")
    if data.get("format") != FORMAT:
        raise _bad(f"format must be {FORMAT!r}")
    for key in ("rules", "dealer", "seats", "actions"):
        if key not in data:
            raise _bad(f"{key} is required")
    return data


def _seats(raw: Any) -> list[SeatSetup]:
    if not isinstance(raw, list) or not raw:
        raise _bad("seats must be a non-empty list")
    return [_seat(s, i) for i, s in enumerate(raw)]


def _seat(s: Any, i: int) -> SeatSetup:
    if type(s) is not dict and not isinstance(s, Mapping):
        raise _bad(f"seats[{i}] must be an object")
    if not s.keys() <= _SEAT_KEYS:
        extra = sorted(set(s) - _SEAT_KEYS)
        raise _bad(f"seats[{i}] has an unknown field {extra[0]!r}")
    seat, player, stack = s.get("seat"), s.get("player", ""), s.get("stack")
    sitting_out = s.get("sitting_out", False)
    penalty = s.get("penalty", False)
    if type(seat) is not int or type(stack) is not int or not isinstance(player, str):
        raise _bad(f"seats[{i}] needs a seat number, a player name and a whole stack")
    if not isinstance(sitting_out, bool):
        raise _bad(f"seats[{i}].sitting_out must be true or false")
    if not isinstance(penalty, bool):
        raise _bad(f"seats[{i}].penalty must be true or false")
    return tuple.__new__(SeatSetup, (seat, player, stack, sitting_out, penalty))  # as in _action


def _carried(carried: Any) -> tuple[int, int | None]:
    """The carried pot and the seat that kept a blind hand."""
    if not isinstance(carried, Mapping) or set(carried) - {"pot", "seat"}:
        raise _bad("carried must be an object with pot and seat")
    pot = carried.get("pot", 0)
    seat = carried.get("seat")
    if not _int(pot) or (seat is not None and not _int(seat)):
        raise _bad("carried.pot must be a whole number and carried.seat a seat number or null")
    return pot, seat


# The action names that need a seat; ``showdown`` and ``misdeal`` have none.
_SEATED: Final = frozenset(ACTIONS) - {"showdown", "misdeal"}


def _action(raw: Any, index: int) -> Action:
    """The action of ``raw``: a well-formed plain dict passes in one test of all its fields
    (the replay's hot path); anything else goes through :func:`_action_checked`, which finds
    the first problem in the order of the fields."""
    if type(raw) is dict and raw.keys() <= _ACTION_KEYS:
        get = raw.get
        kind, seat, amount = get("action"), get("seat"), get("amount")
        hand, cards, reason = get("hand"), get("cards"), get("reason")
        if (
            type(kind) is str
            and (type(seat) is int if kind in _SEATED else seat is None and kind in ACTIONS)
            and (type(amount) is int or (amount is None and kind != "bet" and kind != "see"))
            and (hand is None or type(hand) is str)
            and (cards is None or type(cards) is str)
            and (reason is None or type(reason) is str)
        ):
            # The tuple's own constructor: a NamedTuple's ``__new__`` is a Python function,
            # one more call per action of every replay (the fields are in Action's order).
            return tuple.__new__(Action, (kind, seat, amount, hand, cards, reason))
    return _action_checked(raw, index)


def _action_checked(raw: Any, index: int) -> Action:
    if type(raw) is not dict and not isinstance(raw, Mapping):
        raise _bad("each action must be an object", index)
    if not raw.keys() <= _ACTION_KEYS:
        extra = sorted(set(raw) - _ACTION_KEYS)
        raise _bad(f"unknown field {extra[0]!r} in an action", index)
    kind = raw.get("action")
    if not isinstance(kind, str):
        raise _bad("each action needs an 'action' name", index)
    if kind not in ACTIONS:
        raise IllegalAction("unknown_action", index=index, action=kind)
    seat = raw.get("seat")
    if kind in ("showdown", "misdeal"):
        if seat is not None:
            raise _bad(f"'{kind}' has no seat", index)
    elif type(seat) is not int:
        raise _bad(f"'{kind}' needs a seat number", index)
    amount = raw.get("amount")
    if amount is not None and type(amount) is not int:
        raise _bad("amount must be a whole number", index)
    if amount is None and kind in ("bet", "see"):
        raise _bad(f"'{kind}' needs the amount paid", index)
    hand = raw.get("hand")
    if hand is not None and not isinstance(hand, str):
        raise _bad("hand must be 'old' or 'new'", index)
    cards = raw.get("cards")
    if cards is not None and not isinstance(cards, str):
        raise _bad("cards must be card text such as 'As 10d 3c'", index)
    reason = raw.get("reason")
    if reason is not None and not isinstance(reason, str):
        raise _bad("reason must be text", index)
    return Action(kind, seat, amount, hand, cards, reason)


def _cards(raw: Any, seats: Mapping[int, str]) -> dict[int, str]:
    if not isinstance(raw, Mapping):
        raise _bad("cards must be an object of seat → card text")
    out: dict[int, str] = {}
    owner: dict[int, int] = {}
    for key, text in raw.items():
        try:
            seat = int(key)
        except (TypeError, ValueError):
            raise _bad(f"cards key {key!r} is not a seat number") from None
        if seat not in seats:
            raise _bad(f"cards are given for seat {seat}, which is not at the table")
        if not isinstance(text, str):
            raise _bad(f"cards of seat {seat} must be card text")
        try:
            parsed = parse_cards(text, 3)
        except EngineError as err:
            raise EngineError(err.code, seat=seat, **err.details) from None
        for c in parsed:
            if c in owner:
                other = owner[c]
                label = f"{seats[other]} (seat {other})" if seats[other] else f"seat {other}"
                raise EngineError("card_already_shown", seat=seat, card=cards_str([c]), other=label)
            owner[c] = seat
        out[seat] = cards_str(parsed)
    return out


def replay(history: HandHistory | str | bytes | Mapping[str, Any]) -> HandState:
    """Play a hand history through the engine. Illegal actions raise :class:`IllegalAction`
    with ``index`` set. When the betting ends, the hands needed are taken from ``cards``; a
    ``show`` action in the list may supply them instead. Cards still missing at the end are a
    ``missing_cards`` error."""
    hh = history if isinstance(history, HandHistory) else load_history(history)
    state = hh.start()
    cards = hh.cards
    apply = state.apply
    for index, action in enumerate(hh.actions):
        try:
            apply(action)
        except EngineError as err:
            raise err.with_index(index) from None
        if state.phase == SHOWING and cards:
            _feed_cards(state, cards, index)
    if state.phase == SHOWING:
        missing = state.cards_needed[0]
        raise EngineError("missing_cards", index=len(hh.actions), who=state.by_seat[missing].label)
    return state


def _feed_cards(state: HandState, cards: Mapping[int, str], index: int) -> None:
    for seat in state.cards_needed:
        text = cards.get(seat)
        if text is None:
            continue
        try:
            state.apply(Action("show", seat, cards=text))
        except EngineError as err:
            raise err.with_index(index) from None


def dump(state: HandState, meta: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The ``brag-hh/1`` document of a hand as played so far. The shown hands go to ``cards``
    — except in a hand with a ``disqualify``: there they stay in ``actions`` as ``show``, in
    their place, since a disqualification after the betting ended changes which hands are
    needed (a replay feeding ``cards`` at once could settle the hand before it)."""
    inline = any(a.action == "disqualify" for a in state.log)
    log = [a for a in state.log if inline or a.action != "show"]
    doc: dict[str, Any] = {
        "format": FORMAT,
        "rules": state.rules.to_dict(),
        "dealer": state.dealer,
        "seats": [
            {"seat": s.seat, "player": s.player, "stack": s.stack}
            | ({"sitting_out": True} if s.sitting_out else {})
            | ({"penalty": True} if s.penalty else {})
            for s in state.seats
        ],
        "carried": {"pot": state.carried_in, "seat": state.carried_seat_in},
        "actions": [a.to_dict() for a in log],
        "cards": {
            str(p.seat): cards_str(p.cards)
            for p in state.players
            if p.cards is not None and not inline
        },
    }
    if meta:
        doc["meta"] = dict(meta)
    return doc


def outcome_dict(state: HandState) -> dict[str, Any]:
    """What ``replay`` prints: the outcome of a settled hand, or the state of an unfinished one
    with the actions legal now."""
    if state.outcome is not None:
        return {"settled": True, **state.outcome.to_dict()}
    return {
        "settled": False,
        "state": state.to_dict(),
        "legal_actions": [a.to_dict() for a in state.legal_actions()],
    }
