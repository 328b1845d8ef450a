"""Read side of the hall's screen: the standings cut into pages of columns (with the cut line
where it falls), and the seat finder — every player's table and seat, alphabetically, from the
tables of the day in play or, before they are set up, from the next day's draw."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from brag_event.events.models import Day, Event
from brag_event.players.selectors import event_names_shown
from brag_event.tables.models import Seat, SeatingDraw

# From 5 m away a row must be ~4 cm tall: 15 rows a column, two columns a page at 1920 × 1080.
ROWS_PER_COLUMN = 15
STANDING_COLUMNS = 2
SEAT_COLUMNS = 3  # the seat finder's rows are short: a name, a table and a seat


@dataclass
class Page:
    """One screenful: ``kind`` ("standings" or "seats"), its columns of items (a standings row,
    a seat, or ``{"cut": text}`` for the cut line), and its place among the pages of its kind."""

    kind: str
    columns: list[list[dict[str, Any]]]
    number: int = 0
    of: int = 0
    first: str = ""  # the seat finder's page: the first and last names' initials
    last: str = ""


def _pages(items: list[dict[str, Any]], kind: str, columns: int) -> list[Page]:
    per_page = ROWS_PER_COLUMN * columns
    pages = []
    for start in range(0, len(items), per_page):
        chunk = items[start : start + per_page]
        cols = [chunk[i : i + ROWS_PER_COLUMN] for i in range(0, len(chunk), ROWS_PER_COLUMN)]
        pages.append(Page(kind, cols))
    for n, page in enumerate(pages, start=1):
        page.number, page.of = n, len(pages)
    return pages


def standings_pages(rows: list[dict[str, Any]], cut: dict[str, Any] | None) -> list[Page]:
    """``rows`` (``players.qualify.standings_marked``) as pages; the cut line takes a row's
    place where it falls (``cut["after"]`` rows above it)."""
    items: list[dict[str, Any]] = []
    for i, row in enumerate(rows):
        if cut and cut["after"] == i:
            items.append({"cut": cut["text"]})
        items.append(row)
    if cut and rows and cut["after"] == len(rows):
        items.append({"cut": cut["text"]})
    return _pages(items, "standings", STANDING_COLUMNS)


@dataclass
class SeatFinder:
    """Who sits where: ``title`` says from what (the tables now, or a day's draw)."""

    title: str
    seats: list[dict[str, Any]] = field(default_factory=list)  # name, table, seat, moved
    pages: list[Page] = field(default_factory=list)


def _initial(name: str) -> str:
    return (name[:1] or "?").upper()


def seat_finder(event: Event, today: Day | None) -> SeatFinder:
    """The next draw not applied (of ``today`` or a later day) when it is newer than every seat
    of ``today``; else the seats at ``today``'s tables (``moved``: the player sat elsewhere
    earlier that day). Alphabetical."""
    found = SeatFinder(title="")
    draw = (
        SeatingDraw.objects.filter(
            day__event=event,
            applied_at__isnull=True,
            day__number__gte=today.number if today else 0,
            day__status__in=[Day.Status.SCHEDULED, Day.Status.OPEN],
        )
        .select_related("day")
        .order_by("-created_at", "-id")
        .first()
    )
    latest_seat = (
        Seat.objects.filter(table__day=today)
        .order_by("-joined_at")
        .values_list("joined_at", flat=True)
        .first()
        if today is not None
        else None
    )
    if draw is not None and (latest_seat is None or draw.created_at >= latest_seat):
        # A draw newer than every seat of the day: where the players go next.
        found.title = f"Seats drawn for day {draw.day.number}"
        found.seats = [
            {"name": e["name"], "table": int(t["table"]), "seat": int(e["seat"]), "moved": False}
            for t in draw.plan
            for e in t["seats"]
        ]
    elif today is not None and latest_seat is not None:
        seats = list(
            Seat.objects.filter(table__day=today, left_at__isnull=True)
            .select_related("player", "table")
            .only("number", "player__name", "table__number")
        )
        taken = Counter(Seat.objects.filter(table__day=today).values_list("player_id", flat=True))
        found.title = f"Seats now, day {today.number}"
        shown = event_names_shown(today.event_id)
        found.seats = [
            {
                "name": shown.get(s.player_id, s.player.name),
                "table": s.table.number,
                "seat": s.number,
                "moved": taken[s.player_id] > 1,
            }
            for s in seats
        ]
    found.seats.sort(key=lambda s: (s["name"].casefold(), s["table"], s["seat"]))
    found.pages = _pages(found.seats, "seats", SEAT_COLUMNS)
    for page in found.pages:
        names = [s["name"] for col in page.columns for s in col]
        page.first, page.last = _initial(names[0]), _initial(names[-1])
    return found
