"""A hand's history in words, for the floor: who did what, one line an entry, from the hand's
``brag-hh/1`` log replayed through the engine, and how each pot was won in the engine's own
explanation (``PotResult.explanation``).

The sentences are the tablet's own (``static/tablet/render.js``: what a dealer's entry is called
in its queue — "Bill (seat 2) bets 5 blind", "… sees for 20", "… gives up without showing"), so
the floor reads the words the dealer entered; ``tests/organiser/test_hand_history.py`` keeps the
two in step. Cards read as on the tablet: "10♥ A♠"."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from brag_event.engine import Action, HandState
from brag_event.engine.settlement import pots_to_show
from brag_event.hands.models import Hand
from brag_event.hands.money import state_start
from brag_event.hands.selectors import hand_state

SUITS = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}


def card_text(code: str) -> str:
    """``"Th"`` → ``"10♥"`` (the tablet's ``cardText``)."""
    rank, suit = code[:-1], code[-1].lower()
    return ("10" if rank.upper() == "T" else rank.upper()) + SUITS.get(suit, suit)


def cards_text(cards: str) -> str:
    return " ".join(card_text(c) for c in cards.split())


@dataclass(frozen=True)
class Line:
    n: int  # the entry's place in the log, from 1
    who: str  # "Bill (seat 2)", or "" for the table (an agreed showdown, a misdeal)
    words: str  # the whole sentence
    pot: int  # the pots' total after it
    stake: int  # the stake after it (open terms); 0 before the first bet


@dataclass
class Story:
    hand: Hand
    seats: list[dict[str, Any]]
    lines: list[Line]
    shown: list[dict[str, str]] = field(default_factory=list)
    conceded: list[str] = field(default_factory=list)
    pots: list[str] = field(default_factory=list)
    settled: bool = False
    misdeal: str = ""


def sentence(state: HandState, a: Action) -> tuple[str, str]:
    """The entry ``a`` in words, as the tablet names it, from the state just before it."""
    who = state.by_seat[a.seat].label if a.seat is not None and a.seat in state.by_seat else ""
    which = f" the {a.hand} hand" if a.hand else ""
    match a.action:
        case "look":
            return who, f"{who} looks" + (f" at{which}" if a.hand else "")
        case "keep":
            return who, f"{who} keeps" + (which if a.hand else "")
        case "discard":
            return who, f"{who} throws in{which or ' the hand'}"
        case "bet":
            blind = a.seat is not None and state.by_seat[a.seat].blind
            return who, f"{who} bets {a.amount}" + (" blind" if blind else "")
        case "fold":
            return who, f"{who} folds"
        case "see":
            return who, f"{who} sees for {a.amount}"
        case "cover":
            paid = a.amount if a.amount is not None else state.by_seat[a.seat or 0].stack
            return who, f"{who} covers for {paid}"
        case "showdown":
            return "", "Agreed showdown"
        case "show":
            return who, f"{who} shows {cards_text(a.cards or '')}"
        case "concede":
            return who, f"{who} gives up without showing"
        case "misdeal":
            return "", "Misdeal" + (f": {a.reason}" if a.reason else "")
        case "disqualify":
            return who, f"{who} is disqualified by the floor: their hand is folded"
    return who, f"{who} {a.action}".strip()


def hand_story(hand: Hand) -> Story:
    """The hand's log in words, with the pot and stake after each entry, the hands shown (and
    what each is), who gave up without showing, and how each pot was won."""
    final = hand_state(hand)
    state = state_start(hand)
    lines = []
    for n, action in enumerate(final.log, start=1):
        who, words = sentence(state, action)
        state.apply(action)
        lines.append(Line(n, who, words, state.pot_total, state.stake))
    seats = [
        {
            "seat": s["seat"],
            "player": s["player"],
            "stack": s["stack"],
            "dealt": s["seat"] in final.by_seat,
            "sitting_out": bool(s.get("sitting_out") or s.get("penalty")),
        }
        for s in hand.seats or []
    ]
    story = Story(hand=hand, seats=seats, lines=lines, settled=final.is_settled)
    result = final.outcome.to_dict() if final.outcome is not None else {}
    for seat, shown in (result.get("shown") or {}).items():
        story.shown.append(
            {
                "who": final.by_seat[int(seat)].label,
                "cards": cards_text(shown["cards"]),
                "hand": shown["hand"],
            }
        )
    story.conceded = [final.by_seat[s].label for s in result.get("conceded") or []]
    story.pots = [str(p["explanation"]) for p in pots_to_show(result.get("pots") or [])]
    misdeal = result.get("misdeal")
    if isinstance(misdeal, dict):
        story.misdeal = str(misdeal.get("reason") or "")
    return story
