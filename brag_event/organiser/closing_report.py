"""What the day-close page shows: the close's state, and its report in words — the stacks
returned, the ledger audit, who qualified for the next day and who missed the cut and why, the
carried pots shared — or, if it failed, the refusal with the tables it names."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from brag_event.events.models import Day, DayClose
from brag_event.players.models import Qualification, StandingSnapshot
from brag_event.players.qualify import REQUALIFIED
from brag_event.players.selectors import event_names_shown
from brag_event.tables.models import Table


@dataclass
class CloseReport:
    day: Day
    close: DayClose | None
    following: Day | None
    need: int | None  # what the next day costs to sit down: its table minimum plus fee
    qualified: list[dict[str, Any]] = field(default_factory=list)
    missed: list[dict[str, Any]] = field(default_factory=list)
    carried_pots: list[dict[str, Any]] = field(default_factory=list)
    error: dict[str, Any] | None = None
    error_tables: list[Table] = field(default_factory=list)
    audit_lines: list[str] = field(default_factory=list)
    data: dict[str, Any] = field(default_factory=dict)
    requalified: list[dict[str, Any]] = field(default_factory=list)


def close_state(day: Day) -> dict[str, Any]:
    """The close's status for the page's script (``day_close_status``)."""
    close = DayClose.objects.filter(day=day).first()
    if close is None:
        return {"status": "not requested", "progress": 0, "step": "", "report": {}}
    waiting = bool(close.queue_error) and close.status in (
        DayClose.Status.QUEUED,
        DayClose.Status.RUNNING,
    )
    return {
        "status": close.status,
        "progress": close.progress,
        "step": WAITING if waiting else ("" if close.step == close.status else close.step),
        "waiting": waiting,
        "report": close.report,
        "runs": close.runs,
    }


WAITING = "waiting for the job queue"
WAITING_WORDS = (
    "The server's job queue cannot be reached just now, so the close has not started yet. "
    "Nothing is lost: the day stays out of play and the close starts by itself as soon as the "
    "queue is back. You need not do anything."
)


def tables_named(day: Day, numbers: Any) -> list[Table]:
    """The day's tables with these numbers (a refusal's ``details.tables``), for links."""
    if not isinstance(numbers, list):
        return []
    wanted = [n for n in numbers if isinstance(n, int)]
    return list(day.tables.filter(number__in=wanted).order_by("number"))


def following_day(day: Day) -> Day | None:
    return day.event.days.filter(number__gt=day.number).order_by("number").first()


def why_missed(row: StandingSnapshot, day: Day, need: int | None) -> str:
    if need is None:
        return "the last day: nobody goes on"
    if row.total < need:
        return f"has {row.total}; the next day needs {need} (table minimum plus fee)"
    if day.qualify_rule == "top" and day.qualify_top:
        return f"ranked {row.rank}, below the top {day.qualify_top}"
    return "did not qualify"


def close_report(day: Day) -> CloseReport:
    close = DayClose.objects.filter(day=day).select_related("requested_by").first()
    following = following_day(day)
    need = following.table_min + following.house_fee if following else None
    report = CloseReport(day=day, close=close, following=following, need=need)
    if close is None:
        return report
    data = close.report if isinstance(close.report, dict) else {}
    report.data = data
    error = data.get("error")
    if isinstance(error, dict):
        report.error = error
        found = error.get("details")
        details: dict[str, Any] = found if isinstance(found, dict) else {}
        report.error_tables = tables_named(day, details.get("tables"))
        lines = details.get("audit")
        report.audit_lines = [str(x) for x in lines] if isinstance(lines, list) else []
    pots = data.get("carried_pots")
    if isinstance(pots, list):
        report.carried_pots = [p for p in pots if isinstance(p, dict)]
    if close.status != DayClose.Status.DONE or following is None:
        return report  # the last day: the final standings, nobody goes on or misses a cut
    reasons: dict[int, str] = {}
    if following is not None:
        reasons = dict(
            Qualification.objects.filter(day=following).values_list("player_id", "reason")
        )
    # The close's own reasons (``players.qualify.day_cut``); a close from before they were kept
    # is explained from its snapshot.
    kept = data.get("missed")
    missed: dict[str, Any] = kept if isinstance(kept, dict) else {}
    rows = (
        StandingSnapshot.objects.filter(day=day)
        .select_related("player")
        .order_by("position", "rank", "player__name")
    )
    shown = event_names_shown(day.event_id)
    for row in rows:
        entry = {
            "player": row.player_id,
            "rank": row.rank,
            "name": shown.get(row.player_id, row.player.name),
            "total": row.total,
        }
        if row.qualified:
            report.qualified.append({**entry, "why": reasons.get(row.player_id, "")})
        else:
            why = missed.get(str(row.player_id)) or why_missed(row, day, need)
            entry["back"] = row.player_id in reasons  # let back in since
            report.missed.append({**entry, "why": str(why)})
    report.requalified = (
        [
            {"name": shown[pk], "why": why.removeprefix(REQUALIFIED)}
            for pk, why in Qualification.objects.filter(
                day=following, reason__startswith=REQUALIFIED
            )
            .order_by("player__name", "player_id")
            .values_list("player_id", "reason")
        ]
        if following is not None
        else []
    )
    return report
