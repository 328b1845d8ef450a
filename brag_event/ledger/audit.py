"""The ledger audit: proves, for an event or one day, that no unit of money was lost or made up.

Each named check is one function: transfers balance, money is conserved, cached
balances match, pot transfers name their hand, settled hands' pots are empty, hands replay to
their transfers, and hand records are intact. Memory does not grow with the number of hands
(docs/architecture.md, "The ledger audit").
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from itertools import islice
from typing import Any, Literal

from django.db import DataError, OperationalError, connection, transaction
from django.db.models import F, Q, QuerySet

from brag_event.core import sql
from brag_event.core.words import counted
from brag_event.engine import chain
from brag_event.events.models import Day, Event
from brag_event.players.models import Player
from brag_event.tables.models import Seat, Table

from .models import Account, Transfer
from .record import recompute

# A hand's fingerprint (the ``AuditedHand`` columns, in this order): the periodic check replays
# only the hands whose fingerprint changed since they last replayed cleanly.
FINGERPRINT = ("next_seq", "actions", "last_action", "transfers", "last_transfer")

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
    # The event's money record recomputed (ledger.record): its seq and hash now, and each
    # entry's hash by seq (a closed day's root took the one at its close).
    money: chain.MoneyHead | None = None
    money_hashes: dict[int, str] = field(default_factory=dict)

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
    pots: list[tuple[int, int, int]]  # (account, hand id, balance) of every pot that is not empty
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
        elif what == "pot":
            facts.pots.append((ref, other, int(value)))
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
        "UNION ALL SELECT 'pot', a.kind, a.id, a.hand_id, b.balance "
        f"FROM b JOIN {_A} a ON a.id = b.account_id WHERE a.kind = 'pot' AND b.balance <> 0 "
        + (players if scope.day is None else "")
        + seats_and_tables,
        [
            event,
            event,
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
    # Balances + stacks + pots + carried pots + house + the count's differences (the chips an
    # end-of-day count set aside: closing.count) = everything issued.
    parts = ", ".join(
        f"{k} {by_kind.get(k, 0)}" for k in ("player", "stack", "pot", "carried", "house", "count")
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


def check_money_record(scope: Scope, facts: BalanceFacts, report: AuditReport) -> Found:
    """The event's money record (``ledger.record``) recomputed: every transfer outside a hand,
    every seat taken or left and every row another app puts on it (``register_record_source``)
    is on it once, as stored; and the money issued is the money issued on it."""
    found = recompute(scope.event)
    report.money, report.money_hashes = found.head, found.hashes
    problems = _kept(iter(found.problems), len(found.problems))
    issued = -facts.by_kind.get(Account.Kind.ISSUER, 0)
    if not facts.overflow and issued != found.issued_on_record:
        problems.append(
            f"the ledger has {issued} issued, the record {found.issued_on_record}: money was "
            "issued or taken back behind the services"
        )
    kinds = ", ".join(f"{kind} {n}" for kind, n in sorted(found.kinds.items()))
    return problems, counted(found.entries, "entry", "entries") + (f" ({kinds})" if kinds else "")


# ------------------------------------------------------------------------------- the audit

Replay = Literal["all", "changed"]


@dataclass(frozen=True)
class AuditRun:
    """What a registered check is given: the scope, the report so far (a check may leave what
    a later one needs on it), the balances' facts and how much to replay."""

    scope: Scope
    report: AuditReport
    balances: BalanceFacts
    replay: Replay


RegisteredCheck = Callable[[AuditRun], Found]
_REGISTERED: list[tuple[str, RegisteredCheck]] = []


def register_check(name: str, check: RegisteredCheck) -> None:
    """Add another app's check of the event's money to every audit, after the ledger's own, in
    the order of registration (``hands.audit`` registers the hands' checks when the app is
    ready: the ledger knows nothing of hands). Registering a name again does nothing."""
    if all(known != name for known, _ in _REGISTERED):
        _REGISTERED.append((name, check))


def ledger_audit(*, event: Event, day: Day | None = None, replay: Replay = "all") -> AuditReport:
    """Run every check over ``event`` (or one ``day`` of it). ``replay="changed"`` replays only
    the hands that are in play, new or changed since they last replayed cleanly
    (``AuditedHand``); the report's ``replayed_clean`` then holds the fingerprints to record.
    The registered checks (``register_check``) run after the ledger's own."""
    scope = Scope(event, day)
    report = AuditReport(str(scope))
    transfers, balances = transfer_facts(scope), balance_facts(scope)
    report.add("transfers balance", *check_transfers_balance(scope, transfers))
    report.add("money is conserved", *check_conservation(scope, balances))
    report.add("cached balances match", *check_cached_balances(scope, balances))
    report.add(
        "pot transfers name their hand", *check_pot_transfers_name_their_hand(scope, transfers)
    )
    report.add("money record is intact", *check_money_record(scope, balances, report))
    run = AuditRun(scope, report, balances, replay)
    for name, check in _REGISTERED:
        report.add(name, *check(run))
    return report
