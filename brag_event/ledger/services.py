"""Posting money: every movement is one transfer between two accounts.

The cached balances (``Player.balance``, ``Seat.stack``, ``Table.carried_pot``) are updated in
the same transaction as the transfer; ``audit_ledger`` proves they equal the ledger."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from django.db import connection
from django.db.models import Sum
from django.utils import timezone

from brag_event.core import sql
from brag_event.core.actors import Actor
from brag_event.core.errors import ServiceError
from brag_event.events.models import Event
from brag_event.events.record import record_extend
from brag_event.players.models import Player
from brag_event.tables.models import Seat, Table

from .models import Account, Transfer
from .record import record_for_change, transfer_fields

if TYPE_CHECKING:  # the ledger knows hands by id only (see [tool.importlinter])
    from brag_event.hands.models import Hand, HandAction

Kind = Account.Kind


def account_issuer(event: Event) -> Account:
    return Account.objects.get_or_create(event=event, kind=Kind.ISSUER)[0]


def account_house(event: Event) -> Account:
    return Account.objects.get_or_create(event=event, kind=Kind.HOUSE)[0]


def account_count(event: Event) -> Account:
    """The event's count differences (``closing.count``): chips the end-of-day count found
    missing from a stack go here; a stack found short of its chips is raised from here."""
    return Account.objects.get_or_create(event=event, kind=Kind.COUNT)[0]


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


def _check_leg(source: Account, target: Account, amount: int) -> None:
    if not isinstance(amount, int) or isinstance(amount, bool) or amount <= 0:
        raise ServiceError("invalid_amount", "A transfer moves a positive whole amount.")
    if source.event_id != target.event_id:
        raise ServiceError("cross_event_transfer", "Money cannot move between events.")


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
    """Move ``amount`` (> 0) from ``source`` to ``target`` and update the cached balances:
    ``transfers_post`` with one leg (there is one way to post). Must run inside the calling
    service's transaction. Returns the transfer posted."""
    (pk,) = transfers_post(
        legs=[(kind, source, target, amount)],
        by=by,
        hand=hand,
        action=action,
        memo=memo,
        reverses=reverses,
    )
    return Transfer.objects.get(pk=pk)


def transfers_post(
    *,
    legs: list[tuple[str, Account, Account, int]],
    by: Actor | None = None,
    hand: Hand | None = None,
    action: HandAction | None = None,
    memo: str = "",
    reverses: Transfer | None = None,
    reversed_ids: Sequence[int] | None = None,
) -> list[int]:
    """Post several transfers ``(kind, source, target, amount)`` at once — one INSERT for all of
    them and one cache UPDATE per cache and changed amount, instead of three statements a
    transfer. ``reversed_ids``: for reversals of several transfers, the id each leg reverses
    (in the order of ``legs``). Must run inside the calling service's transaction. Returns the
    ids posted."""
    action_ref: sql.Statement | None = ("%s", [action.pk]) if action is not None else None
    if not legs:
        return []
    reverses_id = reverses.pk if reverses is not None else None
    if reversed_ids is not None and len(reversed_ids) != len(legs):
        raise ValueError("reversed_ids names one transfer per leg")
    leg_reverses = list(reversed_ids) if reversed_ids is not None else [reverses_id] * len(legs)
    records: list[tuple[int, str]] | None = None
    for _kind, source, target, amount in legs:
        _check_leg(source, target, amount)  # before anything is chained
    if hand is None:
        # Money outside a hand goes onto the event's money record (a hand's is proved by its
        # replay): the record's row is locked last, after the caller's own locks.
        record = record_for_change(legs[0][1].event_id)
        created_by = _created_by(by)
        records = record_extend(
            record,
            "transfer",
            [
                transfer_fields(
                    kind=kind,
                    source=source,
                    target=target,
                    amount=amount,
                    reverses=leg_reverses[index],
                    memo=memo,
                    by=created_by,
                )
                for index, (kind, source, target, amount) in enumerate(legs)
            ],
        )
    insert, *updates = transfers_statements(
        legs=legs,
        by=by,
        hand_id=hand.pk if hand else None,
        action=action_ref,
        memo=memo,
        reverses_id=reverses_id,
        reversed_ids=reversed_ids,
        records=records,
    )
    query, params = insert
    rows, *_ = sql.run_batch([(f"{query} RETURNING {sql.qn('id')}", params), *updates])
    return [row[0] for row in rows or []]


_TRANSFER_COLUMNS = (
    "event_id",
    "kind",
    "source_id",
    "target_id",
    "amount",
    "hand_id",
    "memo",
    "created_by_id",
    "created_at",
    "action_id",
    "reverses_id",
    "record_seq",
    "record_hash",
)


def _created_by(by: Actor | None) -> int | None:
    return by.user.pk if by is not None and getattr(by.user, "pk", None) else None


def transfers_statements(
    *,
    legs: list[tuple[str, Account, Account, int]],
    by: Actor | None,
    hand_id: int | None,
    action: sql.Statement | None,
    memo: str,
    reverses_id: int | None = None,
    reversed_ids: Sequence[int] | None = None,
    records: list[tuple[int, str]] | None = None,
) -> list[sql.Statement]:
    """The statements that post ``legs``: one INSERT for the transfers, and one UPDATE of the
    cached balances per cache and changed amount. ``action`` is SQL for the id of the hand
    action the transfers belong to (it may be a sub-query on a row inserted in the same batch).

    The one way transfers are posted (``transfer_post`` and ``transfers_post`` run these). It is
    written out as SQL, not through the ORM, because the action path sends these statements in
    its one batch with the action's own rows and COMMIT (``hands.services``; ``core.sql`` says
    why the ORM is too slow there). ``records``: each leg's ``(seq, hash)`` on the event's
    money record (``transfers_post`` chains the transfers that belong to no hand)."""
    if not legs:
        return []
    created_by = _created_by(by)
    now = connection.ops.adapt_datetimefield_value(timezone.now())
    action_sql, action_params = action if action is not None else ("NULL", [])
    values: list[Any] = []
    deltas: dict[tuple[str, int], int] = {}
    if reversed_ids is not None and len(reversed_ids) != len(legs):
        raise ValueError("reversed_ids names one transfer per leg")
    for index, (kind, source, target, amount) in enumerate(legs):
        _check_leg(source, target, amount)
        reversed_id = reversed_ids[index] if reversed_ids is not None else reverses_id
        values += [source.event_id, kind, source.pk, target.pk, amount, hand_id, memo[:200]]
        record_seq, record_hash = records[index] if records is not None else (None, "")
        values += [created_by, now, *action_params, reversed_id, record_seq, record_hash]
        for account, delta in ((source, -amount), (target, amount)):
            cache = _cache_key(account)
            if cache is not None:
                deltas[cache] = deltas.get(cache, 0) + delta
    one = "(" + ", ".join(["%s"] * (len(_TRANSFER_COLUMNS) - 4) + [action_sql] + ["%s"] * 3) + ")"
    statements: list[sql.Statement] = [
        (
            f"INSERT INTO {sql.table(Transfer)} "  # nosec B608
            f"({', '.join(sql.qn(n) for n in _TRANSFER_COLUMNS)}) "
            f"VALUES {', '.join([one] * len(legs))}",
            values,
        )
    ]
    by_change: dict[tuple[str, int], list[int]] = {}
    for (cache_name, pk), delta in deltas.items():
        if delta:
            by_change.setdefault((cache_name, delta), []).append(pk)
    if len(by_change) > SPREAD_CHANGES:
        return statements + _spread_updates(deltas)
    for (cache_name, delta), pks in sorted(by_change.items()):
        model, column = _CACHES[cache_name]
        statements.append(
            (
                f"UPDATE {sql.table(model)} SET {sql.qn(column)} = {sql.qn(column)} + %s "  # nosec B608
                f"WHERE {sql.qn('id')} IN ({', '.join(['%s'] * len(pks))})",
                [delta, *sorted(pks)],
            )
        )
    return statements


# A posting whose cached balances change by more distinct amounts than this (a file of players
# with two thousand different starting amounts, or their reversal) updates each cache in one
# statement joined with the changes as a VALUES list, rather than one statement an amount. A
# hand's postings stay well below it and keep their plain UPDATEs.
SPREAD_CHANGES = 16


def _spread_updates(deltas: dict[tuple[str, int], int]) -> list[sql.Statement]:
    """One UPDATE per kind of cache for all of ``deltas``, by ids (PostgreSQL and SQLite both
    take ``UPDATE … FROM (VALUES …)``; the VALUES' columns are column1 and column2 in both)."""
    by_cache: dict[str, list[tuple[int, int]]] = {}
    for (cache_name, pk), delta in sorted(deltas.items()):
        if delta:
            by_cache.setdefault(cache_name, []).append((pk, delta))
    statements: list[sql.Statement] = []
    for cache_name, changes in sorted(by_cache.items()):
        model, column = _CACHES[cache_name]
        table, col = sql.table(model), sql.qn(column)
        rows = ", ".join(["(CAST(%s AS bigint), CAST(%s AS bigint))"] * len(changes))
        statements.append(
            (
                f"UPDATE {table} SET {col} = {table}.{col} + v.column2 "  # nosec B608
                f"FROM (VALUES {rows}) AS v WHERE {table}.{sql.qn('id')} = v.column1",
                [value for change in changes for value in change],
            )
        )
    return statements


def _cache_key(account: Account) -> tuple[str, int] | None:
    if account.kind == Kind.PLAYER and account.player_id is not None:
        return ("player", account.player_id)
    if account.kind == Kind.STACK and account.seat_id is not None:
        return ("seat", account.seat_id)
    if account.kind == Kind.CARRIED and account.table_id is not None:
        return ("table", account.table_id)
    return None


# The cached balances a transfer keeps up to date: (model, column) per kind of cache.
_CACHES: dict[str, tuple[type[Any], str]] = {
    "player": (Player, "balance"),
    "seat": (Seat, "stack"),
    "table": (Table, "carried_pot"),
}


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
