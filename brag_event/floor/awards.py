"""A large pot's second confirmation, at the table's side (``AwardConfirmation``): asked for
when a hand settles, in the way of the next hand until it is confirmed, withdrawn when the
settlement is undone. Called inside the hands' and the tables' services' transactions, through
the port the floor fills when it is ready (``tables.floor_rules``): they import nothing of the
floor. The
confirmation itself is ``floor.services.hand_award_confirm``.

The waiting and the withdrawal are entries of the event's money record, not of the hand's
chain: a hand's entry takes ``Hand.next_seq``, which a tablet counts on, and a hand of a closed
day cannot take one (its root is published), so the rows of before could not be put on it::

    {"kind": "award_wait", "seq": S, "award": id, "hand": id, "settled_by": seq,
     "awards": [{pot, amount, seats, players}], "threshold": A, "entered_by": user,
     "at": "…"}
    {"kind": "award_withdraw", "seq": S, "award": id, "at": "…"}

The settle asks after its own writes (the hand, table and seats locked), so the record's row
is locked last, as everywhere."""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from brag_event.events.record import at_text, record_append
from brag_event.ledger.record import record_for_change

from .models import AwardConfirmation

# Its entries on the event's money record (the confirmation itself is on the hand's record).
WAIT = "award_wait"
WITHDRAW = "award_withdraw"

WAIT_COLUMNS = (
    "id",
    "hand_id",
    "settled_seq",
    "awards",
    "threshold",
    "entered_by_id",
    "asked_at",
    "withdrawn_at",
)


def wait_fields(row: dict[str, Any]) -> dict[str, Any]:
    """A large pot's waiting as chained, from its row's columns (``WAIT_COLUMNS``): the award,
    its hand and the entry that settled it, the pots, the day's amount then, who entered the
    hand, when it was asked."""
    return {
        "award": row["id"],
        "hand": row["hand_id"],
        "settled_by": row["settled_seq"],
        "awards": row["awards"],
        "threshold": row["threshold"],
        "entered_by": row["entered_by_id"],
        "at": at_text(row["asked_at"]),
    }


def withdraw_fields(row: dict[str, Any]) -> dict[str, Any]:
    """A large pot's withdrawal (its settlement undone) as chained."""
    return {"award": row["id"], "at": at_text(row["withdrawn_at"])}


def _chain(award: AwardConfirmation, kind: str) -> tuple[int, str]:
    row = AwardConfirmation.objects.filter(pk=award.pk).values(*WAIT_COLUMNS).get()
    fields = wait_fields(row) if kind == WAIT else withdraw_fields(row)
    return record_append(record_for_change(award.event_id), kind, fields)


def awards_at_or_above(hand: Any, threshold: int) -> list[dict[str, Any]]:
    """The pots of a settled hand (``hand.result``) paid to a winner with ``threshold`` or
    more: [{pot, amount, seats, players}], what was paid out (after any rake). A carried pot
    and a misdeal pay nobody: never an award."""
    names = {s["seat"]: s["player"] for s in hand.seats}
    out = []
    for pot in (hand.result or {}).get("pots", []):
        shares = {int(seat): share for seat, share in pot.get("shares", {}).items() if share}
        paid = sum(shares.values())
        if shares and paid >= threshold:
            seats = sorted(shares)
            out.append(
                {
                    "pot": pot.get("index", 0),
                    "amount": paid,
                    "seats": seats,
                    "players": [names.get(s, f"seat {s}") for s in seats],
                }
            )
    return out


def award_ask(
    *, hand: Any, settled_seq: int, entered_by_id: int | None
) -> AwardConfirmation | None:
    """A hand has just settled (``hand.result`` written, not yet saved): if its day asks for a
    second confirmation and a pot paid at least that much, the award waits. Nothing is read or
    written when the day asks for none."""
    day = hand.table.day
    threshold = day.award_confirm_from
    if threshold is None:
        return None
    awards = awards_at_or_above(hand, threshold)
    if not awards:
        return None
    award = AwardConfirmation.objects.create(
        event_id=day.event_id,
        table_id=hand.table_id,
        hand=hand,
        settled_seq=settled_seq,
        awards=awards,
        amount=max(a["amount"] for a in awards),
        threshold=threshold,
        entered_by_id=entered_by_id,
    )
    award.wait_seq, award.wait_hash = _chain(award, WAIT)
    award.save(update_fields=["wait_seq", "wait_hash"])
    return award


def award_waiting(table_id: int) -> AwardConfirmation | None:
    """The award at the table still waiting for its second confirmation, if any."""
    return (
        AwardConfirmation.objects.filter(table_id=table_id, status=AwardConfirmation.Status.WAITING)
        .select_related("hand")
        .first()
    )


def award_withdraw(hand_id: int) -> int:
    """The hand's settlement was undone (its money reversed): its waiting award goes with it,
    on the event's money record. A confirmed one stays (it is on the hand's record); the hand,
    settled again, asks again."""
    waiting = list(
        AwardConfirmation.objects.select_for_update().filter(
            hand_id=hand_id, status=AwardConfirmation.Status.WAITING
        )
    )
    for award in waiting:
        award.status = AwardConfirmation.Status.WITHDRAWN
        award.withdrawn_at = timezone.now()
        award.save(update_fields=["status", "withdrawn_at"])
        award.withdraw_seq, award.withdraw_hash = _chain(award, WITHDRAW)
        award.save(update_fields=["withdraw_seq", "withdraw_hash"])
    return len(waiting)


def award_of(hand: Any) -> AwardConfirmation | None:
    """The hand's latest award confirmation that counts (waiting or confirmed), if any."""
    return (
        AwardConfirmation.objects.filter(hand_id=hand.pk)
        .exclude(status=AwardConfirmation.Status.WITHDRAWN)
        .select_related("confirmed_by")
        .order_by("-id")
        .first()
    )


def award_view(award: AwardConfirmation | None) -> dict[str, Any] | None:
    """An award's state as the tablet and the API show it."""
    if award is None:
        return None
    waiting = award.status == AwardConfirmation.Status.WAITING
    who = award.confirmed_by.get_username() if award.confirmed_by else None
    message = (
        f"{award.words} waits for a second member of staff."
        if waiting
        else f"{award.words}: confirmed by {who}."
    )
    return {
        "status": award.status,
        "amount": award.amount,
        "threshold": award.threshold,
        "awards": award.awards,
        "message": message,
        "confirmed_by": who,
        "confirmed_at": award.confirmed_at.isoformat() if award.confirmed_at else None,
    }
