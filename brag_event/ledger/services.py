"""Posting money: every movement is one transfer between two accounts.

The cached balances (``Player.balance``, ``Seat.stack``, ``Table.carried_pot``) are updated in
the same transaction as the transfer; ``audit_ledger`` proves they equal the ledger."""

from __future__ import annotations

from django.db.models import F, Sum

from brag_event.core.actors import Actor
from brag_event.core.errors import ServiceError
from brag_event.events.models import Event
from brag_event.hands.models import Hand, HandAction
from brag_event.players.models import Player
from brag_event.tables.models import Seat, Table

from .models import Account, Transfer

Kind = Account.Kind


def account_issuer(event: Event) -> Account:
    return Account.objects.get_or_create(event=event, kind=Kind.ISSUER)[0]


def account_house(event: Event) -> Account:
    return Account.objects.get_or_create(event=event, kind=Kind.HOUSE)[0]


def account_player(player: Player) -> Account:
    return Account.objects.get_or_create(event_id=player.event_id, kind=Kind.PLAYER, player=player)[
        0
    ]


def account_stack(seat: Seat) -> Account:
    event_id = seat.table.day.event_id
    return Account.objects.get_or_create(
        event_id=event_id, kind=Kind.STACK, seat=seat, defaults={"player_id": seat.player_id}
    )[0]


def account_carried(table: Table) -> Account:
    return Account.objects.get_or_create(
        event_id=table.day.event_id, kind=Kind.CARRIED, table=table
    )[0]


def account_pot(hand: Hand, index: int) -> Account:
    return Account.objects.get_or_create(
        event_id=hand.table.day.event_id,
        kind=Kind.POT,
        hand=hand,
        pot_index=index,
        defaults={"table_id": hand.table_id},
    )[0]


def _apply_cache(account: Account, delta: int) -> None:
    if account.kind == Kind.PLAYER and account.player_id is not None:
        Player.objects.filter(pk=account.player_id).update(balance=F("balance") + delta)
    elif account.kind == Kind.STACK and account.seat_id is not None:
        Seat.objects.filter(pk=account.seat_id).update(stack=F("stack") + delta)
    elif account.kind == Kind.CARRIED and account.table_id is not None:
        Table.objects.filter(pk=account.table_id).update(carried_pot=F("carried_pot") + delta)


def transfer_post(
    *,
    kind: str,
    source: Account,
    target: Account,
    amount: int,
    by: Actor | None = None,
    hand: Hand | None = None,
    action: HandAction | None = None,
    memo: str = "",
    reverses: Transfer | None = None,
) -> Transfer:
    """Move ``amount`` (> 0) from ``source`` to ``target`` and update the cached balances.
    Must run inside the calling service's transaction."""
    if not isinstance(amount, int) or isinstance(amount, bool) or amount <= 0:
        raise ServiceError("invalid_amount", "A transfer moves a positive whole amount.")
    if source.event_id != target.event_id:
        raise ServiceError("cross_event_transfer", "Money cannot move between events.")
    transfer = Transfer.objects.create(
        event_id=source.event_id,
        kind=kind,
        source=source,
        target=target,
        amount=amount,
        hand=hand,
        action=action,
        memo=memo[:200],
        reverses=reverses,
        created_by=by.user if by is not None and getattr(by.user, "pk", None) else None,
    )
    _apply_cache(source, -amount)
    _apply_cache(target, amount)
    return transfer


def transfer_reverse(*, transfer: Transfer, by: Actor | None, memo: str) -> Transfer:
    """A correction: the same amount back, naming the transfer it reverses."""
    if transfer.kind == Transfer.Kind.REVERSAL:
        raise ServiceError("cannot_reverse_reversal", "A reversal cannot itself be reversed.")
    if Transfer.objects.filter(reverses=transfer).exists():
        raise ServiceError("already_reversed", "This transfer was already reversed.")
    return transfer_post(
        kind=Transfer.Kind.REVERSAL,
        source=transfer.target,
        target=transfer.source,
        amount=transfer.amount,
        by=by,
        hand=transfer.hand,
        action=transfer.action,
        memo=memo,
        reverses=transfer,
    )


def account_balance(account: Account) -> int:
    """What came in minus what went out, from the ledger itself."""
    incoming = Transfer.objects.filter(target=account).aggregate(s=Sum("amount"))["s"] or 0
    outgoing = Transfer.objects.filter(source=account).aggregate(s=Sum("amount"))["s"] or 0
    return int(incoming - outgoing)
