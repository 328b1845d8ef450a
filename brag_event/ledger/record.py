"""The event's money record: every movement of money outside a hand and every seat taken or
left, hash-chained in the order they happened (``engine.chain``; docs/integrity.md, "What an
insider can and cannot do").

A hand's transfers are proved by the hand's replay (``hands.audit``); everything else — issues,
buy-ins, house fees, re-buys, leaves, moves, withdrawals, carried pots shared, corrections — was
a plain row that an insider could add with its cached balances fixed. Each is now an entry::

    {"kind": "transfer", "seq": S, "transfer": kind, "from": [account kind, player, seat,
     table], "to": [...], "amount": A, "reverses": id or null, "memo": "…", "by": user or null}
    {"kind": "sit", "seq": S, "seat": id, "table": id, "number": N, "player": id, "buy_in": A}
    {"kind": "leave", "seq": S, "seat": id, "player": id}

chained from the event's genesis (its UUID) under the event's :class:`MoneyRecord` row, locked
by each entry: a row of its own, taken last (after the domain's day, table, seat and player
locks), so that the event's row stays free and a hand's action never waits on it. Each closed
day's ``brag-day/3`` root takes the record's seq and hash as they stood at the close.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Q

from brag_event.engine import chain
from brag_event.events.models import Event
from brag_event.tables.models import Seat

from .models import Account, MoneyRecord, Transfer


def genesis_of(record: MoneyRecord | None, uid: str) -> str:
    if record is None:
        return chain.money_record_genesis(uid)
    return chain.money_record_genesis(uid, transfer=record.before_transfer, seat=record.before_seat)


def record_for_change(event_id: int) -> MoneyRecord:
    """The event's record row, created if it has none yet, locked for the transaction."""
    if not MoneyRecord.objects.filter(event_id=event_id).exists():
        uid = str(Event.objects.values_list("uid", flat=True).get(pk=event_id))
        MoneyRecord.objects.bulk_create(
            [MoneyRecord(event_id=event_id, head=chain.money_record_genesis(uid))],
            ignore_conflicts=True,
        )
    return MoneyRecord.objects.select_for_update(no_key=True).get(event_id=event_id)


def record_append(record: MoneyRecord, kind: str, fields: dict[str, Any]) -> tuple[int, str]:
    """Chain an entry onto the locked ``record`` (saved here): returns its ``(seq, hash)`` for
    the row to store in the same transaction."""
    (entry,) = record_extend(record, kind, [fields])
    return entry


def record_extend(
    record: MoneyRecord, kind: str, entries: list[dict[str, Any]]
) -> list[tuple[int, str]]:
    """Chain several entries of one ``kind`` onto the locked ``record`` in order, saving it once
    (an import posts two thousand transfers): each entry's ``(seq, hash)``."""
    out: list[tuple[int, str]] = []
    for fields in entries:
        seq = record.next_seq
        record.head = chain.link(record.head, chain.entry_content(kind, seq, fields))
        record.next_seq = seq + 1
        out.append((seq, record.head))
    record.save(update_fields=["head", "next_seq"])
    return out


def account_ref(kind: str, player: int | None, seat: int | None, table: int | None) -> list[Any]:
    return [kind, player, seat, table]


def transfer_fields(
    *,
    kind: str,
    source: Account,
    target: Account,
    amount: int,
    reverses: int | None,
    memo: str,
    by: int | None,
) -> dict[str, Any]:
    """A transfer's own fields on the record (the columns the audit reads back)."""
    return {
        "transfer": kind,
        "from": account_ref(source.kind, source.player_id, source.seat_id, source.table_id),
        "to": account_ref(target.kind, target.player_id, target.seat_id, target.table_id),
        "amount": amount,
        "reverses": reverses,
        "memo": memo[:200],
        "by": by,
    }


def sit_fields(seat: Seat) -> dict[str, Any]:
    return {
        "seat": seat.pk,
        "table": seat.table_id,
        "number": seat.number,
        "player": seat.player_id,
        "buy_in": seat.buy_in,
    }


def leave_fields(seat: Seat) -> dict[str, Any]:
    return {"seat": seat.pk, "player": seat.player_id}


def seat_record_sit(seat: Seat, event_id: int) -> None:
    """A seat just taken, on the record (in the transaction that created it)."""
    seq, digest = record_append(record_for_change(event_id), "sit", sit_fields(seat))
    Seat.objects.filter(pk=seat.pk).update(sit_seq=seq, sit_hash=digest)
    seat.sit_seq, seat.sit_hash = seq, digest


def seat_record_leave(seat: Seat, event_id: int) -> None:
    """A seat being left, on the record: sets ``leave_seq`` and ``leave_hash`` on ``seat`` (the
    caller saves them with ``left_at``)."""
    seat.leave_seq, seat.leave_hash = record_append(
        record_for_change(event_id), "leave", leave_fields(seat)
    )


# ---------------------------------------------------------------------------------- the audit


@dataclass
class Recomputed:
    """The event's money record recomputed from its rows."""

    problems: list[str] = field(default_factory=list)
    entries: int = 0
    # Each entry's recomputed hash, by seq (what a closed day's root took at its seq).
    hashes: dict[int, str] = field(default_factory=dict)
    genesis: str = ""
    head: chain.MoneyHead | None = None
    issued_on_record: int = 0


_ACCOUNT = ("kind", "player_id", "seat_id", "table_id")


def _transfer_entries(
    event: Event, before: int
) -> Iterator[tuple[int | None, dict[str, Any], str, str]]:
    cols = [f"{side}__{c}" for side in ("source", "target") for c in _ACCOUNT]
    rows = (
        Transfer.objects.filter(event=event, hand__isnull=True, pk__gt=before)
        .order_by("pk")
        .values_list(
            "pk",
            "record_seq",
            "record_hash",
            "kind",
            "amount",
            "reverses_id",
            "memo",
            "created_by_id",
            *cols,
        )
    )
    for pk, seq, digest, kind, amount, reverses, memo, by, *accounts in rows.iterator(2000):
        own = {
            "transfer": kind,
            "from": account_ref(*accounts[:4]),
            "to": account_ref(*accounts[4:]),
            "amount": amount,
            "reverses": reverses,
            "memo": memo,
            "by": by,
        }
        what = f"transfer {pk} ({kind} {amount}, {accounts[0]} → {accounts[4]})"
        yield seq, chain.entry_content("transfer", seq or 0, own), digest, what


def _seat_entries(
    event: Event, before: int, problems: list[str]
) -> Iterator[tuple[int | None, dict[str, Any], str, str]]:
    rows = (
        Seat.objects.filter(table__day__event=event, pk__gt=before)
        .order_by("pk")
        .values_list(
            "pk",
            "table_id",
            "table__number",
            "table__day__number",
            "number",
            "player_id",
            "buy_in",
            "sit_seq",
            "sit_hash",
            "left_at",
            "leave_seq",
            "leave_hash",
        )
    )
    for (
        pk,
        table,
        t_no,
        d_no,
        number,
        player,
        buy_in,
        s_seq,
        s_hash,
        left,
        l_seq,
        l_hash,
    ) in rows.iterator(2000):
        where = f"seat {number} of table {t_no}, day {d_no} (seat id {pk})"
        own = {"seat": pk, "table": table, "number": number, "player": player, "buy_in": buy_in}
        yield s_seq, chain.entry_content("sit", s_seq or 0, own), s_hash, f"{where}: taken"
        if left is None and l_seq is not None:
            problems.append(f"{where}: left on the record but seated again")
        if left is not None:
            own = {"seat": pk, "player": player}
            yield l_seq, chain.entry_content("leave", l_seq or 0, own), l_hash, f"{where}: left"


def recompute(event: Event) -> Recomputed:
    """Every off-hand transfer and seat of ``event`` against the record: each on it exactly
    once, each entry's stored hash the hash of its content after the entry before it (a row
    changed, added behind the services or removed is named), the record's head its last hash,
    and the money issued on it what the ledger says was issued."""
    out = Recomputed()
    record = MoneyRecord.objects.filter(event=event).first()
    uid = str(event.uid)
    out.genesis = genesis_of(record, uid)
    before_t = record.before_transfer if record else 0
    before_s = record.before_seat if record else 0
    by_seq: dict[int, tuple[dict[str, Any], str, str]] = {}
    stray: list[str] = []
    entries = [*_transfer_entries(event, before_t), *_seat_entries(event, before_s, out.problems)]
    for seq, content, digest, what in entries:
        if seq is None:
            stray.append(f"{what} is on no record: written behind the services")
        elif seq in by_seq:
            out.problems.append(f"{what} has seq {seq}, as has {by_seq[seq][2]}")
        else:
            by_seq[seq] = (content, digest, what)
    out.problems += stray
    last = max(by_seq, default=0)
    missing = [s for s in range(1, last + 1) if s not in by_seq]
    if missing:
        out.problems.append(f"entries {missing[:10]} of the record are missing (rows removed)")
    previous_stored = current = out.genesis
    for seq in sorted(by_seq):
        content, digest, what = by_seq[seq]
        current = chain.link(current, content)
        out.hashes[seq] = current
        # Each entry checked against the stored hash before it: the row changed is named, not
        # every one after it.
        if digest != chain.link(previous_stored, content):
            out.problems.append(
                f"record entry {seq}, {what}: does not match its hash — the row was changed "
                "(its player, seat, table, amount or accounts) or written behind the services"
            )
        previous_stored = digest
    out.entries = len(by_seq)
    head = out.hashes[last] if last else out.genesis
    out.head = chain.MoneyHead(last, head)
    if record is not None and (record.head != head or record.next_seq != last + 1):
        out.problems.append(
            f"the record's head (seq {record.next_seq - 1}) is not its last entry's hash "
            f"(seq {last}): entries removed, or added behind the services"
        )
    if record is None and by_seq:
        out.problems.append("the event's record row is missing")
    issuer = Q(kind="issuer")
    for content, _digest, _what in by_seq.values():
        if content["kind"] == "transfer":
            if content["from"][0] == "issuer":
                out.issued_on_record += int(content["amount"])
            if content["to"][0] == "issuer":
                out.issued_on_record -= int(content["amount"])
    legacy = Transfer.objects.filter(event=event, pk__lte=before_t)
    issuers = Account.objects.filter(issuer, event=event)
    for sign, side in ((1, "source"), (-1, "target")):
        amounts = legacy.filter(**{f"{side}__in": issuers}).values_list("amount", flat=True)
        out.issued_on_record += sign * sum(int(a) for a in amounts)
    return out
