"""The hands' checks in the ledger audit (``ledger.audit``, which runs them after its own):
settled hands' pots are empty, every hand replays through the engine to exactly its transfers,
and every hand's record (its hash chain, each day's own chain and published root) is intact."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Container, Iterator
from dataclasses import dataclass
from typing import Any

from django.db import connection
from django.db.models import Exists, OuterRef, QuerySet

from brag_event.core import sql
from brag_event.core.words import counted
from brag_event.engine import EngineError
from brag_event.engine import chain as engine_chain
from brag_event.engine.history import outcome_dict
from brag_event.events.models import Day
from brag_event.ledger.audit import (
    CHUNK,
    KEEP,
    AuditReport,
    AuditRun,
    Found,
    Scope,
    _kept,
    _rows,
    register_check,
)
from brag_event.ledger.models import Account, AuditedHand, MoneyRecord, Transfer
from brag_event.ledger.record import genesis_of
from brag_event.tables.models import Table

from .chain import chains, day_chains
from .models import ActionVoid, Hand, HandAction
from .money import LogRow, Movement, Place, log_action, replay_actions

_T = sql.table(Transfer)
_A = sql.table(Account)
_H = sql.table(Hand)
_TB = sql.table(Table)
_DAY = sql.table(Day)

# Hand ids per statement when the periodic check replays the changed hands only (SQLite takes
# 999 parameters a statement at the least).
ID_BATCH = 900
# Above this many changed hands the periodic check reads the whole event's streams instead.
MANY_CHANGED = 20 * ID_BATCH


def scope_hands(scope: Scope) -> QuerySet[Hand]:
    """The hands an audit covers: the event's, or one day's."""
    hands = Hand.objects.filter(table__day__event=scope.event)
    return hands.filter(table__day=scope.day) if scope.day is not None else hands


def check_settled_pots_empty(run: AuditRun) -> Found:
    pots = run.balances.pots
    settled_ids = set(
        scope_hands(run.scope)
        .filter(pk__in={hand_id for _, hand_id, _ in pots}, status=Hand.Status.SETTLED)
        .values_list("pk", flat=True)
    )
    holding = [(pk, hand_id, balance) for pk, hand_id, balance in pots if hand_id in settled_ids]
    problems = _kept(
        (
            f"{Hand.objects.get(pk=hand_id)}: {Account.objects.get(pk=pk)} still holds {balance}"
            for pk, hand_id, balance in holding
        ),
        len(holding),
    )
    settled = scope_hands(run.scope).filter(status=Hand.Status.SETTLED).count()
    return problems, f"{settled} settled hands"


# --------------------------------------------------------------------------- the hand replay


@dataclass(frozen=True)
class HandRow:
    """What the replay needs of a stored hand (the attributes ``hands.money.state_start``
    reads)."""

    id: int
    number: int
    table_id: int
    table_number: int
    dealer_seat: int
    rules: dict[str, Any]
    seats: list[dict[str, Any]]
    carried_pot: int
    carried_seat: int | None
    shuffle_before: bool
    status: str
    result: Any = None

    def __str__(self) -> str:  # as Hand.__str__
        return f"Hand {self.number} at table {self.table_number}"


_HAND_FIELDS = (
    "id",
    "number",
    "table_id",
    "table__number",
    "dealer_seat",
    "rules",
    "seats",
    "carried_pot",
    "carried_seat",
    "shuffle_before",
    "status",
    "result",
)


def _stream(rows: QuerySet[Any]) -> Iterator[Any]:
    """Rows from a server-side cursor on PostgreSQL (chunks of ``CHUNK``): never all at once."""
    return rows.iterator(chunk_size=CHUNK)


def hand_rows(hands: QuerySet[Hand]) -> Iterator[HandRow]:
    """The hands, as ``HandRow``, by id."""
    for row in _stream(hands.order_by("id").values_list(*_HAND_FIELDS)):
        yield HandRow(*row)


def live_action_rows(hands: QuerySet[Hand]) -> Iterator[tuple[int, LogRow]]:
    """(hand id, log row) of every live (not voided) action of ``hands``, by hand then seq."""
    rows = (
        HandAction.objects.filter(hand__in=hands.order_by().values("id"))
        .exclude(Exists(ActionVoid.objects.filter(action=OuterRef("pk"))))
        .order_by("hand_id", "seq")
        .values_list("hand_id", "seq", "seat", "action", "amount", "hand_choice", "cards")
    )
    for hand_id, *row in _stream(rows):
        yield hand_id, (row[0], row[1], row[2], row[3], row[4], row[5])


def _place_sql(account: str) -> str:
    """SQL for an account as a place in a movement key, from the account row alone: a stack is
    ``stack:<seat id>``, a carried pot ``carried:<table id>``, the house ``house``, and a pot
    ``pot:<index>`` when it is the transfer's hand's own — another hand's pot is written so that it
    can never match a movement of this hand. ``HandMoves.key`` writes a replay's movements the
    same way, with the hand's own seat ids (from its seats as dealt) and table."""
    text = "CAST({} AS TEXT)".format
    return (
        f"CASE {account}.kind "
        f"WHEN 'stack' THEN 'stack:' || COALESCE({text(f'{account}.seat_id')}, '?') "
        f"WHEN 'carried' THEN 'carried:' || COALESCE({text(f'{account}.table_id')}, '?') "
        f"WHEN 'pot' THEN CASE WHEN {account}.hand_id = tr.hand_id "
        f"THEN 'pot:' || {text(f'{account}.pot_index')} "
        f"ELSE 'pot of hand ' || COALESCE({text(f'{account}.hand_id')}, '?') END "
        f"ELSE {account}.kind END"
    )


# A transfer as one text, "kind|from|to|amount", built in the database.
_MOVEMENT_SQL = (
    f"tr.kind || '|' || {_place_sql('sa')} || '|' || {_place_sql('ta')} "
    "|| '|' || CAST(tr.amount AS TEXT)"
)


class HandMoves:
    """A replay's movements written as the database writes a hand's transfers."""

    def __init__(self, hand: HandRow) -> None:
        self.hand = hand
        self.seat_ids = {s["seat"]: s.get("seat_id") for s in hand.seats}

    def place(self, place: Place) -> str:
        if place[0] == "stack":
            return f"stack:{self.seat_ids.get(place[1], '?')}"
        if place[0] == "carried":
            return f"carried:{self.hand.table_id}"
        return ":".join(map(str, place))

    def key(self, move: Movement) -> str:
        kind, source, target, amount = move
        return f"{kind}|{self.place(source)}|{self.place(target)}|{amount}"

    def describe(self, key: str) -> str:
        """A key as people read it: seat numbers, and what is not this hand's said so."""
        numbers = {f"stack:{sid}": f"stack {n}" for n, sid in self.seat_ids.items()}
        parts = key.split("|")
        for i in (1, 2):
            if parts[i] in numbers:
                parts[i] = numbers[parts[i]]
            elif parts[i].startswith("stack:"):
                parts[i] = f"stack of another table (seat id {parts[i][6:]})"
            elif parts[i].startswith("carried:") and parts[i] != f"carried:{self.hand.table_id}":
                parts[i] = f"carried pot of another table (table id {parts[i][8:]})"
            elif parts[i].startswith("carried:"):
                parts[i] = "carried"
        return f"{parts[0]} {parts[3]}: {parts[1]} → {parts[2]}"


def hand_transfer_rows(scope: Scope, hands: QuerySet[Hand]) -> Iterator[tuple[int, str]]:
    """(hand id, its transfers) for every hand of ``hands`` that has any, by hand: every transfer
    of the event on the hand that is neither a reversal nor reversed (what the hand's money is
    now), as movement keys joined by ";" — one row a hand, grouped in the database."""
    hand_ids, params = hands.order_by().values("id").query.sql_with_params()
    concat = "string_agg" if connection.vendor == "postgresql" else "group_concat"
    statement = (
        f"SELECT tr.hand_id, {concat}({_MOVEMENT_SQL}, ';') FROM {_T} tr "  # nosec B608
        f"JOIN {_A} sa ON sa.id = tr.source_id JOIN {_A} ta ON ta.id = tr.target_id "
        "WHERE tr.event_id = %s AND tr.kind <> %s "
        f"AND NOT EXISTS (SELECT 1 FROM {_T} r WHERE r.reverses_id = tr.id) "
        f"AND tr.hand_id IN ({hand_ids}) "
        "GROUP BY tr.hand_id ORDER BY tr.hand_id"
    )
    with connection.chunked_cursor() as cur:
        cur.execute(statement, [scope.event.pk, Transfer.Kind.REVERSAL, *params])
        while rows := cur.fetchmany(CHUNK):
            yield from rows


class ByHand:
    """Rows of a stream sorted by hand id, taken one hand at a time."""

    def __init__(self, rows: Iterator[tuple[Any, ...]]) -> None:
        self.rows = rows
        self.head: tuple[Any, ...] | None = next(rows, None)

    def take(self, hand_id: int) -> list[tuple[Any, ...]]:
        out = []
        while self.head is not None and self.head[0] <= hand_id:
            if self.head[0] == hand_id:
                out.append(self.head)
            self.head = next(self.rows, None)  # rows of a hand outside the stream are skipped
        return out


def replay_hand(hand: HandRow, log: list[LogRow], transfers: list[tuple[Any, ...]]) -> list[str]:
    """What is wrong with one hand: it does not replay, its transfers differ from what the replay
    moves, or its status is not the replay's. Empty when nothing is."""
    try:
        state, moves = replay_actions(hand, (log_action(row) for row in log))
    except EngineError as err:
        return [f"{hand} does not replay: {err.code} {err.message}"]
    except Exception as err:  # stored data no service writes: reported, never a crash
        return [f"{hand} does not replay: {type(err).__name__} {err}"]
    problems = []
    moves_of = HandMoves(hand)
    expected = sorted(map(moves_of.key, moves))
    actual = sorted(transfers[0][1].split(";")) if transfers else []
    if expected != actual:
        missing = Counter(expected) - Counter(actual)
        extra = Counter(actual) - Counter(expected)
        problems.append(
            f"{hand}: ledger differs from replay (missing "
            + (", ".join(f"{moves_of.describe(k)} ×{n}" for k, n in missing.items()) or "nothing")
            + "; extra "
            + (", ".join(f"{moves_of.describe(k)} ×{n}" for k, n in extra.items()) or "nothing")
            + ")"
        )
    settled = state.outcome is not None
    if settled != (hand.status == Hand.Status.SETTLED):
        problems.append(f"{hand}: status {hand.status} but replay settled={settled}")
    elif settled:
        # The stored result is what players' pages show: it must be the replay's, as stored
        # (a JSON round trip), not a rewrite.
        replayed = json.loads(json.dumps(outcome_dict(state)))
        stored = _without_misdeal_reason(hand.result)
        replayed = _without_misdeal_reason(replayed)
        if stored != replayed:
            keys = set(stored) | set(replayed) if isinstance(stored, dict) else set(replayed)
            differ = sorted(
                k for k in keys if not isinstance(stored, dict) or stored.get(k) != replayed.get(k)
            )
            problems.append(
                f"{hand}: its stored result is not its replay's ({', '.join(differ)} rewritten)"
            )
    return problems


def _without_misdeal_reason(result: Any) -> Any:
    """A result with a misdeal's reason in words taken out (from ``misdeal.reason`` and the
    pots' explanations): the chained ``misdeal`` action does not carry it (the ``Misdeal`` row
    and the audit log do), so the replay cannot give it back. Everything else must match."""
    if not isinstance(result, dict) or not isinstance(result.get("misdeal"), dict):
        return result
    reason = str(result["misdeal"].get("reason") or "")
    pots = [
        p | {"explanation": str(p.get("explanation", "")).replace(f"Misdeal ({reason})", "Misdeal")}
        if isinstance(p, dict) and reason
        else p
        for p in result.get("pots") or []
    ]
    return result | {"misdeal": result["misdeal"] | {"reason": ""}, "pots": pots}


def replay_stream(
    scope: Scope, hands: QuerySet[Hand], *, only: Container[int] | None = None
) -> Iterator[tuple[HandRow, list[str]]]:
    """Each of ``hands`` (or of those whose ids are in ``only``) with what is wrong with it:
    three streams (hands, live actions, transfers), merged one hand at a time."""
    actions = ByHand(live_action_rows(hands))
    transfers = ByHand(hand_transfer_rows(scope, hands))
    for hand in hand_rows(hands):
        log = [row for _id, row in actions.take(hand.id)]
        moved = transfers.take(hand.id)
        if only is None or hand.id in only:
            yield hand, replay_hand(hand, log, moved)


# ------------------------------------------------------------------ incremental: fingerprints

_HA = sql.table(HandAction)
_AH = sql.table(AuditedHand)


def changed_hands(scope: Scope) -> tuple[dict[int, tuple[int, ...]], int]:
    """The hands of ``scope`` to replay — every hand in play, and every settled hand whose
    fingerprint differs from the one recorded when it last replayed cleanly (or that has none) —
    with their fingerprints; and how many settled hands are unchanged. The fingerprint is the log
    sequence (it moves on every action and every void) and the count and last id of the hand's
    actions and of its transfers (both append-only): a new action, void or transfer changes it.
    One statement, aggregates grouped in the database."""
    day = "AND t.day_id = %s " if scope.day is not None else ""
    day_param = [scope.day.pk] if scope.day is not None else []
    event = scope.event.pk
    rows = _rows(
        "WITH f AS (SELECT h.id, h.status, h.next_seq, COALESCE(a.n, 0) AS n_actions, "  # nosec B608
        "COALESCE(a.last, 0) AS last_action, COALESCE(tr.n, 0) AS n_transfers, "
        "COALESCE(tr.last, 0) AS last_transfer, "
        "(h.status = %s AND ah.hand_id IS NOT NULL AND ah.next_seq = h.next_seq "
        " AND ah.actions = COALESCE(a.n, 0) AND ah.last_action = COALESCE(a.last, 0) "
        " AND ah.transfers = COALESCE(tr.n, 0) AND ah.last_transfer = COALESCE(tr.last, 0)) "
        " AS unchanged "
        f"FROM {_H} h JOIN {_TB} t ON t.id = h.table_id JOIN {_DAY} d ON d.id = t.day_id "
        "LEFT JOIN (SELECT x.hand_id, COUNT(*) AS n, MAX(x.id) AS last "
        f" FROM {_HA} x JOIN {_H} xh ON xh.id = x.hand_id JOIN {_TB} xt ON xt.id = xh.table_id "
        f" JOIN {_DAY} xd ON xd.id = xt.day_id WHERE xd.event_id = %s GROUP BY x.hand_id) a "
        " ON a.hand_id = h.id "
        "LEFT JOIN (SELECT hand_id, COUNT(*) AS n, MAX(id) AS last "
        f" FROM {_T} WHERE event_id = %s AND hand_id IS NOT NULL GROUP BY hand_id) tr "
        " ON tr.hand_id = h.id "
        f"LEFT JOIN {_AH} ah ON ah.hand_id = h.id "
        f"WHERE d.event_id = %s {day}) "
        # Only the hands to replay come back, and one row that counts the others.
        "SELECT id, next_seq, n_actions, last_action, n_transfers, last_transfer FROM f "
        "WHERE NOT unchanged "
        "UNION ALL SELECT 0, COUNT(*), 0, 0, 0, 0 FROM f WHERE unchanged",
        [Hand.Status.SETTLED, event, event, event, *day_param],
    )
    changed: dict[int, tuple[int, ...]] = {}
    unchanged = 0
    for hand_id, *fingerprint in rows:
        if hand_id == 0:
            unchanged = int(fingerprint[0])
        else:
            changed[hand_id] = tuple(int(v) for v in fingerprint)
    return changed, unchanged


def check_hand_replays(
    scope: Scope, report: AuditReport, *, changed_only: bool = False
) -> tuple[list[str], str]:
    if changed_only:
        changed, unchanged = changed_hands(scope)
        ids = sorted(changed)
        # Few hands: their ids in batches (an IN list each), so that no statement grows with the
        # event. Many (a first run): the whole event's streams, the unchanged hands skipped.
        if len(ids) <= MANY_CHANGED:
            batches = [
                Hand.objects.filter(pk__in=ids[i : i + ID_BATCH])
                for i in range(0, len(ids), ID_BATCH)
            ]
        else:
            batches = [scope_hands(scope)]
    else:
        changed, unchanged = {}, 0
        batches = [scope_hands(scope)]
    problems: list[str] = []
    n_problems = replayed = 0
    for hands in batches:
        for hand, found in replay_stream(scope, hands, only=changed if changed_only else None):
            replayed += 1
            if found:
                n_problems += len(found)
                if len(problems) < KEEP:
                    problems += found
            elif changed_only and hand.status == Hand.Status.SETTLED:
                report.replayed_clean[hand.id] = changed[hand.id]
    if changed_only:
        report.checked_ids = ids
    problems = _kept(iter(problems), n_problems)
    detail = f"{counted(replayed, 'hand')} replayed"
    if changed_only:
        detail += (
            f" ({counted(unchanged, 'settled hand')} unchanged since they last replayed cleanly)"
        )
    return problems, detail


# ------------------------------------------------------------------------ the hands' records


def check_hand_records(scope: Scope, report: AuditReport) -> Found:
    """Recompute the hash chain of every hand (or, in the periodic check, of the hands it
    replays: in play, new or changed), each day's own chain (its records that belong to no
    hand: always, they are few) and, over all of them, each closed day's root."""
    ids = report.checked_ids
    if ids is None:
        batches = [scope_hands(scope)]
    else:
        batches = [
            Hand.objects.filter(pk__in=ids[i : i + ID_BATCH]) for i in range(0, len(ids), ID_BATCH)
        ]
    problems: list[str] = []
    n_problems = checked = 0
    heads: dict[int, list[tuple[int, int, str]]] = {}
    for hands in batches:
        for hand in chains(hands):
            checked += 1
            heads.setdefault(hand.day, []).append((hand.table, hand.number, hand.head))
            if hand.problems:
                n_problems += len(hand.problems)
                if len(problems) < KEEP:
                    problems += hand.problems
    days = Day.objects.filter(event=scope.event)
    if scope.day is not None:
        days = days.filter(pk=scope.day.pk)
    day_heads: dict[int, str | None] = {}
    for own in day_chains(days):
        day_heads[own.id] = own.head
        report.day_entries[own.id] = len(own.entries)
        if own.problems:
            n_problems += len(own.problems)
            if len(problems) < KEEP:
                problems += own.problems
    problems = _kept(iter(problems), n_problems)
    own_records = sum(report.day_entries.values())
    detail = (
        f"{checked} hand{'' if checked == 1 else 's'}' records recomputed, "
        f"{counted(own_records, 'day-level record')}"
    )
    if ids is None and scope.event.imported_at is not None:
        # A past event imported from a results file: its records stayed where it was played,
        # so its days' roots (as the file gave them) cannot be recomputed here; they are
        # checked against the hands files of the installation that published them.
        imported = days.exclude(record_root="").count()
        detail += (
            f"; {imported} closed days' roots imported as published (their records are not here)"
        )
        return problems, detail
    if ids is None:
        published = 0
        event_uid = str(scope.event.uid)
        for day_id, number, stored, version, money_seq, money_head in days.values_list(
            "id", "number", "record_root", "record_version", "record_money_seq", "record_money_head"
        ):
            day_hands, day_head = heads.get(day_id, []), day_heads.get(day_id)
            if version < 3:  # published before roots named their event and day
                root = engine_chain.record_root(day_hands, day_head)
            else:
                money = report.money
                if stored:  # the money record as it stood at the close
                    recomputed = (
                        report.money_hashes.get(money_seq) if money_seq else None
                    ) or money_genesis(scope.event)
                    if money_seq is None or recomputed != money_head:
                        problems.append(
                            f"day {number}: the money record at its close (entry {money_seq}) "
                            f"gives {recomputed}, not {money_head or 'nothing'} as published"
                        )
                    money = engine_chain.MoneyHead(money_seq or 0, money_head)
                root = engine_chain.record_root_v3(
                    day_hands, day_head, event=event_uid, day=number, money=money
                )
            report.roots[day_id] = (root, len(day_hands))
            if stored:
                published += 1
                if stored != root:
                    problems.append(
                        f"day {number}: its records give the root {root}, not the root "
                        f"{stored} published at its close"
                    )
        detail += f"; {published} closed days' published roots"
    return problems, detail


def money_genesis(event: Any) -> str:
    return genesis_of(MoneyRecord.objects.filter(event=event).first(), str(event.uid))


def _replays(run: AuditRun) -> Found:
    return check_hand_replays(run.scope, run.report, changed_only=run.replay == "changed")


def _records(run: AuditRun) -> Found:
    return check_hand_records(run.scope, run.report)


def register() -> None:
    """Add the hands' checks to the ledger audit, in the order they must run (the records'
    check reads which hands the replay checked)."""
    register_check("settled hands' pots are empty", check_settled_pots_empty)
    register_check("hands replay to their transfers", _replays)
    register_check("hand records are intact", _records)
