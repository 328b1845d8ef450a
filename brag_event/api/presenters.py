"""JSON shapes the API answers with, built from models and the engine's replay (described
for the OpenAPI schema in ``contract``, and checked against it by ``tests/api/test_contract``)."""

from __future__ import annotations

from typing import Any

from brag_event.access.roles import role_of
from brag_event.audit.models import AuditEntry
from brag_event.engine import HandState
from brag_event.engine.tablet import hand_live
from brag_event.events.models import Day, Event
from brag_event.floor.awards import award_of, award_view
from brag_event.hands.models import Hand
from brag_event.hands.selectors import hand_state
from brag_event.hands.services import next_dealer_seat
from brag_event.tables.models import Seat, Table

# The keys of a hand's view that are the engine's alone (``engine.tablet.hand_live``).
LIVE_KEYS = (
    "phase",
    "to_act",
    "stake",
    "pots",
    "players",
    "pending",
    "must_choose",
    "cards_needed",
    "legal_actions",
)


def day_view(day: Day) -> dict[str, Any]:
    return {
        "id": day.pk,
        "number": day.number,
        "date": day.date.isoformat() if day.date else None,
        "status": day.status,
        "status_text": day.status_text,
        "rules": day.rules_dict(),
    }


def event_view(event: Event, *, days: bool = True) -> dict[str, Any]:
    out: dict[str, Any] = {"id": event.pk, "name": event.name, "currency": event.currency}
    if days:
        out["days"] = [day_view(d) for d in event.days.order_by("number")]
    return out


def seat_view(seat: Seat) -> dict[str, Any]:
    return {
        "id": seat.pk,
        "number": seat.number,
        "player": {"id": seat.player_id, "name": seat.player.name},
        "stack": seat.stack,
        "buy_in": seat.buy_in,
        "sitting_out": seat.sitting_out,
        "left": seat.left_at is not None,
    }


def hand_view(hand: Hand, state: HandState | None = None) -> dict[str, Any]:
    """A hand's live state for a tablet: everything to draw the table and the action bar.
    ``actions`` is the live log (voided actions left out); ``hand_entries`` has every entry,
    voided ones too (``views.HandDetail`` adds them for staff). Its shape is described for the
    schema by ``contract.HandOut``."""
    state = state or hand_state(hand)
    live = hand_live(state)  # the engine's part, the same function the tablet runs offline
    return {
        "id": hand.pk,
        "table": hand.table_id,
        "number": hand.number,
        "status": hand.status,
        "dealer": hand.dealer_seat,
        "next_seq": hand.next_seq,
        "shuffle_before": hand.shuffle_before,
        "carried": {"pot": hand.carried_pot, "seat": hand.carried_seat},
        "rules": hand.rules,
        **{key: live[key] for key in LIVE_KEYS},
        "result": hand.result,
        "actions": live["actions"],
        # A large pot's second confirmation (floor.awards): read only once the hand settled.
        "award": award_view(award_of(hand)) if hand.status == Hand.Status.SETTLED else None,
    }


def _person(user: Any) -> str | None:
    """A user's name as people say it: the full name where it is set, else the user name."""
    if user is None:
        return None
    return str(user.get_full_name() or user.get_username())


def hand_entries(hand: Hand) -> list[dict[str, Any]]:
    """Every entry of a hand's log, voided ones too, with who entered it and when."""
    return [
        {
            "seq": a.seq,
            "seat": a.seat,
            "action": a.action,
            "amount": a.amount,
            "hand": a.hand_choice or None,
            "cards": a.cards or None,
            "entered_at": a.entered_at.isoformat(),
            "entered_by": a.entered_by.get_username() if a.entered_by else None,
            "entered_by_name": _person(a.entered_by),
            "entered_by_role": role_of(a.entered_by) if a.entered_by else None,
            "device": a.device,
            "void": {
                "reason": a.void.reason,
                "at": a.void.voided_at.isoformat(),
                "seq": a.void.seq,
                "by": a.void.voided_by.get_username() if a.void.voided_by else None,
                # Who took it back, in words for the tablet's conflict notice ("The supervisor
                # Sam Lee took back …"): the person's name, and their role.
                "by_name": _person(a.void.voided_by),
                "by_role": role_of(a.void.voided_by) if a.void.voided_by else None,
            }
            if hasattr(a, "void")
            else None,
        }
        for a in hand.actions.select_related("void__voided_by", "entered_by").order_by("seq")
    ]


def table_view(
    table: Table, seats: list[Seat] | None = None, *, latest: dict[str, Any] | None = None
) -> dict[str, Any]:
    """A table's live state (the tablet's read). ``seats``: its occupied seats by number with
    their players, if already read (``tables.selectors.table_live``). ``latest``: the view of
    the table's latest hand, already computed (an action's answer: a hand in play is always its
    table's latest), so that neither the hand nor its log is read again."""
    if seats is None:
        seats = list(
            table.seats.filter(left_at__isnull=True).select_related("player").order_by("number")
        )
    if latest is not None:
        shown: dict[str, Any] | None = latest
    else:
        hand = table.hands.order_by("-number").first()
        shown = hand_view(hand) if hand is not None else None
    return {
        "id": table.pk,
        "number": table.number,
        "day": {"id": table.day_id, "number": table.day.number, "status": table.day.status},
        "event": {"id": table.day.event_id, "currency": table.day.event.currency},
        "button": table.button,
        # Who deals the next hand (between hands, the tablet's dealer button).
        "next_dealer": next_dealer_seat(
            table, [s.number for s in seats], [s.number for s in seats if s.sitting_out]
        ),
        "shuffle_next": table.shuffle_next,
        # The day's rules: what the tablet's engine deals the next hand with when offline.
        "rules": table.day.rules().to_dict(),
        "carried": {"pot": table.carried_pot, "seat": table.carried_seat},
        "seats": [seat_view(s) for s in seats],
        "hand": shown,
    }


def table_summary(table: Table) -> dict[str, Any]:
    live = table.hands.filter(status=Hand.Status.IN_PROGRESS).values_list("pk", flat=True).first()
    return {
        "id": table.pk,
        "number": table.number,
        "seated": table.seats.filter(left_at__isnull=True).count(),
        "hands": table.hands.count(),
        "live_hand": live,
        "carried_pot": table.carried_pot,
    }


def audit_entry_view(e: AuditEntry) -> dict[str, Any]:
    """An audit entry with what it was done to as references (``contract.AuditEntryOut``); the
    selector (``audit.selectors.audit_entries``) has fetched them with it."""
    table = e.table
    return {
        "id": e.pk,
        "at": e.at.isoformat(),
        "actor": e.actor.get_username() if e.actor else None,
        "actor_id": e.actor_id,
        "verb": e.verb,
        "verb_label": e.verb_label,
        "target": e.target,
        "day": {"id": e.day.pk, "number": e.day.number} if e.day else None,
        "table": (
            {"id": table.pk, "number": table.number, "day": table.day.number} if table else None
        ),
        "hand": {"id": e.hand.pk, "number": e.hand.number} if e.hand else None,
        "seat": {"id": e.seat.pk, "number": e.seat.number} if e.seat else None,
        "player": {"id": e.player.pk, "name": e.player.name} if e.player else None,
        "token": {"id": e.token.pk, "name": e.token.name} if e.token else None,
        "data": e.data,
        "device": e.device,
        "device_token": e.device_token_id,
    }
