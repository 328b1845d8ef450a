"""The ledger audit: proves, for an event or one day, that no unit of money was lost or made up.

Named checks, each one function:

1. ``transfers balance`` — every transfer is a positive amount between two different accounts of
   the same event, and every reversal mirrors what it reverses;
2. ``money is conserved`` — player balances + table stacks + pots (open and carried) + house =
   everything issued, and no account but the issuer is negative;
3. ``cached balances match`` — every cached balance (player balance, seat stack, table carried
   pot) equals the ledger;
4. ``pot transfers name their hand`` — money in or out of a hand's pot is posted on that hand;
5. ``settled hands' pots are empty``;
6. ``hands replay to their transfers`` — every hand's replay through the engine moves exactly the
   money its (unreversed) transfers moved, and its status is the replay's.

Checks 1–5 are set-based: each is one or two SQL statements that return only the offenders, so
their cost is the database's and nothing grows in Python with the size of the event. Check 6
streams: the hands, their live actions and their transfers come from three cursors read in
chunks, in the same order, and are merged hand by hand — one hand in memory at a time. So memory
does not grow with the number of hands, and there is no query per hand.

The periodic check (``ledger.checks``) passes ``replay="changed"`` with the fingerprints of the
hands it replayed before: a settled hand whose fingerprint (status, log sequence, actions and
transfers) has not changed since it last replayed cleanly is not replayed again. Checks 1–5 and
every other hand are checked every time; the day close and ``manage.py audit_ledger`` replay
everything.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from itertools import islice
from typing import Any, Literal

from django.db import connection
from django.db.models import (
    Count,
    Exists,
    F,
    IntegerField,
    Max,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Sum,
)
from django.db.models.functions import Coalesce

from brag_event.core import sql
from brag_event.engine import EngineError
from brag_event.events.models import Day, Event
from brag_event.hands.models import Hand, HandAction
from brag_event.hands.money import LogRow, Movement, Place, log_action, replay_actions
from brag_event.players.models import Player
from brag_event.tables.models import Seat, Table

from .models import Account, AuditedHand, Transfer

# Problems kept per check (the report prints 50 in all); the rest are counted.
KEEP = 100
# Rows fetched per round trip by the streaming cursors.
CHUNK = 2000


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
    # Fingerprints of the settled hands that replayed cleanly in this run (hand id → fingerprint),
    # filled in when the audit was asked for them (``replay="changed"``).
    replayed_clean: dict[int, tuple[int, ...]] = field(default_factory=dict)

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


# --------------------------------------------------------------------------------- balances

# Each account's balance (what came in minus what went out) over the event's transfers, as SQL:
# one pass over the transfers, grouped by account. Identifiers come from the models' _meta.
_T = sql.table(Transfer)
_A = sql.table(Account)
_H = sql.table(Hand)
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


# ----------------------------------------------------------------------------------- checks


def check_transfers_balance(scope: Scope) -> tuple[list[str], str]:
    transfers = scope.transfers()
    event = scope.event
    bad = transfers.filter(
        Q(amount__lte=0) | Q(source=F("target")) | ~Q(source__event=event) | ~Q(target__event=event)
    )
    problems = [f"transfer {t.pk} ({t.kind}, {t.amount})" for t in bad.order_by("pk")[:20]]
    reversals = transfers.filter(kind=Transfer.Kind.REVERSAL)
    unmirrored = reversals.filter(
        Q(reverses__isnull=True)
        | ~Q(reverses__source_id=F("target_id"))
        | ~Q(reverses__target_id=F("source_id"))
        | ~Q(reverses__amount=F("amount"))
    )
    n_unmirrored = unmirrored.count()
    problems += _kept(
        (
            f"reversal {pk} does not mirror what it reverses"
            for pk in unmirrored.order_by("pk").values_list("pk", flat=True)[:KEEP]
        ),
        n_unmirrored,
    )
    return problems, f"{transfers.count()} transfers, each between two accounts"


def check_conservation(scope: Scope) -> tuple[list[str], str]:
    by_kind = dict(
        _rows(
            f"SELECT a.kind, SUM(b.balance) FROM ({_BALANCES}) b "  # nosec B608
            f"JOIN {_A} a ON a.id = b.account_id GROUP BY a.kind",
            [scope.event.pk, scope.event.pk],
        )
    )
    issued = -int(by_kind.get(Account.Kind.ISSUER, 0))
    held = sum(int(v) for k, v in by_kind.items() if k != Account.Kind.ISSUER)
    problems = [] if held == issued else [f"held {held} but issued {issued}"]
    negative = _rows(
        f"SELECT b.account_id, b.balance FROM ({_BALANCES}) b "  # nosec B608
        f"JOIN {_A} a ON a.id = b.account_id "
        "WHERE b.balance < 0 AND a.kind <> %s ORDER BY b.account_id",
        [scope.event.pk, scope.event.pk, Account.Kind.ISSUER],
    )
    problems += _kept(
        (f"{Account.objects.get(pk=pk)} is negative ({balance})" for pk, balance in negative),
        len(negative),
    )
    parts = ", ".join(
        f"{k} {int(by_kind.get(k, 0))}" for k in ("player", "stack", "pot", "carried", "house")
    )
    return problems, f"issued {issued} = {parts}"


def _ledger_balance(kind: str, ref: str) -> Any:
    """The ledger balance of the ``kind`` account whose ``ref`` is the outer row, as an
    expression (a correlated sum of what came in minus what went out)."""

    def total(side: str) -> Any:
        rows = Transfer.objects.filter(**{f"{side}__kind": kind, f"{side}__{ref}": OuterRef("pk")})
        summed = rows.values(f"{side}__{ref}").annotate(s=Sum("amount")).values("s")
        return Coalesce(Subquery(summed, output_field=IntegerField()), 0)

    return total("target") - total("source")


def check_cached_balances(scope: Scope) -> tuple[list[str], str]:
    problems: list[str] = []
    checked = 0
    caches: list[tuple[QuerySet[Any], str, str, str, Callable[[Any], str]]] = []
    if scope.day is None:
        caches.append(
            (
                Player.objects.filter(event=scope.event),
                Account.Kind.PLAYER,
                "player",
                "balance",
                lambda p: f"{p} balance cached {p.balance}, ledger {p.ledger}",
            )
        )
    seats = Seat.objects.filter(table__day__event=scope.event).select_related("player", "table")
    tables = Table.objects.filter(day__event=scope.event).select_related("day")
    if scope.day is not None:
        seats, tables = seats.filter(table__day=scope.day), tables.filter(day=scope.day)
    caches.append(
        (
            seats,
            Account.Kind.STACK,
            "seat",
            "stack",
            lambda s: f"{s} stack cached {s.stack}, ledger {s.ledger}",
        )
    )
    caches.append(
        (
            tables,
            Account.Kind.CARRIED,
            "table",
            "carried_pot",
            lambda t: f"{t} carried pot cached {t.carried_pot}, ledger {t.ledger}",
        )
    )
    for rows, kind, ref, column, say in caches:
        checked += rows.count()
        wrong = rows.annotate(ledger=_ledger_balance(kind, ref)).exclude(**{column: F("ledger")})
        problems += _kept((say(r) for r in wrong.order_by("pk")[:KEEP]), wrong.count())
    return problems, f"{checked} balances, stacks and carried pots"


def check_pot_transfers_name_their_hand(scope: Scope) -> tuple[list[str], str]:
    foreign = scope.transfers().filter(
        (Q(source__kind=Account.Kind.POT) & ~Q(source__hand_id=F("hand_id")))
        | (Q(target__kind=Account.Kind.POT) & ~Q(target__hand_id=F("hand_id")))
        | (Q(source__kind=Account.Kind.POT) & Q(hand__isnull=True))
        | (Q(target__kind=Account.Kind.POT) & Q(hand__isnull=True))
    )
    n = foreign.count()
    problems = _kept(
        (
            f"transfer {t.pk} ({t.kind}, {t.amount}) moves a pot's money but names "
            + (f"hand {t.hand_id}" if t.hand_id else "no hand")
            for t in foreign.order_by("pk")[:KEEP]
        ),
        n,
    )
    pots = Account.objects.filter(event=scope.event, kind=Account.Kind.POT).count()
    return problems, f"{pots} pots"


def check_settled_pots_empty(scope: Scope) -> tuple[list[str], str]:
    day = "AND t.day_id = %s " if scope.day is not None else ""

    holding = _rows(
        f"SELECT a.id, h.id, b.balance FROM ({_BALANCES}) b "  # nosec B608
        f"JOIN {_A} a ON a.id = b.account_id "
        f"JOIN {_H} h ON h.id = a.hand_id "
        f"JOIN {sql.table(Table)} t ON t.id = h.table_id "
        f"WHERE a.kind = %s AND h.status = %s AND b.balance <> 0 {day}"
        "ORDER BY a.id",
        [
            scope.event.pk,
            scope.event.pk,
            Account.Kind.POT,
            Hand.Status.SETTLED,
            *([scope.day.pk] if scope.day is not None else []),
        ],
    )
    problems = _kept(
        (
            f"{Hand.objects.get(pk=hand_id)}: {Account.objects.get(pk=pk)} still holds {balance}"
            for pk, hand_id, balance in holding
        ),
        len(holding),
    )
    settled = scope.hands().filter(status=Hand.Status.SETTLED).count()
    return problems, f"{settled} settled hands"


# --------------------------------------------------------------------------- the hand replay


@dataclass(frozen=True)
class HandRow:
    """What the replay needs of a stored hand (the attributes ``hands.money.state_start``
    reads), plus its fingerprint when the audit is incremental."""

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
    fingerprint: tuple[int, ...] = ()

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


# A hand's fingerprint: the AuditedHand columns and the annotations of the same values.
FINGERPRINT = ("next_seq", "actions", "last_action", "transfers", "last_transfer")


def hand_fingerprints(hands: QuerySet[Hand]) -> QuerySet[Hand]:
    """``hands`` annotated with their fingerprint (``fp_<column>``): the log sequence (it moves
    on every action and every void), and the count and last id of their actions and of their
    transfers (both append-only). A hand whose fingerprint is unchanged replays to the same
    money; a new action, void or transfer changes it."""

    def agg(model: type[Any], fn: type[Any]) -> Any:
        rows = model.objects.filter(hand=OuterRef("pk")).values("hand").annotate(v=fn("id"))
        return Coalesce(Subquery(rows.values("v"), output_field=IntegerField()), 0)

    return hands.annotate(
        fp_next_seq=F("next_seq"),
        fp_actions=agg(HandAction, Count),
        fp_last_action=agg(HandAction, Max),
        fp_transfers=agg(Transfer, Count),
        fp_last_transfer=agg(Transfer, Max),
    )


def _stream(rows: QuerySet[Any]) -> Iterator[Any]:
    """Rows from a server-side cursor on PostgreSQL (chunks of ``CHUNK``): never all at once."""
    return rows.iterator(chunk_size=CHUNK)


def hand_rows(hands: QuerySet[Hand], *, fingerprints: bool = False) -> Iterator[HandRow]:
    """The hands, as ``HandRow``, by id."""
    fields: tuple[str, ...] = _HAND_FIELDS
    if fingerprints:
        hands = hand_fingerprints(hands)
        fields += tuple(f"fp_{c}" for c in FINGERPRINT)
    n = len(_HAND_FIELDS)
    for row in _stream(hands.order_by("id").values_list(*fields)):
        yield HandRow(*row[:n], fingerprint=tuple(row[n:]))


def live_action_rows(hands: QuerySet[Hand]) -> Iterator[tuple[int, LogRow]]:
    """(hand id, log row) of every live (not voided) action of ``hands``, by hand then seq."""
    rows = (
        HandAction.objects.filter(hand__in=hands.values("id"), void__isnull=True)
        .order_by("hand_id", "seq")
        .values_list("hand_id", "seq", "seat", "action", "amount", "hand_choice", "cards")
    )
    for hand_id, *row in _stream(rows):
        yield hand_id, (row[0], row[1], row[2], row[3], row[4], row[5])


# A transfer's account, as the columns the replay compares: kind, seat number, seat's table,
# pot index, pot's hand, carried pot's table.
_PLACE = ("kind", "seat__number", "seat__table_id", "pot_index", "hand_id", "table_id")


def _place(hand: HandRow, columns: tuple[Any, ...]) -> Place:
    """An account as a replay's place, when it is this hand's; otherwise marked as another's,
    so that it can never match a movement of this hand."""
    kind, seat, seat_table, pot, pot_hand, table = columns
    if kind == Account.Kind.STACK:
        return ("stack", seat) if seat_table == hand.table_id else ("stack of table", seat_table)
    if kind == Account.Kind.POT:
        return ("pot", pot) if pot_hand == hand.id else ("pot of hand", pot_hand, pot)
    if kind == Account.Kind.CARRIED:
        return ("carried",) if table == hand.table_id else ("carried of table", table)
    return (kind,)


def hand_transfer_rows(hands: QuerySet[Hand]) -> Iterator[tuple[Any, ...]]:
    """Every transfer of ``hands`` that is neither a reversal nor reversed (what the hand's money
    is now), by hand: (hand id, kind, amount, source's place columns…, target's …)."""
    rows = (
        Transfer.objects.filter(hand__in=hands.values("id"), reversed_by__isnull=True)
        .exclude(kind=Transfer.Kind.REVERSAL)
        .order_by("hand_id", "id")
        .values_list(
            "hand_id",
            "kind",
            "amount",
            *(f"source__{c}" for c in _PLACE),
            *(f"target__{c}" for c in _PLACE),
        )
    )
    return _stream(rows)


class _Merge:
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
    problems = []
    expected: Counter[Movement] = Counter(moves)
    actual: Counter[Movement] = Counter(
        (row[1], _place(hand, row[3:9]), _place(hand, row[9:15]), row[2]) for row in transfers
    )
    if expected != actual:
        missing = expected - actual
        extra = actual - expected
        problems.append(
            f"{hand}: ledger differs from replay (missing {dict(missing)}, extra {dict(extra)})"
        )
    settled = state.outcome is not None
    if settled != (hand.status == Hand.Status.SETTLED):
        problems.append(f"{hand}: status {hand.status} but replay settled={settled}")
    return problems


def check_hand_replays(
    scope: Scope, report: AuditReport, *, changed_only: bool = False
) -> tuple[list[str], str]:
    hands = scope.hands()
    skipped = 0
    if changed_only:
        fingerprinted = hand_fingerprints(hands)
        unchanged = Exists(
            AuditedHand.objects.filter(
                hand=OuterRef("pk"), **{c: OuterRef(f"fp_{c}") for c in FINGERPRINT}
            )
        )
        skipped = fingerprinted.filter(status=Hand.Status.SETTLED).filter(unchanged).count()
        hands = hands.filter(
            pk__in=fingerprinted.exclude(Q(status=Hand.Status.SETTLED) & unchanged).values("pk")
        )
    actions = _Merge(live_action_rows(hands))
    transfers = _Merge(hand_transfer_rows(hands))
    problems: list[str] = []
    n_problems = replayed = 0
    for hand in hand_rows(hands, fingerprints=changed_only):
        replayed += 1
        log = [row for _id, row in actions.take(hand.id)]
        found = replay_hand(hand, log, transfers.take(hand.id))
        if found:
            n_problems += len(found)
            if len(problems) < KEEP:
                problems += found
        elif changed_only and hand.status == Hand.Status.SETTLED:
            report.replayed_clean[hand.id] = hand.fingerprint
    problems = _kept(iter(problems), n_problems)
    detail = f"{replayed} hands replayed"
    if changed_only:
        detail += f" ({skipped} settled hands unchanged since they last replayed cleanly)"
    return problems, detail


# ------------------------------------------------------------------------------- the audit

Replay = Literal["all", "changed"]


def ledger_audit(*, event: Event, day: Day | None = None, replay: Replay = "all") -> AuditReport:
    """Run every check over ``event`` (or one ``day`` of it). ``replay="changed"`` replays only
    the hands that are new or changed since they last replayed cleanly (``AuditedHand``); the
    report's ``replayed_clean`` then holds the fingerprints to record."""
    scope = Scope(event, day)
    report = AuditReport(str(scope))
    report.add("transfers balance", *check_transfers_balance(scope))
    report.add("money is conserved", *check_conservation(scope))
    report.add("cached balances match", *check_cached_balances(scope))
    report.add("pot transfers name their hand", *check_pot_transfers_name_their_hand(scope))
    report.add("settled hands' pots are empty", *check_settled_pots_empty(scope))
    report.add(
        "hands replay to their transfers",
        *check_hand_replays(scope, report, changed_only=replay == "changed"),
    )
    return report
