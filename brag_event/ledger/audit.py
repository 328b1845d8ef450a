"""The ledger audit: proves, for an event or one day, that no unit of money was lost or made up.

Checks:
1. every transfer balances: a positive amount between two different accounts of the same event,
   and every reversal mirrors what it reverses;
2. conservation: player balances + table stacks + pots (open and carried) + house = everything
   issued;
3. every cached balance (player balance, seat stack, table carried pot) equals the ledger;
4. every hand's replay matches its transfers, and a settled hand's pots are empty.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.db import DataError, OperationalError, transaction
from django.db.models import F, Q, Sum

from brag_event.engine import EngineError
from brag_event.events.models import Day, Event
from brag_event.hands.models import Hand
from brag_event.hands.money import Movement, replay_movements
from brag_event.players.models import Player
from brag_event.tables.models import Seat, Table

from .models import Account, Transfer


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


def _balances(event: Event) -> dict[int, int]:
    """Every account's balance from the ledger. The audit must never crash, whatever is stored:
    PostgreSQL sums 64-bit integers into ``numeric``, but SQLite's SUM raises on overflow (only
    data written behind the services' money bound can get there) — then the same sums are done
    in Python, whose integers do not overflow."""
    transfers = Transfer.objects.filter(event=event)
    out: dict[int, int] = defaultdict(int)
    try:
        with transaction.atomic():
            incoming = list(transfers.values("target").annotate(s=Sum("amount")))
            outgoing = list(transfers.values("source").annotate(s=Sum("amount")))
    except (OperationalError, DataError):
        for source, target, amount in transfers.values_list("source", "target", "amount"):
            out[target] += amount
            out[source] -= amount
        return out
    for row in incoming:
        out[row["target"]] += int(row["s"])
    for row in outgoing:
        out[row["source"]] -= int(row["s"])
    return out


def _place(account: Account, seat_numbers: dict[int, int]) -> tuple[Any, ...]:
    if account.kind == Account.Kind.STACK:
        return ("stack", seat_numbers.get(account.seat_id or 0, -1))
    if account.kind == Account.Kind.POT:
        return ("pot", account.pot_index)
    return (account.kind,)


def ledger_audit(*, event: Event, day: Day | None = None) -> AuditReport:
    scope = f"{event}" + (f", day {day.number}" if day else "")
    report = AuditReport(scope)
    transfers = Transfer.objects.filter(event=event)

    # 1. Every transfer balances.
    bad = transfers.filter(
        Q(amount__lte=0) | Q(source=F("target")) | ~Q(source__event=event) | ~Q(target__event=event)
    )
    problems = [f"transfer {t.pk} ({t.kind}, {t.amount})" for t in bad[:20]]
    mirrored = transfers.filter(kind=Transfer.Kind.REVERSAL).select_related("reverses")
    for r in mirrored:
        o = r.reverses
        if o is None or (o.source_id, o.target_id, o.amount) != (
            r.target_id,
            r.source_id,
            r.amount,
        ):
            problems.append(f"reversal {r.pk} does not mirror what it reverses")
    count = transfers.count()
    report.add("transfers balance", problems, f"{count} transfers, each between two accounts")

    # 2. Conservation.
    balances = _balances(event)
    accounts = {a.pk: a for a in Account.objects.filter(event=event)}
    by_kind: dict[str, int] = defaultdict(int)
    foreign = sorted(pk for pk in balances if pk not in accounts)
    for pk, balance in balances.items():
        if pk in accounts:
            by_kind[accounts[pk].kind] += balance
    issued = -by_kind.get(Account.Kind.ISSUER, 0)
    held = sum(v for k, v in by_kind.items() if k != Account.Kind.ISSUER)
    problems = [] if held == issued else [f"held {held} but issued {issued}"]
    problems += [f"account {pk} of another event moves this event's money" for pk in foreign]
    problems += [
        f"{accounts[pk]} is negative ({b})"
        for pk, b in balances.items()
        if b < 0 and pk in accounts and accounts[pk].kind != Account.Kind.ISSUER
    ]
    parts = ", ".join(
        f"{k} {by_kind.get(k, 0)}" for k in ("player", "stack", "pot", "carried", "house")
    )
    report.add("money is conserved", problems, f"issued {issued} = {parts}")

    # 3. Cached balances.
    problems = []
    players = Player.objects.filter(event=event)
    seats = Seat.objects.filter(table__day__event=event)
    tables = Table.objects.filter(day__event=event)
    if day is not None:
        seats = seats.filter(table__day=day)
        tables = tables.filter(day=day)
    account_of = {
        (
            a.kind,
            a.player_id if a.kind == "player" else a.seat_id if a.kind == "stack" else a.table_id,
        ): a.pk
        for a in accounts.values()
        if a.kind in ("player", "stack", "carried")
    }
    checked = 0
    if day is None:
        for p in players:
            checked += 1
            ledger = balances.get(account_of.get(("player", p.pk), 0), 0)
            if p.balance != ledger:
                problems.append(f"{p} balance cached {p.balance}, ledger {ledger}")
    for s in seats.select_related("player"):
        checked += 1
        ledger = balances.get(account_of.get(("stack", s.pk), 0), 0)
        if s.stack != ledger:
            problems.append(f"{s} stack cached {s.stack}, ledger {ledger}")
    for table in tables:
        checked += 1
        ledger = balances.get(account_of.get(("carried", table.pk), 0), 0)
        if table.carried_pot != ledger:
            problems.append(f"{table} carried pot cached {table.carried_pot}, ledger {ledger}")
    report.add("cached balances match", problems, f"{checked} balances, stacks and carried pots")

    # 4. Every hand's replay matches its transfers.
    problems = []
    hands = Hand.objects.filter(table__day__event=event).select_related("table")
    if day is not None:
        hands = hands.filter(table__day=day)
    seat_numbers = (
        dict(seats.values_list("pk", "number"))
        if day
        else dict(Seat.objects.filter(table__day__event=event).values_list("pk", "number"))
    )
    reversed_ids = set(
        transfers.filter(kind=Transfer.Kind.REVERSAL).values_list("reverses_id", flat=True)
    )
    by_hand: dict[int, list[Transfer]] = defaultdict(list)
    for t in transfers.filter(hand__in=hands).exclude(kind=Transfer.Kind.REVERSAL):
        if t.pk not in reversed_ids:
            by_hand[t.hand_id or 0].append(t)
    n_hands = 0
    for hand in hands:
        n_hands += 1
        actions = list(hand.actions.filter(void__isnull=True).order_by("seq"))
        try:
            state, moves = replay_movements(hand, actions)
        except EngineError as err:
            problems.append(f"{hand} does not replay: {err.code} {err.message}")
            continue
        except Exception as err:  # stored data no service writes: reported, never a crash
            problems.append(f"{hand} does not replay: {type(err).__name__} {err}")
            continue
        expected: Counter[Movement] = Counter(moves)
        actual: Counter[Movement] = Counter(
            (
                t.kind,
                _place(accounts[t.source_id], seat_numbers) if t.source_id in accounts else ("?",),
                _place(accounts[t.target_id], seat_numbers) if t.target_id in accounts else ("?",),
                t.amount,
            )
            for t in by_hand.get(hand.pk, [])
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
        if settled:
            for a in accounts.values():
                if a.kind == Account.Kind.POT and a.hand_id == hand.pk and balances.get(a.pk, 0):
                    problems.append(f"{hand}: {a} still holds {balances[a.pk]}")
    report.add("hands replay to their transfers", problems, f"{n_hands} hands replayed")
    return report
