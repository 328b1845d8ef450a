"""The tamper-evident record in the database: each hand's chain (``engine.chain``) kept as it is
written, checked, exported and sealed into a day's root.

Every record chained onto a hand takes the hand's next sequence number (``Hand.next_seq``) and
stores its hash; the hand keeps the last hash as ``Hand.chain_head``. Both move under the hand's
row lock, in the transaction that writes the record: one SHA-256 per record. The actions and the
voids are chained here; another app chains its own records of a hand with :func:`chain_append`
and registers where they are stored with :func:`register_source`, so that the audit recomputes
them and the export carries them (docs/integrity.md, "The tamper-evident record").

A record of a day that belongs to no hand (a ruling at a table with no hand yet, or made while
the day closes; a disqualification lifted) goes onto the day's own chain the same way:
:func:`day_chain_append` under the day's row lock (``Day.record_seq``, ``Day.record_head``),
:func:`register_day_source` for where it is stored; its head enters the day's root. Those two
are ``events.day_chain``, below the apps that write on a day's chain.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from django.db.models import QuerySet

from brag_event.engine import chain
from brag_event.events.day_chain import DAY_SOURCES, DayEntry
from brag_event.events.models import Day
from brag_event.ledger.models import MoneyRecord

from .models import ActionVoid, Hand, HandAction

# An entry of a hand's chain read back: (hand id, seq, canonical content, stored hash).
Entry = tuple[int, int, dict[str, Any], str]


# A stored hand's set-up as chained: the engine's, with the same keyword arguments.
header = chain.hand_content


def hand_header(hand: Hand, table_number: int) -> dict[str, Any]:
    return header(
        table=table_number,
        number=hand.number,
        dealer=hand.dealer_seat,
        rules=hand.rules,
        seats=hand.seats,
        carried_pot=hand.carried_pot,
        carried_seat=hand.carried_seat,
    )


def chain_next_genesis(hand: Hand, table_number: int) -> str:
    """A new hand's first hash: its set-up chained after zero."""
    return chain.genesis(hand_header(hand, table_number))


def action_content(
    seq: int, seat: int | None, action: str, amount: int | None, hand_choice: str, cards: str
) -> dict[str, Any]:
    """A stored action's content (empty ``hand_choice`` and ``cards`` are ``null``)."""
    return chain.action_content(
        seq=seq,
        seat=seat,
        action=action,
        amount=amount,
        hand=hand_choice or None,
        cards=cards or None,
    )


def chain_next(hand: Hand, content: Mapping[str, Any]) -> str:
    """Chain ``content`` onto ``hand``: returns the entry's hash and moves ``hand.chain_head`` to
    it (the caller writes ``chain_head`` with the record, in the same transaction)."""
    hand.chain_head = chain.link(hand.chain_head, content)
    return hand.chain_head


def chain_append(*, hand: Hand, kind: str, fields: Mapping[str, Any]) -> tuple[int, str]:
    """Chain a new record of ``kind`` (``"misdeal"``, ``"ruling"`` …) onto ``hand``: the record
    takes the hand's next sequence number; returns ``(seq, hash)`` for the record to store.

    The caller holds the hand's row lock (``hands.statements.lock_hand`` or
    ``select_for_update``), and saves ``hand`` with ``update_fields=["next_seq", "chain_head"]``
    in the same transaction as the record. ``fields`` are JSON values: exactly what
    :func:`register_source`'s ``content`` will give back from the stored row."""
    seq = hand.next_seq
    digest = chain_next(hand, chain.entry_content(kind, seq, fields))
    hand.next_seq = seq + 1
    return seq, digest


# ---------------------------------------------------------------------- where entries are stored


# What records are chained onto: a hand's chain, or a day's own chain.
Chained_on = TypeVar("Chained_on", Hand, Day)


@dataclass(frozen=True)
class Source(Generic[Chained_on]):
    """Where a kind of chained record is stored: ``rows(hands)`` (or ``rows(days)``) gives every
    such record of those hands (days) as an :data:`Entry`, sorted by hand (day) id then seq."""

    name: str
    rows: Callable[[QuerySet[Chained_on]], Iterator[Entry]]


SOURCES: list[Source[Hand]] = []


def _register(sources: list[Source[Chained_on]], source: Source[Chained_on]) -> None:
    if all(s.name != source.name for s in sources):
        sources.append(source)


def register_source(source: Source[Hand]) -> None:
    """Make the audit and the export read another kind of chained record."""
    _register(SOURCES, source)


def model_source(
    name: str,
    model: Any,
    *,
    fields: tuple[str, ...],
    content: Callable[[dict[str, Any]], dict[str, Any]],
    kind: str,
    hand: str = "hand_id",
    seq: str = "seq",
    digest: str = "hash",
) -> Source:
    """A :class:`Source` for a model with a hand, a seq and a hash column: ``content`` turns
    the row's ``fields`` (a dict) into the record's own fields (``chain_append``'s ``fields``)."""

    def rows(hands: QuerySet[Hand]) -> Iterator[Entry]:
        qs = (
            model.objects.filter(**{f"{hand}__in": hands.order_by().values("id")})
            .order_by(hand, seq)
            .values(hand, seq, digest, *fields)
        )
        for row in qs.iterator(chunk_size=2000):
            own = content({f: row[f] for f in fields})
            yield row[hand], row[seq], chain.entry_content(kind, row[seq], own), row[digest]

    return Source(name, rows)


def _actions(hands: QuerySet[Hand]) -> Iterator[Entry]:
    qs = (
        HandAction.objects.filter(hand__in=hands.order_by().values("id"))
        .order_by("hand_id", "seq")
        .values_list("hand_id", "seq", "seat", "action", "amount", "hand_choice", "cards", "hash")
    )
    for hand_id, seq, seat, action, amount, choice, cards, digest in qs.iterator(chunk_size=2000):
        yield hand_id, seq, action_content(seq, seat, action, amount, choice, cards), digest


def _voids(hands: QuerySet[Hand]) -> Iterator[Entry]:
    qs = (
        ActionVoid.objects.filter(action__hand__in=hands.order_by().values("id"))
        .order_by("action__hand_id", "seq")
        .values_list("action__hand_id", "seq", "action__seq", "reason", "hash")
    )
    for hand_id, seq, voids, reason, digest in qs.iterator(chunk_size=2000):
        # A void stored without its seq (written behind the services) sorts first, and fails.
        seq = seq if seq is not None else 0
        yield hand_id, seq, chain.void_content(seq=seq, voids=voids, reason=reason), digest


register_source(Source("actions", _actions))
register_source(Source("voids", _voids))


class _ByHand:
    def __init__(self, rows: Iterator[Entry]) -> None:
        self.rows = rows
        self.head: Entry | None = next(rows, None)

    def take(self, hand_id: int) -> list[Entry]:
        out = []
        while self.head is not None and self.head[0] <= hand_id:
            if self.head[0] == hand_id:
                out.append(self.head)
            self.head = next(self.rows, None)
        return out


@dataclass(frozen=True)
class Chained:
    """A hand's chain recomputed from its stored rows."""

    id: int
    day: int
    table: int
    number: int
    stored_head: str
    head: str  # recomputed
    entries: list[Entry]  # in seq order
    problems: list[str]
    hashes: list[str]  # each entry's recomputed hash
    header: dict[str, Any]  # the set-up as chained (empty if it cannot be)

    def __str__(self) -> str:
        return f"Hand {self.number} at table {self.table}"


_HAND_FIELDS = (
    "id",
    "table__day_id",
    "table__number",
    "number",
    "dealer_seat",
    "rules",
    "seats",
    "carried_pot",
    "carried_seat",
    "chain_head",
)


def _relink(
    name: str,
    current: str,
    entries: Iterable[Entry],
    problems: list[str],
    changed: str,
) -> tuple[str, list[str]]:
    """Chain ``entries`` (in seq order) onto ``current`` as they are stored, noting in
    ``problems`` two records with one seq, a record that cannot be hashed and (while fewer than
    three problems are noted) a stored hash that does not match — of which ``changed`` (what may
    have been changed, moved or removed) is said. Returns the recomputed head and each record's
    hash ("" for one that cannot be hashed)."""
    seen: set[int] = set()
    hashes: list[str] = []
    for _id, seq, content, digest in entries:
        if seq in seen:
            problems.append(f"{name}: two records with seq {seq}")
        seen.add(seq)
        try:
            current = chain.link(current, content)
        except (TypeError, ValueError) as err:
            problems.append(f"{name}: record seq {seq} cannot be hashed ({err})")
            hashes.append("")
            continue
        hashes.append(current)
        if digest != current and len(problems) < 3:
            problems.append(
                f"{name}: {content['kind']} seq {seq} does not match its hash — {changed} was "
                "changed, moved or removed"
            )
    return current, hashes


def chains(hands: QuerySet[Hand]) -> Iterator[Chained]:
    """Every hand of ``hands`` (by id) with its chain recomputed from the stored rows and what
    is wrong with it: an entry whose stored hash is not the recomputed one (changed, moved, or a
    record before it removed), two entries with one seq, a head that is not the last hash. One
    stream per source and one for the hands, merged a hand at a time."""
    streams = [_ByHand(source.rows(hands)) for source in SOURCES]
    rows = hands.order_by("id").values_list(*_HAND_FIELDS).iterator(chunk_size=2000)
    for hand_id, day, table, number, dealer, rules, seats, pot, seat, stored in rows:
        entries = sorted((e for s in streams for e in s.take(hand_id)), key=lambda e: e[1])
        name = f"Hand {number} at table {table}"
        problems: list[str] = []
        set_up: dict[str, Any] = {}
        try:
            set_up = header(
                table=table,
                number=number,
                dealer=dealer,
                rules=rules,
                seats=seats,
                carried_pot=pot,
                carried_seat=seat,
            )
            current = chain.genesis(set_up)
        except (KeyError, TypeError, ValueError) as err:
            problems.append(f"{name}: its set-up cannot be chained ({err})")
            current = chain.ZERO
        current, hashes = _relink(
            name, current, entries, problems, "it, a record before it or the hand's set-up"
        )
        if stored != current and not problems:
            problems.append(f"{name}: its head is not its last record's hash (a record removed?)")
        yield Chained(
            hand_id, day, table, number, stored, current, entries, problems, hashes, set_up
        )


def day_root_of(hands: QuerySet[Hand]) -> tuple[str, int, list[str]]:
    """A day's root from its hands' recomputed chains, the number of hands, and the hands'
    problems (the root is only meaningful without any)."""
    heads: list[tuple[int, int, str]] = []
    problems: list[str] = []
    for hand in chains(hands):
        heads.append((hand.table, hand.number, hand.head))
        problems += hand.problems
    return chain.day_root(heads), len(heads), problems


# ------------------------------------------------------------------------- the day's own chain


@dataclass(frozen=True)
class DayChained:
    """A day's own chain recomputed from its stored rows."""

    id: int
    number: int
    stored_head: str  # "" before any record
    head: str | None  # recomputed; None without any record
    entries: list[DayEntry]  # in seq order
    hashes: list[str]
    problems: list[str]

    @property
    def published_head(self) -> str | None:
        """The head as the day stores it (``None`` without any record)."""
        return self.stored_head or None


def day_chains(days: QuerySet[Day]) -> Iterator[DayChained]:
    """Every day of ``days`` (by id) with its own chain recomputed from the stored rows and what
    is wrong with it (as :func:`chains` does for hands)."""
    streams = [_ByHand(source.rows(days)) for source in DAY_SOURCES]
    rows = days.order_by("id").values_list("id", "number", "record_head")
    for day_id, number, stored in rows.iterator(chunk_size=200):
        entries = sorted((e for s in streams for e in s.take(day_id)), key=lambda e: e[1])
        name = f"Day {number}'s own record"
        problems: list[str] = []
        current = chain.day_record_genesis(number)
        current, hashes = _relink(name, current, entries, problems, "it or a record before it")
        head = current if entries else None
        if (stored or None) != head and not problems:
            problems.append(f"{name}: its head is not its last record's hash (a record removed?)")
        yield DayChained(day_id, number, stored, head, entries, hashes, problems)


def export_meta(day: Day) -> dict[str, Any]:
    """What each hand's ``meta`` names of its day: the event (its identity, from
    ``brag-day/3`` on; its name before) and the day's number."""
    event = str(day.event.uid) if day.record_version >= 3 else day.event.name
    return {"event": event, "day": day.number}


def day_export_line(day: Day, heads: Iterable[tuple[int, int, str]]) -> dict[str, Any]:
    """The last line of a day's export, in the version its root is published with
    (``brag-day/3`` for a day closed since roots name their event and day): its own chain's
    records as stored (content and stored ``hash``), its stored head, the money record as it
    stood at the close (``brag-day/3``), and the root — the one published at the close, or
    before it the root of the stored heads and the money record as they are now
    (``published`` says which)."""
    heads = list(heads)
    (own,) = day_chains(Day.objects.filter(pk=day.pk))
    entries = [{**content, "hash": digest} for _d, _s, content, digest in own.entries]
    meta = export_meta(day)
    money: chain.MoneyHead | None = None
    if day.record_version >= 3:
        if day.record_root:
            money = chain.MoneyHead(day.record_money_seq or 0, day.record_money_head)
        else:
            record = MoneyRecord.objects.filter(event_id=day.event_id).first()
            if record is not None:
                money = chain.MoneyHead(record.next_seq - 1, record.head)
        root = day.record_root or chain.record_root_v3(
            heads, own.published_head, event=meta["event"], day=day.number, money=money
        )
        fmt = chain.DAY_FORMAT
    else:
        root = day.record_root or chain.record_root(heads, own.published_head)
        fmt = chain.DAY_FORMAT_2
    line = chain.day_line(
        event=meta["event"],
        day=day.number,
        hands=len(heads),
        root=root,
        entries=entries,
        head=own.published_head,
        money=money,
        format=fmt,
    )
    line["published"] = bool(day.record_root)
    return line


# ---------------------------------------------------------------------------------- the export


def export_document(hand: Chained, meta: Mapping[str, Any]) -> dict[str, Any]:
    """A hand as ``brag-hh/1`` with its record: the set-up as chained, the live actions as
    stored (shows included, each with ``seq`` and ``hash``), the voided actions, voids and other
    records in ``others``, and the stored ``head``. The hashes are the stored ones: ``verify``
    recomputes them. ``meta`` gets the table and hand numbers (the chain's set-up has them)."""
    voided = {c["voids"] for _h, _s, c, _d in hand.entries if c["kind"] == "void"}
    actions: list[dict[str, Any]] = []
    others: list[dict[str, Any]] = []
    for _hand, seq, content, digest in hand.entries:
        if content["kind"] == "action" and seq not in voided:
            fields = {k: v for k, v in content.items() if k != "kind" and v is not None}
            actions.append({**fields, "hash": digest})
        else:
            others.append({**content, "hash": digest})
    set_up = hand.header
    doc: dict[str, Any] = {
        "format": "brag-hh/1",
        "rules": set_up["rules"],
        "dealer": set_up["dealer"],
        "seats": [
            {k: v for k, v in s.items() if k != "sitting_out"}
            | ({"sitting_out": True} if s["sitting_out"] else {})
            for s in set_up["seats"]
        ],
        "carried": set_up["carried"],
        "actions": actions,
    }
    if others:
        doc["others"] = others
    doc["head"] = hand.stored_head
    doc["meta"] = {**meta, "table": hand.table, "hand": hand.number}
    return doc


_APPEND_ONLY = ("hands_handaction", "hands_actionvoid")  # ledger migration 0002's triggers


@contextmanager
def records_writable(connection: Any) -> Iterator[None]:
    """The actions' and voids' append-only triggers lifted for the block (in the caller's
    transaction), for :func:`rebuild` alone: a migration, the benchmark seed."""
    vendor = connection.vendor
    with connection.cursor() as cur:
        if vendor == "postgresql":
            # A table with checks still pending in this transaction cannot be altered.
            cur.execute("SET CONSTRAINTS ALL IMMEDIATE")
        for table in _APPEND_ONLY:
            if vendor == "postgresql":
                cur.execute(f"ALTER TABLE {table} DISABLE TRIGGER {table}_append_only")
            elif vendor == "sqlite":
                cur.execute(f"DROP TRIGGER IF EXISTS {table}_append_only")
    yield
    with connection.cursor() as cur:
        if vendor == "postgresql":
            cur.execute("SET CONSTRAINTS ALL IMMEDIATE")
        for table in _APPEND_ONLY:
            if vendor == "postgresql":
                cur.execute(f"ALTER TABLE {table} ENABLE TRIGGER {table}_append_only")
            elif vendor == "sqlite":
                cur.execute(
                    f"CREATE TRIGGER {table}_append_only BEFORE UPDATE ON {table} BEGIN SELECT "
                    f"RAISE(ABORT, 'append_only: UPDATE on {table} is not allowed'); END"
                )
        if vendor == "postgresql":
            cur.execute("SET CONSTRAINTS ALL DEFERRED")


def rebuild(hands: QuerySet[Any], models: tuple[Any, Any, Any] | None = None) -> int:
    """Compute and store the chain of ``hands`` from their rows as they are (for rows written
    before the record existed, or copied in bulk by the benchmark seed): each void its seq,
    every record its hash, each hand its head. Returns how many hands. Never run on a hand
    whose rows may have been tampered with: it would seal the tampering."""
    done = 0
    # ``models``: (Hand, HandAction, ActionVoid) as a migration sees them.
    models = models or (Hand, HandAction, ActionVoid)
    for hand in hands.order_by("id").select_related("table").iterator(chunk_size=500):
        _rebuild_one(hand, models)
        done += 1
    return done


def _rebuild_one(hand: Any, models: tuple[Any, Any, Any]) -> None:
    hand_model, action_model, void_model = models
    actions = list(action_model.objects.filter(hand=hand).order_by("seq"))
    voids = list(void_model.objects.filter(action__hand=hand).order_by("voided_at", "id"))
    used = {a.seq for a in actions}
    free = iter(s for s in range(1, max([hand.next_seq, *(s + 1 for s in used)])) if s not in used)
    by_action = {a.pk: a for a in actions}
    for void in voids:
        if void.seq is None:
            # The seq the void took: the first unused one after the action it voids.
            voided = by_action[void.action_id].seq
            void.seq = next((s for s in free if s > voided), voided)
    entries: list[tuple[int, dict[str, Any], Any]] = [
        (a.seq, action_content(a.seq, a.seat, a.action, a.amount, a.hand_choice, a.cards), a)
        for a in actions
    ]
    entries += [
        (
            v.seq or 0,
            chain.void_content(seq=v.seq or 0, voids=by_action[v.action_id].seq, reason=v.reason),
            v,
        )
        for v in voids
    ]
    entries.sort(key=lambda e: e[0])
    head = chain.genesis(hand_header(hand, hand.table.number))
    for _seq, content, row in entries:
        head = row.hash = chain.link(head, content)
    action_model.objects.bulk_update(actions, ["hash"])
    void_model.objects.bulk_update(voids, ["seq", "hash"])
    hand_model.objects.filter(pk=hand.pk).update(chain_head=head)


def rebuild_actions(hands: QuerySet[Hand]) -> int:
    """:func:`rebuild` in bulk, for hands whose records are their actions only (the benchmark
    seed's copies): the hashes recomputed in one pass and written by a few statements."""
    from django.db import connection, transaction

    from brag_event.core import sql

    heads: list[tuple[int, str]] = []
    actions: list[tuple[int, int, str]] = []
    for hand in chains(hands):
        heads.append((hand.id, hand.head))
        actions += [(e[0], e[1], h) for e, h in zip(hand.entries, hand.hashes, strict=True)]
    with transaction.atomic(), records_writable(connection), connection.cursor() as cur:
        for i in range(0, len(heads), 1000):
            part = heads[i : i + 1000]
            cur.execute(
                f"UPDATE {sql.table(Hand)} SET chain_head = v.h FROM (VALUES "  # nosec B608
                + ", ".join(["(%s, %s)"] * len(part))
                + f") AS v(id, h) WHERE {sql.table(Hand)}.id = v.id",
                [x for row in part for x in row],
            )
        for i in range(0, len(actions), 1000):
            chunk = actions[i : i + 1000]
            cur.execute(
                f"UPDATE {sql.table(HandAction)} SET hash = v.h FROM (VALUES "  # nosec B608
                + ", ".join(["(%s, %s, %s)"] * len(chunk))
                + f") AS v(hand_id, seq, h) WHERE {sql.table(HandAction)}.hand_id = v.hand_id "
                f"AND {sql.table(HandAction)}.seq = v.seq",
                [x for row in chunk for x in row],
            )
    return len(heads)
