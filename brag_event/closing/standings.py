"""A day's standings on its record (RULES §4b, "Standings after a close"): the close writes the
standings it took — every player's position, rank, money, change, hands and mark, and the
qualifiers it wrote for the next day — as one entry of kind ``standings`` on the day's own chain
(``hands.chain.day_chain_append``), before it computes the day's root, so the published root
covers them. The entry's fields are kept as chained (``DayClose.standings``), and the audit
compares every snapshot row and every qualification with them, naming what differs.

A day that closed before standings were chained, or came from a results file, has its
standings sealed instead as one entry of kind ``standings_sealed`` of the event's money record
(``DayClose.standings_sealed``): by the migration that brought this in, or by the import. Every
closed day has exactly one standings entry, on one chain or the other.

A player let back in for a day (``players.qualify.player_requalify``) is an entry of kind
``let_back`` on that day's own chain (``Qualification.seq``, ``hash``). So every qualification
is either the close's (in its standings entry) or a let-back-in (its own entry): a row that is
neither was written behind the services."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from django.db.models import Q, QuerySet

from brag_event.engine import chain as engine_chain
from brag_event.events import day_chain
from brag_event.events.models import Day, DayClose, Event
from brag_event.events.record import RecordRow, RecordSource, entry, record_append
from brag_event.ledger.audit import AuditRun, Found
from brag_event.ledger.record import record_for_change
from brag_event.players.models import Player, Qualification, StandingSnapshot
from brag_event.players.qualify import LET_BACK, following_day

STANDINGS = "standings"

# A snapshot row as chained, in this order.
ROW = (
    "player_id",
    "position",
    "rank",
    "total",
    "change",
    "hands_played",
    "hands_won",
    "mark",
    "out_after",
    "qualified",
)
# How the audit names each column in words.
_SAID = {
    "position": "place in the order",
    "rank": "rank",
    "total": "money",
    "change": "change",
    "hands_played": "hands played",
    "hands_won": "hands won",
    "mark": "mark",
    "out_after": "day out",
    "qualified": "qualified",
}


def standings_fields(day: Day) -> dict[str, Any]:
    """The standings entry's fields, read back from the rows the close wrote: the snapshot in
    its order, and the qualifiers for the next day the close wrote (not the let-back-ins, which
    are entries of their own)."""
    rows = [
        list(r)
        for r in StandingSnapshot.objects.filter(day=day)
        .order_by("position", "player_id")
        .values_list(*ROW)
    ]
    following = following_day(day)
    qualifiers: list[list[Any]] = []
    if following is not None:
        qualifiers = [
            list(q)
            for q in Qualification.objects.filter(day=following, seq__isnull=True, hash="")
            .order_by("player_id")
            .values_list("player_id", "reason")
        ]
    return {"rows": rows, "qualifiers": qualifiers}


SEALED = "standings_sealed"  # the same fields, sealed on the money record


def standings_seal(*, day: Day, close: DayClose, field: bool = False) -> None:
    """Seal a closed day's standings, as they are stored, on the event's money record (an
    imported day's; ``field``: with the day's own field as the file gave it). The caller holds
    the transaction; the record is locked last."""
    fields = standings_fields(day)
    if field:
        fields["field"] = [
            list(q)
            for q in Qualification.objects.filter(day=day, seq__isnull=True, hash="")
            .order_by("player_id")
            .values_list("player_id", "reason")
        ]
    seq, digest = record_append(record_for_change(day.event_id), SEALED, fields)
    close.standings, close.standings_seq, close.standings_hash = fields, seq, digest
    close.standings_sealed = True
    close.save(update_fields=["standings", "standings_seq", "standings_hash", "standings_sealed"])


def standings_chain(*, day: Day, close: DayClose) -> None:
    """Chain the standings the close has just written onto ``day``'s own chain (the caller holds
    the day's and the close's rows, and saves neither: this saves both)."""
    fields = standings_fields(day)
    seq, digest = day_chain.day_chain_append(day=day, kind=STANDINGS, fields=fields)
    day.save(update_fields=["record_seq", "record_head"])
    close.standings, close.standings_seq, close.standings_hash = fields, seq, digest
    close.save(update_fields=["standings", "standings_seq", "standings_hash"])


def _standings_rows(days: QuerySet[Day]) -> Iterator[day_chain.DayEntry]:
    closes = (
        DayClose.objects.filter(day__in=days.order_by().values("id"), standings_sealed=False)
        .filter(Q(standings_seq__isnull=False) | ~Q(standings_hash=""))
        .order_by("day_id")
        .values_list("day_id", "standings_seq", "standings", "standings_hash")
    )
    for day_id, seq, fields, digest in closes.iterator(chunk_size=200):
        number = seq if seq is not None else 0  # unnumbered: sorts first, and fails
        content = engine_chain.entry_content(STANDINGS, number, fields or {})
        yield day_id, number, content, digest


def standings_source() -> day_chain.DaySource:
    """The closes' standings, on their days' own chains."""
    return day_chain.DaySource("standings", _standings_rows)


def _sealed_rows(event: Event, problems: list[str]) -> Iterator[RecordRow]:
    closes = (
        DayClose.objects.filter(day__event=event, standings_sealed=True)
        .order_by("day__number")
        .values_list("standings_seq", "standings", "standings_hash", "day__number")
    )
    for seq, fields, digest, number in closes.iterator(chunk_size=200):
        yield RecordRow(
            seq,
            entry(SEALED, seq, fields or {}),
            digest,
            f"day {number}'s standings as sealed",
            "its rows or qualifiers",
        )


def sealed_source() -> RecordSource:
    """The standings of days closed before they were chained, or imported: on the event's money
    record."""
    return RecordSource("sealed standings", _sealed_rows)


_LET_BACK_COLUMNS = ("player_id", "reason", "created_by_id", "created_at")


def _let_back_rows(days: QuerySet[Day]) -> Iterator[day_chain.DayEntry]:
    rows = (
        Qualification.objects.filter(day__in=days.order_by().values("id"))
        .filter(Q(seq__isnull=False) | ~Q(hash=""))
        .order_by("day_id", "seq")
        .values("day_id", "seq", "hash", *_LET_BACK_COLUMNS)
    )
    for row in rows.iterator(chunk_size=2000):
        seq = row["seq"] if row["seq"] is not None else 0
        at = row["created_at"]
        fields = {
            "player": row["player_id"],
            "reason": row["reason"],
            "by": row["created_by_id"],
            "at": at.isoformat() if at is not None else None,
        }
        yield row["day_id"], seq, engine_chain.entry_content(LET_BACK, seq, fields), row["hash"]


def let_back_source() -> day_chain.DaySource:
    """The players let back in, on their days' own chains."""
    return day_chain.DaySource("players let back in", _let_back_rows)


# ------------------------------------------------------------------------------- the audit


def check_standings(run: AuditRun) -> Found:
    """Every closed day's snapshot and every qualification against the record: a closed day
    has its standings entry (a day closed before entries were kept has none, and is said); each
    snapshot row is the entry's row, column by column; no row is added or missing; each
    qualification is the close's (in the entry of the day before) or a let-back-in (its own
    entry, checked with the day's chain)."""
    scope = run.scope
    days = list(
        Day.objects.filter(event=scope.event).order_by("number").values("id", "number", "status")
    )
    in_scope = {d["id"] for d in days if scope.day is None or d["id"] == scope.day.pk}
    closes = {
        c["day_id"]: c
        for c in DayClose.objects.filter(day_id__in=[d["id"] for d in days]).values(
            "day_id", "standings", "standings_seq", "standings_hash"
        )
    }
    names = dict(Player.objects.filter(event=scope.event).values_list("pk", "name"))

    def who(player: int) -> str:
        return f"{names.get(player, 'a player')} (player {player})"

    problems: list[str] = []
    checked = 0
    by_number = {d["number"]: d for d in days}
    covered: set[int] = set()  # days whose qualifiers a recorded close (or its absence) explains
    for d in days:
        close = closes.get(d["id"])
        kept = close["standings"] if close else None
        following = by_number.get(d["number"] + 1)
        if d["id"] not in in_scope:  # a day-scoped audit: only what its qualifiers need
            if following is not None and isinstance(kept, dict):
                covered.add(following["id"])
            continue
        # A closing day has its standings only inside its close's own transaction (whose
        # audit this may be): they are checked as a closed day's.
        taken = d["status"] == Day.Status.CLOSING and kept is not None
        if d["status"] != Day.Status.CLOSED and not taken:
            if kept is not None or StandingSnapshot.objects.filter(day_id=d["id"]).exists():
                problems.append(
                    f"day {d['number']} has not closed, yet standings of its close are stored"
                )
            continue
        if not isinstance(kept, dict) or close is None or close["standings_seq"] is None:
            problems.append(
                f"day {d['number']} has closed, but its standings are on no record (written "
                "behind the services, or their entry removed)"
            )
            if following is not None:
                covered.add(following["id"])
            continue
        checked += 1
        problems += _compare_rows(d["number"], d["id"], kept, who)
        if "field" in kept:  # an imported day: its field as the file gave it
            covered.add(d["id"])
            problems += _compare_field(d["number"], d["id"], kept, who)
        if following is not None:
            covered.add(following["id"])
            problems += _compare_qualifiers(d["number"], following["id"], kept, who)
    # A qualification of a day that no recorded close came before (the first day, a day whose
    # day before has not closed): on no record unless it is a let-back-in's entry.
    loose = (
        Qualification.objects.filter(day__event=scope.event, seq__isnull=True, hash="")
        .exclude(day_id__in=covered)
        .values_list("day__number", "player_id")
    )
    if scope.day is not None:
        loose = loose.filter(day=scope.day)
    for number, player in loose.order_by("day__number", "player_id"):
        problems.append(
            f"day {number}'s qualifiers: {who(player)} is on no record (no close before "
            "it qualified them, and they were not let back in)"
        )
    return problems, f"{checked} closed days' standings and qualifiers against their records"


def _compare_field(number: int, day_id: int, kept: dict[str, Any], who: Any) -> list[str]:
    recorded = {int(q[0]): q[1] for q in kept.get("field", []) if isinstance(q, list)}
    stored = dict(
        Qualification.objects.filter(day_id=day_id, seq__isnull=True, hash="").values_list(
            "player_id", "reason"
        )
    )
    problems = [
        f"day {number}'s field: {who(p)} is on no record (not in the file it was imported from)"
        for p in sorted(set(stored) - set(recorded))
    ]
    problems += [
        f"day {number}'s field: {who(p)}, in the file it was imported from, is missing"
        for p in sorted(set(recorded) - set(stored))
    ]
    return problems


def _compare_rows(number: int, day_id: int, kept: dict[str, Any], who: Any) -> list[str]:
    problems: list[str] = []
    recorded = {int(r[0]): r for r in kept.get("rows", []) if isinstance(r, list) and r}
    stored = {r[0]: r for r in StandingSnapshot.objects.filter(day_id=day_id).values_list(*ROW)}
    for player in sorted(set(stored) - set(recorded)):
        problems.append(
            f"day {number}'s standings: {who(player)} has a row the close did not write"
        )
    for player in sorted(set(recorded) - set(stored)):
        problems.append(f"day {number}'s standings: {who(player)}'s row is missing")
    for player in sorted(set(stored) & set(recorded)):
        now, then = stored[player], recorded[player]
        for index, column in enumerate(ROW[1:], start=1):
            said, was = now[index], then[index] if index < len(then) else None
            if said != was:
                problems.append(
                    f"day {number}'s standings: {who(player)}'s {_SAID[column]} reads {said}, "
                    f"the close recorded {was}"
                )
    return problems


def _compare_qualifiers(
    number: int, following_id: int, kept: dict[str, Any], who: Any
) -> list[str]:
    problems: list[str] = []
    recorded = {int(q[0]): q[1] for q in kept.get("qualifiers", []) if isinstance(q, list)}
    rows = Qualification.objects.filter(day_id=following_id).values_list(
        "player_id", "reason", "seq", "hash"
    )
    seen: set[int] = set()
    for player, reason, seq, digest in rows:
        if seq is not None or digest:
            continue  # a let-back-in: an entry of its own, checked with its day's chain
        seen.add(player)
        if player not in recorded:
            problems.append(
                f"day {number + 1}'s qualifiers: {who(player)} is on no record (neither "
                f"qualified by day {number}'s close nor let back in)"
            )
        elif recorded[player] != reason:
            problems.append(
                f"day {number + 1}'s qualifiers: {who(player)}'s reason reads {reason!r}, the "
                f"close recorded {recorded[player]!r}"
            )
    for player in sorted(set(recorded) - seen):
        problems.append(
            f"day {number + 1}'s qualifiers: {who(player)}, qualified by day {number}'s close, "
            "is missing"
        )
    return problems
