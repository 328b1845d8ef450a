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

The entries' hashing and the registry of kinds of rows are ``events.record``, below the apps
that write on the record; the seats' entries are ``tables.record``.

Every other row that decides money, seats, results or eligibility outside a hand is an entry of
the same record, written by its own app and registered here (:func:`register_record_source`) so
that the audit recomputes it without the ledger importing that app: dealers' shifts
(``tables.record``), the end-of-day count, its rulings and waivers (``closing.record``), lifted
disqualifications and large pots waiting or withdrawn (``floor.record``), and who each player
is, with people merged (``players.record``). Each module's docstring gives its entries.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Q

from brag_event.engine import chain
from brag_event.events.models import Event
from brag_event.events.record import (
    RECORD_SOURCES,
    RecordRow,
    RecordSource,
    entry,
    register_record_source,
)
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
    # How many entries of each kind are on the record.
    kinds: dict[str, int] = field(default_factory=dict)


_ACCOUNT = ("kind", "player_id", "seat_id", "table_id")


def _transfer_entries(event: Event, _problems: list[str]) -> Iterator[RecordRow]:
    record = MoneyRecord.objects.filter(event=event).first()
    before = record.before_transfer if record else 0
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
        yield RecordRow(
            seq, entry("transfer", seq, own), digest, what, "its amount, kind, accounts or memo"
        )


def _seat_entries(event: Event, problems: list[str]) -> Iterator[RecordRow]:
    record = MoneyRecord.objects.filter(event=event).first()
    before = record.before_seat if record else 0
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
    changed = "its player, seat or table"
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
        yield RecordRow(s_seq, entry("sit", s_seq, own), s_hash, f"{where}: taken", changed)
        if left is None and l_seq is not None:
            problems.append(f"{where}: left on the record but seated again")
        if left is not None:
            own = {"seat": pk, "player": player}
            yield RecordRow(l_seq, entry("leave", l_seq, own), l_hash, f"{where}: left", changed)


register_record_source(RecordSource("transfers", _transfer_entries))
register_record_source(RecordSource("seats", _seat_entries))


def _gap(by_seq: dict[int, RecordRow], seq: int) -> str:
    """Where a deleted entry was, in words: the entries beside it."""
    before = next((by_seq[s] for s in range(seq - 1, 0, -1) if s in by_seq), None)
    after = next((by_seq[s] for s in sorted(by_seq) if s > seq), None)
    return (
        f"entry {seq} of the record is missing (its row deleted): it came after "
        + (f"entry {before.seq}, {before.what}" if before else "the record's start")
        + (f", and before entry {after.seq}, {after.what}" if after else ", the last")
    )


def _rows_by_seq(event: Event, problems: list[str]) -> dict[int, RecordRow]:
    """Every source's rows by their seq on the record; rows on no record, or two of one seq,
    are problems."""
    by_seq: dict[int, RecordRow] = {}
    stray: list[str] = []
    for source in RECORD_SOURCES:
        for row in source.rows(event, problems):
            if row.seq is None:
                stray.append(
                    row.unrecorded or f"{row.what} is on no record: written behind the services"
                )
            elif row.seq in by_seq:
                problems.append(f"{row.what} has seq {row.seq}, as has {by_seq[row.seq].what}")
            else:
                by_seq[row.seq] = row
    problems += stray
    return by_seq


def _chain(out: Recomputed, by_seq: dict[int, RecordRow]) -> None:
    """Each entry's hash recomputed after the one before, and checked against its stored
    hash."""
    previous_stored = current = out.genesis
    for seq in sorted(by_seq):
        row = by_seq[seq]
        current = chain.link(current, row.content)
        out.hashes[seq] = current
        kind = str(row.content["kind"])
        out.kinds[kind] = out.kinds.get(kind, 0) + 1
        # Each entry checked against the stored hash before it: the row changed is named, not
        # every one after it. The entry after a deleted one cannot be (the gap is named above).
        if (seq == 1 or seq - 1 in by_seq) and row.digest != chain.link(
            previous_stored, row.content
        ):
            out.problems.append(
                next(
                    (
                        words
                        for content, words in row.alternatives
                        if row.digest == chain.link(previous_stored, content)
                    ),
                    f"record entry {seq}, {row.what}: does not match its hash — the row was "
                    f"changed ({row.changed}) or written behind the services",
                )
            )
        previous_stored = row.digest


def _issued_on_record(event: Event, by_seq: dict[int, RecordRow], before_t: int) -> int:
    """The money issued on the record, and by the transfers from before it was kept."""
    issued = 0
    issuer = Q(kind="issuer")
    for row in by_seq.values():
        content = row.content
        if content["kind"] == "transfer":
            if content["from"][0] == "issuer":
                issued += int(content["amount"])
            if content["to"][0] == "issuer":
                issued -= int(content["amount"])
    legacy = Transfer.objects.filter(event=event, pk__lte=before_t)
    issuers = Account.objects.filter(issuer, event=event)
    for sign, side in ((1, "source"), (-1, "target")):
        amounts = legacy.filter(**{f"{side}__in": issuers}).values_list("amount", flat=True)
        issued += sign * sum(int(a) for a in amounts)
    return issued


def recompute(event: Event) -> Recomputed:
    """Every row of every kind on the record (``register_record_source``: transfers outside
    hands, seats taken and left, and what the other apps register) against the record: each
    on it exactly once, each entry's stored hash the hash of its content after the entry before
    it (a row changed, added behind the services or removed is named), the record's head its
    last hash, and the money issued on it what the ledger says was issued."""
    out = Recomputed()
    record = MoneyRecord.objects.filter(event=event).first()
    uid = str(event.uid)
    out.genesis = genesis_of(record, uid)
    before_t = record.before_transfer if record else 0
    by_seq = _rows_by_seq(event, out.problems)
    last = max(by_seq, default=0)
    missing = [s for s in range(1, last + 1) if s not in by_seq]
    if missing:
        out.problems.append(
            f"entries {missing[:10]} of the record are missing: rows on it were deleted"
        )
        out.problems += [_gap(by_seq, seq) for seq in missing[:3]]
    _chain(out, by_seq)
    out.entries = len(by_seq)
    head = out.hashes[last] if last else out.genesis
    out.head = chain.MoneyHead(last, head)
    # The stored head against the last entry's stored hash (a changed entry is named above).
    stored_last = by_seq[last].digest if last else out.genesis
    if record is not None and (record.head != stored_last or record.next_seq != last + 1):
        out.problems.append(
            f"the record's head (seq {record.next_seq - 1}) is not its last entry's hash "
            f"(seq {last}): entries removed, or added behind the services"
        )
        if record.next_seq - 1 > last:
            out.problems.append(_gap(by_seq, last + 1))
    if record is None and by_seq:
        out.problems.append("the event's record row is missing")
    out.issued_on_record = _issued_on_record(event, by_seq, before_t)
    return out
