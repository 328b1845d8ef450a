"""Rulings in the tamper-evident record (``hands.chain``; docs/integrity.md): each ruling is an
entry of kind ``"ruling"`` of the hand it is about — or, if it names no hand, of its table's
latest hand — with what happened, the decision, the players and the penalties it gave. A ruling
with no hand to go on (its table has none yet) or made while its day closes is the same entry
on its day's own chain.

A disqualification lifted (kind ``"lift"``) is an entry of the event's money record
(``ledger.record``; lifts made before it are on their day's own chain), and so are a large
pot's waiting and withdrawal (``floor.awards``); the confirmation is its hand's. The money
record's sources here yield every lifted penalty and every large pot of the event, chained or
not, and name a row whose state its entries do not give: a disqualification lifted, or a pot
confirmed or withdrawn, on no record."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator
from typing import Any

from django.db.models import Q, QuerySet

from brag_event.engine import chain as engine_chain
from brag_event.events import day_chain
from brag_event.events.models import Day, DayRulesChange, Event
from brag_event.events.record import RecordRow, RecordSource, at_text, entry
from brag_event.hands import chain
from brag_event.hands.models import Hand

from .awards import WAIT, WAIT_COLUMNS, WITHDRAW, wait_fields, withdraw_fields
from .models import AwardConfirmation, Penalty, Ruling

KIND = "ruling"
LIFT = "lift"

_COLUMNS = ("id", "what_happened", "decision", "table__number", "hand__number")


def _fields(rows: list[dict[str, Any]]) -> dict[int, dict[str, Any]]:
    ids = [r["id"] for r in rows]
    players: dict[int, list[int]] = defaultdict(list)
    through = Ruling.players.through.objects.filter(ruling_id__in=ids)
    for ruling_id, player_id in through.order_by("player_id").values_list("ruling_id", "player_id"):
        players[ruling_id].append(player_id)
    penalties: dict[int, list[list[Any]]] = defaultdict(list)
    given = Penalty.objects.filter(ruling_id__in=ids).order_by("player_id", "id")
    for ruling_id, player_id, kind, hands in given.values_list(
        "ruling_id", "player_id", "kind", "hands"
    ):
        penalties[ruling_id].append([player_id, kind, hands])
    return {
        r["id"]: {
            "table": r["table__number"],
            "hand": r["hand__number"],
            "what_happened": r["what_happened"],
            "decision": r["decision"],
            "players": players[r["id"]],
            "penalties": penalties[r["id"]],
        }
        for r in rows
    }


def ruling_fields(ruling_id: int) -> dict[str, Any]:
    """A ruling's own fields as chained, read from its stored rows (what the audit reads)."""
    rows = list(Ruling.objects.filter(pk=ruling_id).values(*_COLUMNS))
    return _fields(rows)[ruling_id]


def _chained(rulings: QuerySet[Ruling], owner: str) -> Iterator[chain.Entry]:
    """The rulings on a chain, by ``owner`` (``chain_hand_id`` or ``chain_day_id``) and seq:
    each as (owner, seq, canonical content, stored hash), read in chunks."""
    rows = list(rulings.order_by(owner, "seq").values(owner, "seq", "hash", *_COLUMNS))
    for part in _chunks(rows, 2000):
        fields = _fields(part)
        for r in part:
            seq = r["seq"] if r["seq"] is not None else 0  # unnumbered: sorts first, and fails
            content = engine_chain.entry_content(KIND, seq, fields[r["id"]])
            yield r[owner], seq, content, r["hash"]


def _rows(hands: QuerySet[Hand]) -> Iterator[chain.Entry]:
    owned = Ruling.objects.filter(chain_hand__in=hands.order_by().values("id"))
    yield from _chained(owned, "chain_hand_id")


def _chunks(rows: list[dict[str, Any]], size: int) -> Iterable[list[dict[str, Any]]]:
    for i in range(0, len(rows), size):
        yield rows[i : i + size]


def rulings_source() -> chain.Source:
    return chain.Source("rulings", _rows)


def _day_rows(days: QuerySet[Day]) -> Iterator[day_chain.DayEntry]:
    owned = Ruling.objects.filter(chain_day__in=days.order_by().values("id"))
    yield from _chained(owned, "chain_day_id")


def day_rulings_source() -> day_chain.DaySource:
    """The rulings on their day's own chain."""
    return day_chain.DaySource("rulings", _day_rows)


LIFT_COLUMNS = ("id", "player_id", "lifted_at", "lifted_by_id", "lift_reason")


def lift_row_fields(row: dict[str, Any]) -> dict[str, Any]:
    lifted = row["lifted_at"]
    return {
        "penalty": row["id"],
        "player": row["player_id"],
        "lifted_at": lifted.isoformat() if lifted is not None else None,
        "by": row["lifted_by_id"],
        "reason": row["lift_reason"],
    }


def lift_fields(penalty_id: int) -> dict[str, Any]:
    """A lifted disqualification's fields as chained, read from its stored row."""
    return lift_row_fields(Penalty.objects.filter(pk=penalty_id).values(*LIFT_COLUMNS).get())


def _lifts(days: QuerySet[Day]) -> Iterator[day_chain.DayEntry]:
    # A lift is on its day's chain once it has a seq or a hash; every other lifted penalty is
    # the money record's (``_record_lifts``).
    qs = (
        Penalty.objects.filter(day__in=days.order_by().values("id"))
        .filter(Q(lift_seq__isnull=False) | ~Q(lift_hash=""))
        .order_by("day_id", "lift_seq")
        .values("day_id", "lift_seq", "lift_hash", *LIFT_COLUMNS)
    )
    for row in qs.iterator(chunk_size=2000):
        seq = row["lift_seq"] if row["lift_seq"] is not None else 0
        content = engine_chain.entry_content(LIFT, seq, lift_row_fields(row))
        yield row["day_id"], seq, content, row["lift_hash"]


def lifts_source() -> day_chain.DaySource:
    """The disqualifications lifted before the money record took them, on the chain of the day
    they were given on."""
    return day_chain.DaySource("lifts", _lifts)


_ON_DAY_CHAIN = Q(lift_seq__isnull=False) | ~Q(lift_hash="")


def _record_lifts(event: Event, problems: list[str]) -> Iterator[RecordRow]:
    qs = (
        Penalty.objects.filter(event=event)
        .filter(
            Q(lifted_at__isnull=False) | Q(lift_record_seq__isnull=False) | ~Q(lift_record_hash="")
        )
        .exclude(_ON_DAY_CHAIN)
        .order_by("pk")
        .values("lift_record_seq", "lift_record_hash", "player__name", *LIFT_COLUMNS)
    )
    for row in qs.iterator(chunk_size=2000):
        seq = row["lift_record_seq"]
        what = f"the disqualification of {row['player__name']} (penalty {row['id']})"
        if row["lifted_at"] is None:
            problems.append(f"{what} was lifted on the record (entry {seq}) but is in force again")
        yield RecordRow(
            seq,
            entry(LIFT, seq, lift_row_fields(row)),
            row["lift_record_hash"],
            f"the lift of {what}",
            "its player, time, who lifted it or the reason",
            unrecorded=f"{what} is lifted on no record: written behind the services",
        )


def record_lifts_source() -> RecordSource:
    """Every disqualification lifted since the money record took them (and any row lifted
    that is on no chain at all)."""
    return RecordSource("lifted disqualifications", _record_lifts)


_AWARD_COLUMNS = ("settled_seq", "awards", "confirmed_by_id", "confirmed_at", "where")
AWARD = "award_confirm"


def award_content(row: dict[str, Any]) -> dict[str, Any]:
    """A large pot's confirmation as chained (``floor.services.award_fields`` writes the same
    from the row it saves): which entry settled the hand, the pots, who confirmed, when, how."""
    at = row["confirmed_at"]
    return {
        "settled_by": row["settled_seq"],
        "awards": row["awards"],
        "confirmed_by": row["confirmed_by_id"],
        "confirmed_at": at.isoformat() if at is not None else None,
        "where": row["where"],
    }


def _awards(hands: QuerySet[Hand]) -> Iterator[chain.Entry]:
    # On the hand's record once confirmed: a confirmation has a seq or a hash. Its waiting and
    # withdrawal are the money record's (``_record_awards``, which names a pot confirmed on no
    # record).
    qs = (
        AwardConfirmation.objects.filter(hand__in=hands.order_by().values("id"))
        .filter(Q(seq__isnull=False) | ~Q(hash=""))
        .order_by("hand_id", "seq")
        .values("hand_id", "seq", "hash", *_AWARD_COLUMNS)
    )
    for row in qs.iterator(chunk_size=2000):
        seq = row["seq"] if row["seq"] is not None else 0
        content = engine_chain.entry_content(AWARD, seq, award_content(row))
        yield row["hand_id"], seq, content, row["hash"]


def awards_source() -> chain.Source:
    """The large pots' confirmations, on their hands' records."""
    return chain.Source("award confirmations", _awards)


def _pots(awards: Any) -> str:
    try:
        return "; ".join(
            f"pot of {a['amount']:,} to {' and '.join(a['players'])}" for a in awards or []
        )
    except (KeyError, TypeError, ValueError):
        return "pots unreadable"


def _record_awards(event: Event, problems: list[str]) -> Iterator[RecordRow]:
    qs = (
        AwardConfirmation.objects.filter(event=event)
        .order_by("pk")
        .values(
            *WAIT_COLUMNS,
            "status",
            "seq",
            "hash",
            "wait_seq",
            "wait_hash",
            "withdraw_seq",
            "withdraw_hash",
            "hand__number",
            "table__number",
            "table__day__number",
        )
    )
    changed = "its hand, pots, amount or who entered the hand"
    for row in qs.iterator(chunk_size=2000):
        what = (
            f"the large pot of hand {row['hand__number']} at table {row['table__number']}, day "
            f"{row['table__day__number']} (award {row['id']}: {_pots(row['awards'])})"
        )
        status = row["status"]
        confirmed = row["seq"] is not None or bool(row["hash"])
        if status == AwardConfirmation.Status.CONFIRMED and not confirmed:
            problems.append(
                f"{what} is confirmed on no record: no second member of staff confirmed it on "
                "its hand's record (written behind the services)"
            )
        elif status != AwardConfirmation.Status.CONFIRMED and confirmed:
            problems.append(
                f"{what} was confirmed on its hand's record (entry {row['seq']}) but is "
                f"{status} again"
            )
        seq = row["wait_seq"]
        yield RecordRow(
            seq,
            entry(WAIT, seq, wait_fields(row)),
            row["wait_hash"],
            f"{what}: its waiting",
            changed,
            unrecorded=f"{what} waits on no record: written behind the services",
        )
        withdrawn = status == AwardConfirmation.Status.WITHDRAWN
        chained = row["withdraw_seq"] is not None or bool(row["withdraw_hash"])
        if chained and not withdrawn:
            problems.append(
                f"{what} was withdrawn on the record (entry {row['withdraw_seq']}) but is "
                f"{status} again"
            )
        if withdrawn or chained:
            seq = row["withdraw_seq"]
            yield RecordRow(
                seq,
                entry(WITHDRAW, seq, withdraw_fields(row)),
                row["withdraw_hash"],
                f"{what}: its withdrawal",
                "when it was withdrawn",
                unrecorded=f"{what} is withdrawn on no record: written behind the services",
            )


def record_awards_source() -> RecordSource:
    """Every large pot of the event: waiting, and withdrawn."""
    return RecordSource("large pots", _record_awards)


# The large-pot amount changed during an open day (``services.day_award_from_change``) ------------

AWARD_FROM = "award_from"
AWARD_FROM_COLUMNS = ("id", "day_id", "after", "changed_at")


def award_from_fields(row: dict[str, Any]) -> dict[str, Any]:
    """A change of the day's large-pot amount as chained: its day, the amount from then on
    (``None``: never), when (chained before the append-only row is written, so not its id)."""
    after = row["after"] if isinstance(row["after"], dict) else {}
    return {
        "day": row["day_id"],
        "amount": after.get("award_confirm_from"),
        "at": at_text(row["changed_at"]),
    }


def _record_award_from(event: Event, problems: list[str]) -> Iterator[RecordRow]:
    qs = (
        DayRulesChange.objects.filter(day__event=event)
        .filter(Q(record_seq__isnull=False) | ~Q(record_hash=""))
        .order_by("pk")
        .values(*AWARD_FROM_COLUMNS, "record_seq", "record_hash", "day__number")
    )
    last: dict[int, Any] = {}
    numbers: dict[int, int] = {}
    for row in qs.iterator(chunk_size=2000):
        seq = row["record_seq"]
        fields = award_from_fields(row)
        last[row["day_id"]] = fields["amount"]
        numbers[row["day_id"]] = row["day__number"]
        yield RecordRow(
            seq,
            entry(AWARD_FROM, seq, fields),
            row["record_hash"],
            f"the large-pot amount of day {row['day__number']} set to "
            f"{fields['amount'] if fields['amount'] is not None else 'never'} (change {row['id']})",
            "its day, amount or time",
        )
    # What decides whether a pot waits is the day's amount: the last one recorded.
    for day_id, amount in Day.objects.filter(pk__in=last).values_list("pk", "award_confirm_from"):
        if amount != last[day_id]:
            now_text = "never" if amount is None else f"{amount:,}"
            then = "never" if last[day_id] is None else f"{last[day_id]:,}"
            problems.append(
                f"day {numbers[day_id]}'s large-pot amount is {now_text}, but the record's last "
                f"change set it to {then}: changed behind the services"
            )


def record_award_from_source() -> RecordSource:
    """Every change of a day's large-pot amount made while the day was open."""
    return RecordSource("large-pot amounts", _record_award_from)
