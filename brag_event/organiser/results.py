"""Results on paper: what a closed day's results, and the event's final results, say — the
ranking with each player's money as the close kept it (``StandingSnapshot``), who qualified and
where the cut fell, the penalties and disqualifications, and each day's published root with how
anyone checks it. Read-only; the printable page and its PDF (``paper.py``) show the same thing.

In the organisers' layer, not the public one: the results name the floor's rulings in words
(what happened and the decision), which the public pages never show. The public standings
already show a closed day's ranking, its qualifiers and its root."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.urls import reverse

from brag_event.events.models import Day, DayClose, Event
from brag_event.floor.models import Penalty
from brag_event.hands.models import Hand
from brag_event.players.models import Qualification
from brag_event.players.qualify import REQUALIFIED
from brag_event.players.selectors import event_names_shown
from brag_event.standings.results import QUALIFIED, closed_cut, final_standings, snapshot_rows

from .closing_report import following_day


@dataclass(frozen=True)
class Root:
    """A closed day's published root: the value, how many hands it covers, how anyone checks it
    (``verify``, in words), and the command the technical reader runs (``command``: shown on
    screen only, folded away; docs/integrity.md, "Checking a published root")."""

    day: int
    value: str
    hands: int
    export_name: str  # the day's hands file, as the console names its download
    # A past event imported from a results file: its hands stayed where it was played.
    imported: bool = False
    hands_url: str = ""  # the day's hands file in the console ("" for a past event)

    @property
    def command(self) -> str:
        return f"python -m brag_event.engine verify {self.export_name} --root {self.value}"

    @property
    def verify(self) -> str:
        if self.imported:
            return (
                f"Day {self.day} was played on another installation, which keeps its hands: "
                "there, anyone can check that nothing in the day's record changed after the "
                "close. The day's hands lead, by one fixed calculation, to exactly this root."
            )
        return (
            f"Anyone can check that nothing in day {self.day}'s record changed after the "
            "close: the day's hands, downloaded from the console, lead by one fixed "
            "calculation to exactly this root, and a single changed card, action or amount "
            "gives another."
        )


@dataclass
class Results:
    event: Event
    day: Day | None  # None: the event's final results
    title: str
    ready: bool  # False: the day (or the last day) has not closed yet
    waiting: str = ""  # why not, in words
    rows: list[dict[str, Any]] = field(default_factory=list)
    cut: dict[str, Any] | None = None  # {"after": rows above the line, "text": the line's words}
    qualified: list[dict[str, Any]] = field(default_factory=list)
    let_back: list[dict[str, str]] = field(default_factory=list)
    penalties: list[dict[str, Any]] = field(default_factory=list)
    disqualified: list[str] = field(default_factory=list)
    roots: list[Root] = field(default_factory=list)
    closed_at: Any = None


def export_name(day: Day) -> str:
    """The file name the console gives the day's hands (``views.export_hands``)."""
    return f"hands-{day.event_id}-day{day.number}.jsonl"


def root_of(day: Day) -> Root | None:
    if day.status != Day.Status.CLOSED or not day.record_root:
        return None
    close = DayClose.objects.filter(day=day).first()
    data = close.report if close is not None and isinstance(close.report, dict) else {}
    hands = data.get("record_hands")
    if not isinstance(hands, int):  # a close from before its report counted them
        hands = Hand.objects.filter(table__day=day).count()
    if day.event.imported_at is not None:
        return Root(day.number, day.record_root, hands, f"day{day.number}.jsonl", imported=True)
    url = reverse("organiser:export_hands", args=[day.pk])
    return Root(day.number, day.record_root, hands, export_name(day), hands_url=url)


PENALTY_WORDS = {
    Penalty.Kind.WARNING: "warning",
    Penalty.Kind.MISSED_HANDS: "missed hands",
    Penalty.Kind.DISQUALIFICATION: "disqualified",
}


def penalty_rows(event: Event, day: Day | None) -> list[dict[str, Any]]:
    """The penalties of ``day`` (or of the whole event), oldest first, in words."""
    found = Penalty.objects.filter(event=event).select_related("ruling", "player", "day")
    if day is not None:
        found = found.filter(day=day)
    rows = []
    shown = event_names_shown(event.pk)
    for p in found.order_by("created_at", "pk"):
        what = PENALTY_WORDS.get(Penalty.Kind(p.kind), p.get_kind_display().lower())
        if p.kind == Penalty.Kind.MISSED_HANDS:
            what = f"misses {p.hands} hand{'s' if p.hands != 1 else ''}"
        rows.append(
            {
                "player": shown.get(p.player_id, p.player.name),
                "day": p.day.number if p.day else None,
                "what": what,
                "kind": p.kind,
                "happened": p.ruling.what_happened,
                "decision": p.ruling.decision,
                "at": p.created_at,
                "lifted": p.lifted_at is not None,
                "lift_reason": p.lift_reason,
            }
        )
    return rows


def day_results(day: Day) -> Results:
    """A day's results as its close kept them. Not ready until the day has closed."""
    event = day.event
    title = f"{event.name} · results of day {day.number}"
    results = Results(event=event, day=day, title=title, ready=False)
    if day.status != Day.Status.CLOSED:
        results.waiting = (
            f"Day {day.number} has not closed yet: its results are printed once its close is done."
        )
        return results
    results.ready = True
    close = DayClose.objects.filter(day=day).first()
    results.closed_at = close.finished_at if close is not None else None
    rows = snapshot_rows(day)
    results.rows = rows
    results.cut = closed_cut(day, rows)
    following = following_day(day)
    if following is not None:
        results.qualified = [r for r in rows if r["mark"] == QUALIFIED]
        shown = event_names_shown(event.pk)
        results.let_back = [
            {"name": shown[pk], "why": why.removeprefix(REQUALIFIED)}
            for pk, why in Qualification.objects.filter(
                day=following, player__in=[r["player"] for r in rows if r["mark"] != QUALIFIED]
            )
            .order_by("player__name", "player_id")
            .values_list("player_id", "reason")
        ]
    results.penalties = penalty_rows(event, day)
    results.disqualified = [r["name"] for r in rows if r["disqualified"]]
    root = root_of(day)
    results.roots = [root] if root else []
    return results


def event_results(event: Event) -> Results:
    """The event's final results: its last day's close, with every day's root. Not ready until
    the last day has closed."""
    days = list(event.days.order_by("number"))
    results = Results(event=event, day=None, title=f"{event.name} · final results", ready=False)
    if not days or days[-1].status != Day.Status.CLOSED:
        number = days[-1].number if days else 1
        results.waiting = (
            f"The event's final results are printed once its last day, day {number}, has closed."
        )
        return results
    last = day_results(days[-1])
    results.ready = True
    results.closed_at = last.closed_at
    # The final ranking: the last day's players by their money at its close, then those out
    # after each earlier day (RULES §4b, "Standings after a close").
    results.rows = final_standings(event)
    results.penalties = penalty_rows(event, None)
    results.disqualified = last.disqualified
    results.roots = [r for r in (root_of(d) for d in days) if r is not None]
    return results
