"""The floor's services (RULES §4b): a misdeal, floor calls, rulings and their penalties, and the
pots still carried when a day closes. One transaction each, the domain's lock order (day →
hand → table → seats → players); money moves only through the ledger, corrections are
reversing transfers."""

from __future__ import annotations

from typing import Any

from django.db.models import F
from django.utils import timezone

from brag_event.access.rules import can
from brag_event.audit.models import Verb
from brag_event.audit.services import audit_record
from brag_event.core import sql
from brag_event.core.actors import Actor
from brag_event.core.errors import Conflict, Forbidden, NotFound, ServiceError, StaleHand
from brag_event.core.transactions import service_transaction
from brag_event.engine import HandState
from brag_event.events import day_chain
from brag_event.events.models import Day
from brag_event.events.record import record_append
from brag_event.events.states import day_for_change, refuse_unless_open
from brag_event.hands import chain, statements
from brag_event.hands.models import Hand, HandAction
from brag_event.hands.selectors import hand_state
from brag_event.hands.services import hand_apply_misdeal, hand_disqualify_seat, lock_day_of_hand
from brag_event.ledger.models import Transfer
from brag_event.ledger.record import record_for_change
from brag_event.ledger.services import (
    account_carried,
    account_player,
    account_stack,
    transfer_post,
)
from brag_event.players.models import Player, Standing
from brag_event.tables import versions
from brag_event.tables.models import Seat, Table
from brag_event.tables.services import seat_leave

from . import record
from .models import AwardConfirmation, CarriedSplit, FloorCall, Misdeal, Penalty, Ruling

TEXT_MAX = 500
MISSED_HANDS_MAX = 50


def _text(value: Any, most: int) -> str:
    return " ".join(str(value or "").split())[:most]


def _user(by: Actor | None) -> Any:
    return by.user if by is not None and by.user_id else None


# ----------------------------------------------------------------------------- misdeal


@service_transaction
def hand_misdeal(
    *,
    hand: Hand | int,
    reason: str,
    by: Actor | None,
    expected_seq: int | None = None,
    access: statements.Access | None = None,
) -> tuple[Hand, HandState]:
    """A supervisor's misdeal (RULES §4b), while the betting goes on: the engine ends the hand
    with a ``misdeal`` action, posted as every action is (``hands.services``): the refunds
    ``hands.money`` derives give each player exactly what they paid and the carried pot back to
    the table, emptying the pots; a kept blind hand stays kept; the same dealer deals again,
    after a shuffle. The hand stays in the log, settled, marked misdealt."""
    hand_id = hand if isinstance(hand, int) else hand.pk
    # The domain's lock order, as a void: the day (shared), the hand, its table.
    lock_day_of_hand(hand_id)
    found = statements.lock_hand(hand_id, access)
    if found is None:
        raise NotFound("not_found", "Not found, or not yours to see.")
    hand, _log = found
    table = Table.objects.select_for_update(no_key=True).get(pk=hand.table_id)
    reason = _text(reason, 200)
    if not reason:
        raise ServiceError(
            "reason_required", "Say why the hand is misdealt.", details={"field": "reason"}
        )
    if expected_seq is not None and expected_seq != hand.next_seq:
        raise StaleHand(
            "The hand has moved on since this screen was drawn; refresh and try again.",
            hand_id=hand.pk,
            expected_seq=hand.next_seq,
        )
    refuse_unless_open(hand.table.day, "misdeals")
    if hand.status != Hand.Status.IN_PROGRESS:
        raise Conflict("hand_not_in_play", "Only a hand in play can be misdealt.")
    hand, row, state = hand_apply_misdeal(hand=hand, reason=reason, by=by)
    outcome = state.outcome
    assert outcome is not None and outcome.misdeal is not None
    # A player the floor disqualified out of this hand has left the table: what they get back
    # goes on to their balance, as their stack did (RULES §4b), never stays on a left seat.
    seat_ids = {s["seat"]: s["seat_id"] for s in hand.seats}
    back = {seat_ids[seat]: amount for seat, amount in outcome.misdeal.refunds.items() if amount}
    gone = (
        Seat.objects.select_for_update(no_key=True, of=("self",))
        .select_related("player", "table__day")
        .filter(pk__in=list(back), left_at__isnull=False)
        .order_by("pk")
    )
    for seat in gone:
        transfer_post(
            kind=Transfer.Kind.LEAVE,
            source=account_stack(seat),
            target=account_player(seat.player),
            amount=back[seat.pk],
            by=by,
            memo=f"misdeal of {hand}: back to {seat.player}, disqualified",
        )
    Misdeal.objects.create(
        hand=hand,
        action=row,
        reason=reason,
        refunds={str(k): v for k, v in outcome.misdeal.refunds.items()},
        declared_by=_user(by),
    )
    # The hand does not count as played, and the missed hands it used are given back.
    dealt = [s["player_id"] for s in hand.seats if s.get("dealt")]
    Standing.objects.filter(day_id=table.day_id, player_id__in=dealt).update(
        hands_played=F("hands_played") - 1
    )
    missed = [s["seat_id"] for s in hand.seats if s.get("penalty")]
    Penalty.objects.filter(
        seat_id__in=missed,
        kind=Penalty.Kind.MISSED_HANDS,
        lifted_at__isnull=True,
        hands_left__lt=F("hands"),
    ).update(hands_left=F("hands_left") + 1)
    audit_record(
        by=by,
        event_id=hand.table.day.event_id,
        verb=Verb.HAND_MISDEAL,
        subject=hand,
        data={"reason": reason, "refunds": {str(k): v for k, v in outcome.misdeal.refunds.items()}},
    )
    return hand, state


# ----------------------------------------------------------------------------- floor calls


@service_transaction
def floor_call_open(
    *, table: Table | int, hand: Hand | int | None = None, note: str = "", by: Actor | None
) -> FloorCall:
    """A dealer calls the floor to a table (optionally about a hand, with a note)."""
    table_id = table if isinstance(table, int) else table.pk
    found = Table.objects.select_related("day").filter(pk=table_id).first()
    if found is None:
        raise NotFound("not_found", "Not found, or not yours to see.")
    hand_obj = None
    if hand is not None:
        hand_obj = Hand.objects.filter(pk=hand if isinstance(hand, int) else hand.pk).first()
        if hand_obj is None or hand_obj.table_id != found.pk:
            raise ServiceError(
                "wrong_table", "That hand is not of this table.", details={"field": "hand"}
            )
    call = FloorCall.objects.create(
        event_id=found.day.event_id,
        table=found,
        hand=hand_obj,
        note=_text(note, 200),
        called_by=_user(by),
    )
    versions.table_changed(found.pk)
    audit_record(
        by=by,
        event_id=found.day.event_id,
        verb=Verb.FLOOR_CALL,
        subject=found,
        hand=hand_obj,
        data={"call": call.pk, "hand": hand_obj.pk if hand_obj else None, "note": call.note},
    )
    return call


def _lock_call(call: FloorCall | int) -> FloorCall:
    call_id = call if isinstance(call, int) else call.pk
    found = (
        FloorCall.objects.select_for_update(of=("self",))
        .select_related("table")
        .filter(pk=call_id)
        .first()
        if sql.possible_id(call_id)
        else None
    )
    if found is None:
        raise NotFound("not_found", "No such floor call.")
    return found


@service_transaction
def floor_call_take(*, call: FloorCall | int, by: Actor | None) -> FloorCall:
    """A supervisor takes an open call (goes to the table)."""
    found = _lock_call(call)
    if found.status != FloorCall.Status.OPEN:
        raise Conflict("call_taken", "Another supervisor has already taken this call.")
    found.status = FloorCall.Status.TAKEN
    found.taken_by = _user(by)
    found.taken_at = timezone.now()
    found.save(update_fields=["status", "taken_by", "taken_at"])
    versions.table_changed(found.table_id)
    audit_record(
        by=by,
        event_id=found.event_id,
        verb=Verb.FLOOR_TAKE,
        target=str(found),
        table=found.table_id,
        data={"call": found.pk},
    )
    return found


# ----------------------------------------------------------------------------- rulings


def _lock_chain_hand(hand_id: int | None, table: Table) -> Hand | None:
    """The hand a ruling is chained onto, its row locked: ``hand_id``'s, or else the table's
    latest hand; none if there is none, or it is not of the table's day while that day is open
    (then the ruling goes onto the day's own chain)."""
    if hand_id is None:
        hand_id = (
            Hand.objects.filter(table=table)
            .order_by("-number")
            .values_list("pk", flat=True)
            .first()
        )
    if hand_id is None or not sql.possible_id(hand_id):
        return None
    found = (
        Hand.objects.select_for_update(of=("self",))
        .select_related("table__day")
        .filter(pk=hand_id)
        .first()
    )
    if (
        found is None
        or found.table.day_id != table.day_id
        or found.table.day.status != Day.Status.OPEN
    ):
        return None
    return found


def _lock_record_day(day_id: int) -> Day:
    """The ruling's day, its row locked before anything else (the domain's lock order): a
    closed day's record is published, so a ruling about it is refused; a ruling the day's own
    chain takes moves its row, so a close that computed the root before it runs again."""
    day = day_for_change(day_id)
    if day.status == Day.Status.CLOSED:
        raise Conflict(
            "day_closed",
            f"Day {day.number} is closed and its record's root is published: a ruling about "
            "it can no longer be recorded. Record it at a table of the day in play.",
            details={"day": day.number, "status": day.status},
        )
    return day


PENALTIES = (Penalty.Kind.WARNING, Penalty.Kind.MISSED_HANDS, Penalty.Kind.DISQUALIFICATION)


def _ruling_checked(
    what_happened: str, decision: str, penalty: str, missed_hands: int | None
) -> None:
    """Refuse a ruling without its words, or with a penalty that is not one."""
    if not what_happened:
        raise ServiceError(
            "field_required", "Say what happened.", details={"field": "what_happened"}
        )
    if not decision:
        raise ServiceError(
            "field_required", "Say what the floor decided.", details={"field": "decision"}
        )
    if penalty and penalty not in PENALTIES:
        raise ServiceError(
            "invalid_penalty",
            "A penalty is a warning, missed hands or a disqualification.",
            details={"field": "penalty"},
        )
    if penalty == Penalty.Kind.MISSED_HANDS and (
        type(missed_hands) is not int or not 1 <= missed_hands <= MISSED_HANDS_MAX
    ):
        raise ServiceError(
            "invalid_missed_hands",
            f"Missed hands are 1 to {MISSED_HANDS_MAX}.",
            details={"field": "missed_hands"},
        )


def _ruling_place(
    call: FloorCall | int | None, table: Table | int | None, hand: Hand | int | None
) -> tuple[FloorCall | None, Table, int | None]:
    """The call a ruling answers (locked), its table and its hand: the call's, unless named."""
    found_call = _lock_call(call) if call is not None else None
    if found_call is not None and found_call.status == FloorCall.Status.RESOLVED:
        raise Conflict("call_resolved", "This call already has its ruling.")
    table_id = (
        found_call.table_id
        if found_call is not None
        else (table if isinstance(table, int) or table is None else table.pk)
    )
    found_table = (
        Table.objects.select_related("day").filter(pk=table_id).first() if table_id else None
    )
    hand_id = hand if isinstance(hand, int) or hand is None else hand.pk
    if hand_id is None and found_call is not None:
        hand_id = found_call.hand_id
    if found_table is None and found_call is None:
        raise ServiceError("table_required", "Name the table.", details={"field": "table"})
    assert found_table is not None
    return found_call, found_table, hand_id


def _resolve(found_call: FloorCall, by: Actor | None) -> None:
    """The call answered by a ruling: resolved (and taken, if nobody had)."""
    found_call.status = FloorCall.Status.RESOLVED
    found_call.resolved_at = timezone.now()
    if found_call.taken_by_id is None:
        found_call.taken_by = _user(by)
        found_call.taken_at = found_call.resolved_at
    found_call.save(update_fields=["status", "resolved_at", "taken_by", "taken_at"])


def _chain_ruling(ruling: Ruling, chained: Hand | None, day: Day) -> None:
    """The ruling on the record: on its hand's chain, or the day's."""
    if chained is not None:
        # A disqualification above may have appended to this very hand (its live hand folded):
        # chain after it, from the row as it is now (still locked by this transaction).
        chained.refresh_from_db(fields=["next_seq", "chain_head"])
        ruling.chain_hand = chained
        ruling.seq, ruling.hash = chain.chain_append(
            hand=chained, kind=record.KIND, fields=record.ruling_fields(ruling.pk)
        )
        ruling.save(update_fields=["chain_hand", "seq", "hash"])
        chained.save(update_fields=["next_seq", "chain_head"])
    else:
        # No hand to go on, or the day is closing: the day's own chain, before its root.
        ruling.chain_day = day
        ruling.seq, ruling.hash = day_chain.day_chain_append(
            day=day, kind=record.KIND, fields=record.ruling_fields(ruling.pk)
        )
        ruling.save(update_fields=["chain_day", "seq", "hash"])
        day.save(update_fields=["record_seq", "record_head"])


@service_transaction
def ruling_record(
    *,
    what_happened: str,
    decision: str,
    players: list[int],
    by: Actor | None,
    call: FloorCall | int | None = None,
    table: Table | int | None = None,
    hand: Hand | int | None = None,
    penalty: str = "",
    missed_hands: int | None = None,
) -> Ruling:
    """Record the floor's ruling — what happened, the players involved, the decision — and
    the penalty it gives each of those players (none, a warning, N missed hands at their table,
    or a disqualification). A call it answers is resolved."""
    what_happened = _text(what_happened, TEXT_MAX)
    decision = _text(decision, TEXT_MAX)
    _ruling_checked(what_happened, decision, penalty, missed_hands)
    found_call, found_table, hand_id = _ruling_place(call, table, hand)
    event_id = found_table.day.event_id
    wanted = sorted({p for p in players if type(p) is int})
    involved = list(Player.objects.filter(event_id=event_id, pk__in=wanted).order_by("pk"))
    if len(involved) != len(wanted) or (penalty and not involved):
        raise ServiceError(
            "invalid_players",
            "Name the players involved (players of this event).",
            details={"field": "players"},
        )
    # The day first, then the hand the ruling is chained onto (the hand comes before the tables
    # and seats a penalty locks): its own hand, or else its table's latest hand, while the day
    # is open; otherwise the day's own chain (docs/integrity.md).
    day = _lock_record_day(found_table.day_id)
    chained = _lock_chain_hand(hand_id, found_table) if day.status == Day.Status.OPEN else None
    ruling = Ruling.objects.create(
        event_id=event_id,
        call=found_call,
        table=found_table,
        hand_id=hand_id,
        what_happened=what_happened,
        decision=decision,
        ruled_by=_user(by),
    )
    ruling.players.set(involved)
    for player in involved:
        if penalty:
            _penalise(ruling, player, penalty, missed_hands or 0, found_table.day, by)
    if found_call is not None:
        _resolve(found_call, by)
    _chain_ruling(ruling, chained, day)
    versions.table_changed(found_table.pk)
    versions.event_changed(event_id)
    audit_record(
        by=by,
        event_id=event_id,
        verb=Verb.FLOOR_RULING,
        subject=found_table,
        data={
            "ruling": ruling.pk,
            "players": [p.pk for p in involved],
            "penalty": penalty,
            "missed_hands": missed_hands if penalty == Penalty.Kind.MISSED_HANDS else None,
        },
    )
    return ruling


def _penalise(
    ruling: Ruling, player: Player, kind: str, hands: int, day: Day, by: Actor | None
) -> Penalty:
    seat = (
        Seat.objects.filter(player=player, left_at__isnull=True, table__day=day)
        .select_related("table")
        .first()
    )
    penalty = Penalty(ruling=ruling, event_id=player.event_id, player=player, kind=kind, day=day)
    if kind == Penalty.Kind.MISSED_HANDS:
        if seat is None:
            raise ServiceError(
                "not_seated",
                f"{player} is not seated today, so cannot miss hands.",
                details={"field": "players"},
            )
        penalty.seat = seat
        penalty.hands = penalty.hands_left = hands
    elif kind == Penalty.Kind.DISQUALIFICATION and seat is not None:
        folded_out = _fold_out(seat, by)
        # The stack back to the balance (even while a large pot at the table waits).
        seat_leave(seat=seat, by=by, folded_out=folded_out, disqualified=True)
        penalty.seat = seat
    penalty.save()
    return penalty


def _fold_out(seat: Seat, by: Actor | None) -> bool:
    """RULES §4b: a disqualified player's live hand is folded — what they paid stays in the
    pot. If ``seat`` is still in the hand in play (betting, covered, or waiting to show), the
    hand service appends the engine's ``disqualify`` (the hand's record, its lock order hand →
    table → seats, and its settlement if that ends the hand); a player who has already folded
    is out as they are. Says whether the seat was in a hand in play."""
    live = Hand.objects.filter(table=seat.table_id, status=Hand.Status.IN_PROGRESS).first()
    if live is None or not any(s["seat_id"] == seat.pk and s.get("dealt") for s in live.seats):
        return False
    state = hand_state(live)
    number = next(s["seat"] for s in live.seats if s["seat_id"] == seat.pk)
    if state.by_seat[number].status == "folded":
        return True
    hand_disqualify_seat(hand=live.pk, seat=number, by=by)
    return True


@service_transaction
def penalty_lift(*, penalty: Penalty | int, reason: str, by: Actor | None) -> Penalty:
    """An organiser lifts a disqualification, with a reason, before the day it was given on
    closes. The player may then be seated again. The lift is an entry of the event's money
    record (``floor.record``), the record's row locked last."""
    penalty_id = penalty if isinstance(penalty, int) else penalty.pk
    found = (
        Penalty.objects.select_related("day").filter(pk=penalty_id).first()
        if sql.possible_id(penalty_id)
        else None
    )
    if found is None:
        raise NotFound("not_found", "No such penalty.")
    # The day's row locked first (the domain's lock order): a close asked for meanwhile sees
    # the lift, or this lift sees the day closing.
    locked = day_for_change(found.day_id) if found.day_id is not None else None
    found = Penalty.objects.select_for_update().get(pk=found.pk)
    reason = _text(reason, 200)
    if not reason:
        raise ServiceError("reason_required", "Say why it is lifted.", details={"field": "reason"})
    if found.kind != Penalty.Kind.DISQUALIFICATION:
        raise ServiceError("not_liftable", "Only a disqualification is lifted.")
    if found.lifted_at is not None:
        raise Conflict("already_lifted", "This disqualification was already lifted.")
    day = locked
    if day is not None and day.status in (Day.Status.CLOSING, Day.Status.CLOSED):
        raise Conflict(
            "day_closed",
            f"Day {day.number} has closed: its disqualifications stand.",
        )
    found.lifted_at = timezone.now()
    found.lifted_by = _user(by)
    found.lift_reason = reason
    found.save(update_fields=["lifted_at", "lifted_by", "lift_reason"])
    found.lift_record_seq, found.lift_record_hash = record_append(
        record_for_change(found.event_id), record.LIFT, record.lift_fields(found.pk)
    )
    found.save(update_fields=["lift_record_seq", "lift_record_hash"])
    versions.event_changed(found.event_id)
    audit_record(
        by=by,
        event_id=found.event_id,
        verb=Verb.FLOOR_LIFT,
        target=str(found),
        player=found.player_id,
        data={"penalty": found.pk, "reason": reason},
    )
    return found


# ----------------------------------------------------------------------------- the day's close


def _left_carried(table: Table) -> Hand | None:
    """The hand that left the table's pot carried: the latest that carried it (a misdeal keeps
    the pot of the hand before it)."""
    for hand in table.hands.filter(status=Hand.Status.SETTLED).order_by("-number"):
        result = hand.result or {}
        if "misdeal" in result:
            continue
        if (result.get("carried") or {}).get("pot"):
            return hand
        return None
    return None


def carried_share(amount: int, hand: Hand) -> list[dict[str, Any]]:
    """RULES §4b: equal shares among the players dealt into ``hand``; odd units one each,
    clockwise from its dealer."""
    n = int((hand.rules or {}).get("seats", 6))
    dealt = sorted(
        (s for s in hand.seats if s.get("dealt")),
        key=lambda s: (s["seat"] - hand.dealer_seat - 1) % n,
    )
    share, odd = divmod(amount, len(dealt))
    return [
        {
            "player_id": s["player_id"],
            "player": s["player"],
            "seat": s["seat"],
            "amount": share + (1 if i < odd else 0),
        }
        for i, s in enumerate(dealt)
    ]


@service_transaction
def carried_pots_share(*, day: Day | int, by: Actor | None = None) -> list[CarriedSplit]:
    """At the day's close, after the stacks went back: each pot still carried is shared by
    the players dealt into the hand that left it carried, paid to their balances through the
    ledger. Safe to run again (a shared pot is no longer carried)."""
    day = day_for_change(day if isinstance(day, int) else day.pk)
    out: list[CarriedSplit] = []
    tables = list(
        Table.objects.select_for_update(no_key=True)
        .filter(day=day, carried_pot__gt=0)
        .order_by("pk")
    )
    for table in tables:
        table.day = day
        hand = _left_carried(table)
        if hand is None:
            continue  # pragma: no cover - a carried pot always has its hand
        shares = carried_share(table.carried_pot, hand)
        source = account_carried(table)
        ids = sorted(s["player_id"] for s in shares)
        players = {
            p.pk: p
            for p in Player.objects.select_for_update(no_key=True).filter(pk__in=ids).order_by("pk")
        }
        for s in shares:
            if s["amount"]:
                transfer_post(
                    kind=Transfer.Kind.POT_WON,
                    source=source,
                    target=account_player(players[s["player_id"]]),
                    amount=s["amount"],
                    by=by,
                    memo=f"carried pot of table {table.number} shared at the day's close",
                )
        out.append(
            CarriedSplit.objects.create(
                day=day,
                table=table,
                hand=hand,
                amount=sum(s["amount"] for s in shares),
                shares=shares,
            )
        )
        versions.table_changed(table.pk, standings=True)
        audit_record(
            by=by,
            event_id=day.event_id,
            verb=Verb.DAY_CARRIED_SHARED,
            subject=table,
            data={"amount": sum(s["amount"] for s in shares), "shares": shares},
        )
    return out


# ----------------------------------------------------------------------------- large pots

AWARD = "award_confirm"  # its kind in the hand's record


def award_fields(award: AwardConfirmation) -> dict[str, Any]:
    """A confirmation's own fields as chained onto its hand's record: what the audit reads
    back from its stored row (``record.award_content``)."""
    return record.award_content(
        {
            "settled_seq": award.settled_seq,
            "awards": award.awards,
            "confirmed_by_id": award.confirmed_by_id,
            "confirmed_at": award.confirmed_at,
            "where": award.where,
        }
    )


@service_transaction
def hand_award_confirm(
    *,
    hand: Hand | int,
    by: Actor | None,
    where: str = "floor",
    access: statements.Access | None = None,
) -> AwardConfirmation:
    """A second member of staff confirms a large pot's award (the day's ``award_confirm_from``)
    so that the table's next hand can start: a supervisor or organiser of the event
    (``hand.award_confirm``) who entered none of the hand. The confirmation and its confirmer
    go onto the hand's record and into the audit log. ``where`` says how: on their own device
    (``floor``) or signed in on the table's tablet (``tablet``); ``access`` limits the hands
    to the tables the calling device operates (another is ``not_found``). The money moved when
    the hand settled: nothing moves here."""
    hand_id = hand if isinstance(hand, int) else hand.pk
    lock_day_of_hand(hand_id)
    found = statements.lock_hand(hand_id, access) if sql.possible_id(hand_id) else None
    if found is None:
        raise NotFound("not_found", "Not found, or not yours to see.")
    locked, _log = found
    day = locked.table.day
    if not can(by, "hand.award_confirm", day.event_id):
        raise Forbidden(
            "forbidden",
            "Only a supervisor or an organiser of this event can confirm a large pot.",
        )
    awards = AwardConfirmation.objects.filter(hand=locked).select_related("confirmed_by")
    award = awards.filter(status=AwardConfirmation.Status.WAITING).first()
    if award is None:
        done = awards.filter(status=AwardConfirmation.Status.CONFIRMED).order_by("-id").first()
        if done is not None:
            who = done.confirmed_by.get_username() if done.confirmed_by else "the system"
            raise Conflict(
                "award_already_confirmed",
                f"Hand {locked.number}'s pot was already confirmed by {who}: nothing more to "
                "do, the table can play on.",
                details={"confirmed_by": who},
            )
        raise Conflict(
            "no_award_waiting",
            f"Hand {locked.number} has no pot waiting for a second confirmation.",
        )
    entered = set(
        HandAction.objects.filter(hand=locked, entered_by__isnull=False).values_list(
            "entered_by_id", flat=True
        )
    ) | {u for u in (locked.started_by_id, award.entered_by_id) if u is not None}
    if by is None or by.user_id in entered:
        raise Forbidden(
            "award_confirm_own_hand",
            "You entered this hand: a large pot needs a second member of staff, one who did "
            "not deal it, to confirm it. Ask a supervisor.",
        )
    award.status = AwardConfirmation.Status.CONFIRMED
    award.confirmed_by = by.user
    award.confirmed_at = timezone.now()
    award.where = "tablet" if where == "tablet" else "floor"
    award.device = by.device[:200]
    award.seq, award.hash = chain.chain_append(hand=locked, kind=AWARD, fields=award_fields(award))
    award.save(
        update_fields=["status", "confirmed_by", "confirmed_at", "where", "device", "seq", "hash"]
    )
    locked.save(update_fields=["next_seq", "chain_head"])
    versions.table_changed(locked.table_id)
    audit_record(
        by=by,
        event_id=day.event_id,
        verb=Verb.HAND_AWARD_CONFIRM,
        subject=locked,
        day=day.pk,
        data={
            "awards": award.awards,
            "entered_by": award.entered_by_id,
            "where": award.where,
            "seq": award.seq,
        },
    )
    return award


# ------------------------------------------------------------------- the large-pot amount


@service_transaction
def day_award_from_change(
    *, day: Day, amount: int | None, reason: str = "", by: Actor | None
) -> Day:
    """Set the day's large-pot amount (``Day.award_confirm_from``: pots from it wait for a
    second member of staff; ``None``: never) — also while the day is open, for it is a floor
    procedure, not a rule of play: the hands dealt keep their rules. Refused once the day
    closes. Logged in the day's change log and audited; while the day is open it decides
    whether the next pots wait, so it is also an entry of the event's money record
    (``record.award_from_fields``). The same amount again changes nothing."""
    from brag_event.events.models import DayRulesChange
    from brag_event.events.services import floor_settings_check
    from brag_event.events.states import refuse_once_closing

    floor_settings_check({"award_confirm_from": amount})
    day = day_for_change(day.pk)
    refuse_once_closing(day, "its large-pot amount")
    before = day.award_confirm_from
    if before == amount:
        return day
    day.award_confirm_from = amount
    day.save(update_fields=["award_confirm_from"])
    now = timezone.now()
    seq: int | None = None
    digest = ""
    is_open = day.status == Day.Status.OPEN
    if is_open:
        # Chained first: the change's row is append-only, so it is written whole, once.
        fields = {"day_id": day.pk, "after": {"award_confirm_from": amount}, "changed_at": now}
        seq, digest = record_append(
            record_for_change(day.event_id), record.AWARD_FROM, record.award_from_fields(fields)
        )
    DayRulesChange.objects.create(
        day=day,
        changed_by=by.user if by is not None and by.user_id else None,
        changed_at=now,
        before={"award_confirm_from": before},
        after={"award_confirm_from": amount},
        reason=reason,
        record_seq=seq,
        record_hash=digest,
    )
    audit_record(
        by=by,
        verb=Verb.DAY_AWARD_FROM,
        subject=day,
        target=f"day {day.number}",
        data={"before": before, "after": amount, "open": is_open, "reason": reason},
        event_id=day.event_id,
    )
    return day
