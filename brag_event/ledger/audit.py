"""The ledger audit: proves, for an event or one day, that no unit of money was lost or made up.

Each named check is one function: transfers balance, money is conserved, cached
balances match, pot transfers name their hand, settled hands' pots are empty, hands replay to
their transfers, and hand records are intact. Memory does not grow with the number of hands
(docs/architecture.md, "The ledger audit").
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Container, Iterator
from dataclasses import dataclass, field
from itertools import islice
from typing import Any, Literal

from django.db import DataError, OperationalError, connection, transaction
from django.db.models import Exists, F, OuterRef, Q, QuerySet

from brag_event.core import sql
from brag_event.engine import EngineError
from brag_event.engine import chain as engine_chain
from brag_event.events.models import Day, Event
from brag_event.hands.chain import chains, day_chains
from brag_event.hands.models import ActionVoid, Hand, HandAction
from brag_event.hands.money import LogRow, Movement, Place, log_action, replay_actions
from brag_event.players.models import Player
from brag_event.tables.models import Seat, Table

from .models import Account, AuditedHand, Transfer

# Problems kept per check (the report prints 50 in all); the rest are counted.
KEEP = 100
# Rows fetched per round trip by the streaming cursors.
CHUNK = 2000
# Hand ids per statement when the periodic check replays the changed hands only (SQLite takes
# 999 parameters a statement at the least).
ID_BATCH = 900
# Above this many changed hands the periodic check reads the whole event's streams instead.
MANY_CHANGED = 20 * ID_BATCH


@dataclass
class Check:
    name: str
    ok: bool
    detail: str


@dataclass
class AuditReport:
    scope: str
    checks: list[Check] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    # Fingerprints (``FINGERPRINT``) of the settled hands that replayed cleanly in this run, by
    # hand id: filled in when only changed hands are replayed (``replay="changed"``).
    replayed_clean: dict[int, tuple[int, ...]] = field(default_factory=dict)
    # Each day's root and number of hands, recomputed from the hands' records (every hand of
    # the scope, when its records were all checked).
    roots: dict[int, tuple[str, int]] = field(default_factory=dict)
    # Each day's records that belong to no hand (its own chain), by day id.
    day_entries: dict[int, int] = field(default_factory=dict)
    # The hands whose records were checked when only changed hands are (None: all of them).
    checked_ids: list[int] | None = None

    @property
    def ok(self) -> bool:
        return all(c.ok for c in self.checks)

    def add(self, name: str, problems: list[str], detail: str) -> None:
        self.checks.append(Check(name, not problems, detail))
        self.problems.extend(f"{name}: {p}" for p in problems)

    def lines(self) -> list[str]:
        out = [f"Ledger audit of {self.scope}"]
        for c in self.checks:
            out.append(f"  [{'ok' if c.ok else 'FAIL'}] {c.name}: {c.detail}")
        out.extend(f"  ! {p}" for p in self.problems[:50])
        if len(self.problems) > 50:
            out.append(f"  ! … and {len(self.problems) - 50} more")
        out.append("PASS" if self.ok else "FAIL")
        return out


@dataclass(frozen=True)
class Scope:
    """What an audit covers: an event, or one day of it (its tables, seats and hands)."""

    event: Event
    day: Day | None = None

    def __str__(self) -> str:
        return f"{self.event}" + (f", day {self.day.number}" if self.day else "")

    def transfers(self) -> QuerySet[Transfer]:
        return Transfer.objects.filter(event=self.event)

    def hands(self) -> QuerySet[Hand]:
        hands = Hand.objects.filter(table__day__event=self.event)
        return hands.filter(table__day=self.day) if self.day is not None else hands


def _kept(problems: Iterator[str] | list[str], total: int) -> list[str]:
    out = list(islice(problems, KEEP))
    if total > len(out):
        out.append(f"… and {total - len(out)} more")
    return out


# ------------------------------------------------------------------------ set-based facts

# Tables, from the models' _meta (hand-written SQL below: identifiers only; values are always
# parameters).
_T = sql.table(Transfer)
_A = sql.table(Account)
_H = sql.table(Hand)
_TB = sql.table(Table)
_DAY = sql.table(Day)
_SEAT = sql.table(Seat)
_PLAYER = sql.table(Player)

# Each account's balance (what came in minus what went out) over the event's transfers: one pass
# over the transfers, grouped by account.
_BALANCES = (
    "SELECT m.account_id, SUM(m.delta) AS balance FROM ("  # nosec B608
    f" SELECT target_id AS account_id, amount AS delta FROM {_T} WHERE event_id = %s"
    " UNION ALL"
    f" SELECT source_id AS account_id, -amount AS delta FROM {_T} WHERE event_id = %s"
    ") m GROUP BY m.account_id"
)


def _rows(statement: str, params: list[Any]) -> list[tuple[Any, ...]]:
    with connection.cursor() as cur:
        cur.execute(statement, params)
        return list(cur.fetchall())


@dataclass
class TransferFacts:
    """What the checks need of the transfers one by one, from one pass over them."""

    count: int
    # (id, kind, amount, why): not positive, not two accounts, or an account of another event
    unbalanced: list[tuple[int, str, int, str]]
    off_hand: list[tuple[int, str, int, int | None]]  # (id, kind, amount, hand): a pot, wrong hand


def transfer_facts(scope: Scope) -> TransferFacts:
    """The event's transfers that break a rule of a transfer (one statement, joined with both
    accounts): a non-positive amount, one account on both sides, an account of another event, or
    a pot's money booked on another hand or on none."""
    event = scope.event.pk
    off_hand = (
        "(sa.kind = 'pot' AND (tr.hand_id IS NULL OR sa.hand_id <> tr.hand_id)) "
        "OR (ta.kind = 'pot' AND (tr.hand_id IS NULL OR ta.hand_id <> tr.hand_id))"
    )
    foreign = "sa.event_id <> %s OR ta.event_id <> %s"
    unbalanced = f"tr.amount <= 0 OR tr.source_id = tr.target_id OR {foreign}"
    rows = _rows(
        f"SELECT tr.id, tr.kind, tr.amount, tr.hand_id, ({unbalanced}), ({foreign}), "  # nosec B608
        f"({off_hand}) "
        f"FROM {_T} tr JOIN {_A} sa ON sa.id = tr.source_id JOIN {_A} ta ON ta.id = tr.target_id "
        f"WHERE tr.event_id = %s AND ({unbalanced} OR {off_hand}) ORDER BY tr.id",
        [event] * 7,
    )
    ((count,),) = _rows(f"SELECT COUNT(*) FROM {_T} WHERE event_id = %s", [event])  # nosec B608
    return TransferFacts(
        int(count),
        [
            (pk, kind, amount, "an account of another event" if alien else "")
            for pk, kind, amount, _hand, bad, alien, _off in rows
            if bad
        ],
        [(pk, kind, amount, hand) for pk, kind, amount, hand, _bad, _alien, off in rows if off],
    )


@dataclass
class BalanceFacts:
    """What the checks need of every account's balance, from one pass over the transfers."""

    by_kind: dict[str, int]  # the balances summed by kind of account
    negative: list[tuple[int, int]]  # (account, balance) of the accounts below zero, bar the issuer
    holding: list[tuple[int, int, int]]  # (account, hand, balance) of settled hands' pots not empty
    # (cache, id, cached, ledger) of the cached balances that differ from the ledger: cache is
    # "player" (Player.balance), "seat" (Seat.stack) or "table" (Table.carried_pot).
    caches: list[tuple[str, int, int, int]]
    # The database could not add the amounts up: PostgreSQL sums 64-bit integers into numeric,
    # but SQLite's SUM raises on overflow — only data written behind the services' money bound
    # (MONEY_MAX) gets there. The audit then fails with that said, never crashes.
    overflow: bool = False


_OVERFLOW = (
    "the ledger's sums overflow 64-bit integers: amounts beyond the money bound are stored, "
    "written behind the services"
)


def balance_facts(scope: Scope) -> BalanceFacts:
    """Every account's balance, grouped in the database (one statement): summed by kind, and
    the accounts and caches that break a rule. Nothing per account comes back unless it is
    wrong."""
    day = "AND t.day_id = %s " if scope.day is not None else ""
    day_param = [scope.day.pk] if scope.day is not None else []
    players = (
        "UNION ALL SELECT 'player', '', p.id, p.balance, COALESCE(b.balance, 0) "  # nosec B608
        f"FROM {_PLAYER} p LEFT JOIN {_A} a ON a.kind = 'player' AND a.player_id = p.id "
        "LEFT JOIN b ON b.account_id = a.id "
        "WHERE p.event_id = %s AND p.balance <> COALESCE(b.balance, 0) "
    )
    seats_and_tables = (
        "UNION ALL SELECT 'seat', '', s.id, s.stack, COALESCE(b.balance, 0) "  # nosec B608
        f"FROM {_SEAT} s JOIN {_TB} t ON t.id = s.table_id JOIN {_DAY} d ON d.id = t.day_id "
        f"LEFT JOIN {_A} a ON a.kind = 'stack' AND a.seat_id = s.id "
        "LEFT JOIN b ON b.account_id = a.id "
        f"WHERE d.event_id = %s AND s.stack <> COALESCE(b.balance, 0) {day}"
        "UNION ALL SELECT 'table', '', t.id, t.carried_pot, COALESCE(b.balance, 0) "
        f"FROM {_TB} t JOIN {_DAY} d ON d.id = t.day_id "
        f"LEFT JOIN {_A} a ON a.kind = 'carried' AND a.table_id = t.id "
        "LEFT JOIN b ON b.account_id = a.id "
        f"WHERE d.event_id = %s AND t.carried_pot <> COALESCE(b.balance, 0) {day}"
    )
    try:
        with transaction.atomic():
            rows = _balance_rows(scope, players, seats_and_tables, day, day_param)
    except (OperationalError, DataError):
        return BalanceFacts({}, [], [], [], overflow=True)
    facts = BalanceFacts({}, [], [], [])
    for what, kind, ref, other, value in sorted(rows, key=lambda r: (r[0], r[2] or 0)):
        if what == "kind":
            facts.by_kind[kind] = int(value)
        elif what == "negative":
            facts.negative.append((ref, int(value)))
        elif what == "holding":
            facts.holding.append((ref, other, int(value)))
        else:
            facts.caches.append((what, ref, int(other), int(value)))
    return facts


def _balance_rows(
    scope: Scope, players: str, seats_and_tables: str, day: str, day_param: list[int]
) -> list[tuple[Any, ...]]:
    event = scope.event.pk
    return _rows(
        f"WITH b AS ({_BALANCES}) "  # nosec B608
        "SELECT 'kind', a.kind, CAST(NULL AS BIGINT), CAST(NULL AS BIGINT), SUM(b.balance) "
        f"FROM b JOIN {_A} a ON a.id = b.account_id GROUP BY a.kind "
        "UNION ALL SELECT 'negative', a.kind, a.id, NULL, b.balance "
        f"FROM b JOIN {_A} a ON a.id = b.account_id WHERE b.balance < 0 AND a.kind <> 'issuer' "
        "UNION ALL SELECT 'holding', a.kind, a.id, h.id, b.balance "
        f"FROM b JOIN {_A} a ON a.id = b.account_id JOIN {_H} h ON h.id = a.hand_id "
        f"JOIN {_TB} t ON t.id = h.table_id "
        f"WHERE a.kind = 'pot' AND h.status = %s AND b.balance <> 0 {day}"
        + (players if scope.day is None else "")
        + seats_and_tables,
        [
            event,
            event,
            Hand.Status.SETTLED,
            *day_param,
            *([event] if scope.day is None else []),
            event,
            *day_param,
            event,
            *day_param,
        ],
    )


# ----------------------------------------------------------------------------------- checks

Found = tuple[list[str], str]  # a check's problems, and the line that says what it covered


def check_transfers_balance(scope: Scope, facts: TransferFacts) -> Found:
    problems = [
        f"transfer {pk} ({kind}, {amount})" + (f" moves money of {why}" if why else "")
        for pk, kind, amount, why in facts.unbalanced[:20]
    ]
    unmirrored = scope.transfers().filter(
        Q(kind=Transfer.Kind.REVERSAL)
        & (
            Q(reverses__isnull=True)
            | ~Q(reverses__source_id=F("target_id"))
            | ~Q(reverses__target_id=F("source_id"))
            | ~Q(reverses__amount=F("amount"))
        )
    )
    pks = list(unmirrored.order_by("pk").values_list("pk", flat=True))
    problems += _kept((f"reversal {pk} does not mirror what it reverses" for pk in pks), len(pks))
    return problems, f"{facts.count} transfers, each between two accounts"


def check_conservation(scope: Scope, facts: BalanceFacts) -> Found:
    if facts.overflow:
        return [_OVERFLOW], "nothing could be added up"
    by_kind = facts.by_kind
    issued = -by_kind.get(Account.Kind.ISSUER, 0)
    held = sum(v for k, v in by_kind.items() if k != Account.Kind.ISSUER)
    problems = [] if held == issued else [f"held {held} but issued {issued}"]
    problems += _kept(
        (f"{Account.objects.get(pk=pk)} is negative ({balance})" for pk, balance in facts.negative),
        len(facts.negative),
    )
    parts = ", ".join(
        f"{k} {by_kind.get(k, 0)}" for k in ("player", "stack", "pot", "carried", "house")
    )
    return problems, f"issued {issued} = {parts}"


_CACHES: dict[str, tuple[Callable[[int], Any], str]] = {
    "player": (lambda pk: Player.objects.get(pk=pk), "balance"),
    "seat": (lambda pk: Seat.objects.select_related("player", "table").get(pk=pk), "stack"),
    "table": (lambda pk: Table.objects.select_related("day").get(pk=pk), "carried pot"),
}


def check_cached_balances(scope: Scope, facts: BalanceFacts) -> Found:
    if facts.overflow:
        return [f"cached balances could not be compared: {_OVERFLOW}"], "nothing compared"
    problems = _kept(
        (
            f"{_CACHES[cache][0](pk)} {_CACHES[cache][1]} cached {cached}, ledger {ledger}"
            for cache, pk, cached, ledger in facts.caches
        ),
        len(facts.caches),
    )
    seats = Seat.objects.filter(table__day__event=scope.event)
    tables = Table.objects.filter(day__event=scope.event)
    checked = 0
    if scope.day is None:
        checked += Player.objects.filter(event=scope.event).count()
    else:
        seats, tables = seats.filter(table__day=scope.day), tables.filter(day=scope.day)
    checked += seats.count() + tables.count()
    return problems, f"{checked} balances, stacks and carried pots"


def check_pot_transfers_name_their_hand(scope: Scope, facts: TransferFacts) -> Found:
    problems = _kept(
        (
            f"transfer {pk} ({kind}, {amount}) moves a pot's money but names "
            + (f"hand {hand}" if hand else "no hand")
            for pk, kind, amount, hand in facts.off_hand
        ),
        len(facts.off_hand),
    )
    pots = Account.objects.filter(event=scope.event, kind=Account.Kind.POT).count()
    return problems, f"{pots} pots"


def check_settled_pots_empty(scope: Scope, facts: BalanceFacts) -> Found:
    problems = _kept(
        (
            f"{Hand.objects.get(pk=hand_id)}: {Account.objects.get(pk=pk)} still holds {balance}"
            for pk, hand_id, balance in facts.holding
        ),
        len(facts.holding),
    )
    settled = scope.hands().filter(status=Hand.Status.SETTLED).count()
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
    return problems


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

# A hand's fingerprint: the AuditedHand columns, in this order.
FINGERPRINT = ("next_seq", "actions", "last_action", "transfers", "last_transfer")
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
            batches = [scope.hands()]
    else:
        changed, unchanged = {}, 0
        batches = [scope.hands()]
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
    detail = f"{replayed} hands replayed"
    if changed_only:
        detail += f" ({unchanged} settled hands unchanged since they last replayed cleanly)"
    return problems, detail


# ------------------------------------------------------------------------ the hands' records


def check_hand_records(scope: Scope, report: AuditReport) -> Found:
    """Recompute the hash chain of every hand (or, in the periodic check, of the hands it
    replays: in play, new or changed), each day's own chain (its records that belong to no
    hand: always, they are few) and, over all of them, each closed day's root."""
    ids = report.checked_ids
    if ids is None:
        batches = [scope.hands()]
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
    detail = f"{checked} hands' records recomputed, {own_records} day-level records"
    if ids is None:
        published = 0
        for day_id, number, stored in days.values_list("id", "number", "record_root"):
            root = engine_chain.record_root(heads.get(day_id, []), day_heads.get(day_id))
            report.roots[day_id] = (root, len(heads.get(day_id, [])))
            if stored:
                published += 1
                if stored != root:
                    problems.append(
                        f"day {number}: its records give the root {root}, not the root "
                        f"{stored} published at its close"
                    )
        detail += f"; {published} closed days' published roots"
    return problems, detail


# ------------------------------------------------------------------------------- the audit

Replay = Literal["all", "changed"]


def ledger_audit(*, event: Event, day: Day | None = None, replay: Replay = "all") -> AuditReport:
    """Run every check over ``event`` (or one ``day`` of it). ``replay="changed"`` replays only
    the hands that are in play, new or changed since they last replayed cleanly
    (``AuditedHand``); the report's ``replayed_clean`` then holds the fingerprints to record."""
    scope = Scope(event, day)
    report = AuditReport(str(scope))
    transfers, balances = transfer_facts(scope), balance_facts(scope)
    report.add("transfers balance", *check_transfers_balance(scope, transfers))
    report.add("money is conserved", *check_conservation(scope, balances))
    report.add("cached balances match", *check_cached_balances(scope, balances))
    report.add(
        "pot transfers name their hand", *check_pot_transfers_name_their_hand(scope, transfers)
    )
    report.add("settled hands' pots are empty", *check_settled_pots_empty(scope, balances))
    report.add(
        "hands replay to their transfers",
        *check_hand_replays(scope, report, changed_only=replay == "changed"),
    )
    report.add("hand records are intact", *check_hand_records(scope, report))
    return report
