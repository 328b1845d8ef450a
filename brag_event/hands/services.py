"""Starting hands, applying actions, voiding the last action.

Every service validates with the engine (a replay of the stored log), appends to the log, and
posts exactly the transfers the engine's money movements describe — all in one transaction, with
the hand's row locked so two tablets cannot both act on the same state."""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from brag_event.audit.services import audit_record
from brag_event.core.actors import Actor
from brag_event.core.errors import Conflict, ServiceError
from brag_event.engine import ACTIONS, Action, EngineError, HandState, SeatSetup, cards_str
from brag_event.engine.history import outcome_dict
from brag_event.ledger.models import Account, Transfer
from brag_event.ledger.services import (
    account_carried,
    account_house,
    account_pot,
    transfer_post,
    transfer_reverse,
)
from brag_event.tables.models import Seat, Table

from .models import ActionVoid, Hand, HandAction
from .money import Movement, action_movements, pots_of, settlement_movements, start_movements
from .selectors import hand_live_actions, hand_state


class _Places:
    """Resolves the money symbols of a hand to ledger accounts. The ids are remembered on the
    hand (``Hand.accounts``), so an action needs no account look-ups."""

    def __init__(self, hand: Hand) -> None:
        self.hand = hand
        self.event_id = hand.table.day.event_id
        self.seats = {s["seat"]: s for s in hand.seats}
        self.changed = False

    def account(self, place: tuple[Any, ...]) -> Account:
        kind = place[0]
        key = ":".join(str(p) for p in place)
        fields: dict[str, Any] = {"event_id": self.event_id, "kind": kind}
        if kind == "stack":
            seat = self.seats[place[1]]
            fields.update(seat_id=seat["seat_id"], player_id=seat["player_id"])
        elif kind == "pot":
            fields.update(hand_id=self.hand.pk, pot_index=place[1], table_id=self.hand.table_id)
        elif kind == "carried":
            fields.update(table_id=self.hand.table_id)
        elif kind != "house":  # pragma: no cover - the symbols come from hands.money
            raise ValueError(place)
        known = self.hand.accounts.get(key)
        if known is not None:
            return Account(id=known, **fields)
        if kind == "stack":
            found = Account.objects.get_or_create(
                event_id=self.event_id,
                kind=Account.Kind.STACK,
                seat_id=fields["seat_id"],
                defaults={"player_id": fields["player_id"]},
            )[0]
        elif kind == "pot":
            found = account_pot(self.hand, place[1])
        elif kind == "house":
            found = account_house(self.hand.table.day.event)
        else:
            found = account_carried(self.hand.table)
        self.hand.accounts[key] = found.pk
        self.changed = True
        return found


def _post(hand: Hand, moves: list[Movement], by: Actor | None, row: HandAction | None) -> bool:
    """Post the movements; returns whether new account ids were remembered on the hand."""
    places = _Places(hand)
    memo = f"hand {hand.number} at table {hand.table.number}"
    for kind, source, target, amount in moves:
        transfer_post(
            kind=kind,
            source=places.account(source),
            target=places.account(target),
            amount=amount,
            by=by,
            hand=hand,
            action=row,
            memo=memo,
        )
    return places.changed


def _check_seq(hand: Hand, expected_seq: int | None) -> None:
    if expected_seq is not None and expected_seq != hand.next_seq:
        raise Conflict(
            "stale_sequence",
            "The hand has moved on since this screen was drawn; refresh and try again.",
            details={"expected_seq": hand.next_seq},
        )


def _dealer_for(table: Table, seated: list[int]) -> int:
    """The button's seat if seated, else the next seated seat clockwise from it."""
    if table.button is None:
        return seated[0]
    n = table.day.seats
    for step in range(n):
        seat = (table.button - 1 + step) % n + 1
        if seat in seated:
            return seat
    return seated[0]


@transaction.atomic
def hand_start(*, table: Table, by: Actor | None) -> Hand:
    """Deal the next hand at a table: the day's rules are frozen onto it, antes and any carried
    pot go into the first pot."""
    table = (
        Table.objects.select_for_update(of=("self",)).select_related("day__event").get(pk=table.pk)
    )
    day = table.day
    if not day.is_open:
        raise ServiceError("day_closed", f"Day {day.number} is closed: no new hands.")
    if table.hands.filter(status=Hand.Status.IN_PROGRESS).exists():
        raise Conflict("hand_in_progress", "Finish the hand in progress before starting another.")
    seats = list(
        Seat.objects.filter(table=table, left_at__isnull=True)
        .select_related("player")
        .order_by("number")
    )
    if len(seats) < 2:
        raise ServiceError("not_enough_players", "A hand needs at least two seated players.")
    rules = day.rules()
    numbers = [s.number for s in seats]
    dealer = _dealer_for(table, numbers)
    table_carried_seat = table.carried_seat
    carried_seat = table_carried_seat if table_carried_seat in numbers else None
    setups = [SeatSetup(s.number, s.player.name, s.stack, s.sitting_out) for s in seats]
    try:
        state = HandState(
            rules,
            dealer,
            setups,
            carried_pot=table.carried_pot,
            carried_seat=carried_seat,
            first_deal=table.shuffle_next,
        )
    except EngineError as err:
        raise ServiceError.from_engine(err) from None
    dealt = {p.seat for p in state.players}
    last = table.hands.order_by("-number").values_list("number", flat=True).first()
    hand = Hand.objects.create(
        table=table,
        number=(last or 0) + 1,
        dealer_seat=dealer,
        rules=rules.to_dict(),
        seats=[
            {
                "seat": s.number,
                "player": s.player.name,
                "player_id": s.player_id,
                "seat_id": s.pk,
                "stack": s.stack,
                "sitting_out": s.sitting_out,
                "dealt": s.number in dealt,
            }
            for s in seats
        ],
        carried_pot=table.carried_pot,
        carried_seat=carried_seat,
        shuffle_before=table.shuffle_next,
        started_by=by.user if by and by.user_id else None,
    )
    hand.table = table
    hand.dealt_players.set([s.player_id for s in seats if s.number in dealt])
    if _post(hand, start_movements(state), by, None):
        hand.save(update_fields=["accounts"])
    table.button = dealer
    table.carried_seat = None
    table.save(update_fields=["button", "carried_seat"])
    audit_record(
        by=by,
        event_id=day.event_id,
        verb="hand.start",
        target=str(hand),
        data={
            "dealer": dealer,
            "dealt": sorted(dealt),
            "carried": hand.carried_pot,
            # A kept blind hand whose owner left, sits out or cannot pay the ante is dead.
            "kept_hand_dead": table_carried_seat
            if table_carried_seat is not None and table_carried_seat not in dealt
            else None,
        },
    )
    return hand


def _parse_action(data: Any) -> Action:
    if not isinstance(data, dict):
        raise ServiceError("invalid_action", "An action is an object with at least 'action'.")
    kind = data.get("action")
    if not isinstance(kind, str) or kind not in ACTIONS:
        raise ServiceError(
            "unknown_action",
            f"'{kind}' is not an action: use {', '.join(ACTIONS)}.",
            details={"field": "action"},
        )
    seat = data.get("seat")
    amount = data.get("amount")
    hand = data.get("hand")
    cards = data.get("cards")
    for name, value, kinds in (
        ("seat", seat, (int,)),
        ("amount", amount, (int,)),
        ("hand", hand, (str,)),
        ("cards", cards, (str,)),
    ):
        if value is not None and (not isinstance(value, kinds) or isinstance(value, bool)):
            raise ServiceError(
                "invalid_action", f"'{name}' has the wrong type.", details={"field": name}
            )
    if isinstance(cards, str) and len(cards) > 40:
        raise ServiceError("invalid_card", "Card text is too long.", details={"field": "cards"})
    return Action(kind, seat, amount, hand, cards)


@transaction.atomic
def hand_apply_action(
    *, hand: Hand, action: dict[str, Any], expected_seq: int | None, by: Actor | None
) -> tuple[Hand, HandAction, HandState]:
    """Validate ``action`` with the engine, append it and post its money. ``expected_seq`` is
    the sequence number the tablet expects this action to get; if the hand has moved on, the
    answer is a conflict and nothing is written."""
    hand = (
        Hand.objects.select_for_update(of=("self",))
        .select_related("table__day__event")
        .get(pk=hand.pk)
    )
    _check_seq(hand, expected_seq)
    if not hand.table.day.is_open:
        raise ServiceError("day_closed", "The day is closed.")
    act = _parse_action(action)
    state = hand_state(hand)
    before = pots_of(state)
    try:
        state.apply(act)
    except EngineError as err:
        raise ServiceError.from_engine(err) from None
    cards = ""
    if act.action == "show" and act.seat is not None:
        shown = state.by_seat[act.seat].cards
        cards = cards_str(shown) if shown else ""
    try:
        # No savepoint needed: a conflict leaves through this service's atomic block, which rolls
        # back (the hand's row lock makes this a backstop that should never fire).
        row = HandAction.objects.create(
            hand=hand,
            seq=hand.next_seq,
            seat=act.seat,
            action=act.action,
            amount=act.amount,
            hand_choice=act.hand or "",
            cards=cards,
            entered_by=by.user if by and by.user_id else None,
            device=(by.device if by else "")[:120],
        )
    except IntegrityError:  # the (hand, seq) constraint: another device got there first
        raise Conflict(
            "stale_sequence",
            "Another device entered this action first; refresh and try again.",
            details={"expected_seq": hand.next_seq + 1},
        ) from None
    moves = action_movements(before, state, act)
    if state.outcome is not None:
        moves += settlement_movements(state)
    fields = ["next_seq"]
    if _post(hand, moves, by, row):
        fields.append("accounts")
    hand.next_seq += 1
    if state.outcome is not None:
        outcome = state.outcome
        hand.status = Hand.Status.SETTLED
        hand.result = outcome_dict(state)
        hand.settled_at = timezone.now()
        fields += ["status", "result", "settled_at"]
        table = hand.table
        table.button = outcome.next_dealer
        table.shuffle_next = outcome.shuffle
        table.carried_seat = outcome.carried_seat
        table.save(update_fields=["button", "shuffle_next", "carried_seat"])
    hand.save(update_fields=fields)
    audit_record(
        by=by,
        event_id=hand.table.day.event_id,
        verb="hand.action",
        target=str(hand),
        data={"seq": row.seq, **act.to_dict()},
    )
    return hand, row, state


@transaction.atomic
def hand_void_last_action(
    *, hand: Hand, reason: str, expected_seq: int | None = None, by: Actor | None
) -> tuple[Hand, HandState]:
    """A supervisor's undo: the last live action is voided (with the reason), its transfers are
    reversed, and the hand replays without it. A settled hand reopens."""
    hand = (
        Hand.objects.select_for_update(of=("self",))
        .select_related("table__day__event")
        .get(pk=hand.pk)
    )
    table = Table.objects.select_for_update().get(pk=hand.table_id)
    reason = " ".join(str(reason or "").split())
    if not reason:
        raise ServiceError(
            "reason_required", "Say why the action is voided.", details={"field": "reason"}
        )
    _check_seq(hand, expected_seq)
    if table.hands.filter(number__gt=hand.number).exists():
        raise Conflict("newer_hand", "A later hand has started at this table; it cannot be undone.")
    last = hand_live_actions(hand).last()
    if last is None:
        raise ServiceError("nothing_to_void", "No action of this hand is left to void.")
    ActionVoid.objects.create(
        action=last, reason=reason[:200], voided_by=by.user if by and by.user_id else None
    )
    for transfer in last.transfers.exclude(kind=Transfer.Kind.REVERSAL).filter(
        reversed_by__isnull=True
    ):
        transfer_reverse(transfer=transfer, by=by, memo=f"void of action {last.seq}: {reason}")
    fields = ["next_seq"]
    hand.next_seq += 1
    if hand.status == Hand.Status.SETTLED:
        hand.status = Hand.Status.IN_PROGRESS
        hand.result = None
        hand.settled_at = None
        fields += ["status", "result", "settled_at"]
        table.button = hand.dealer_seat
        table.shuffle_next = hand.shuffle_before
        table.carried_seat = None
        table.save(update_fields=["button", "shuffle_next", "carried_seat"])
    hand.save(update_fields=fields)
    audit_record(
        by=by,
        event_id=hand.table.day.event_id,
        verb="hand.void",
        target=str(hand),
        data={"seq": last.seq, "action": last.action, "reason": reason},
    )
    return hand, hand_state(hand)
