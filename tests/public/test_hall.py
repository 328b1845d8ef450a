"""The hall's screen's read side (public.hall): pages of the standings with the cut line where
it falls, the seat finder from a draw or the tables, and the player's chart's label layout."""

from __future__ import annotations

import datetime as dt

import pytest

from brag_event.players.services import player_register
from brag_event.public.hall import ROWS_PER_COLUMN, seat_finder, standings_pages
from brag_event.public.selectors import CHAR_WIDTH, LABEL_GAP, Point, money_chart
from brag_event.tables.models import Seat
from brag_event.tables.seating import seat_move, seating_draw
from brag_event.tables.services import table_create
from tests.factories import world

pytestmark = pytest.mark.django_db


def rows(n: int) -> list[dict[str, object]]:
    return [{"player": i, "name": f"P{i}"} for i in range(n)]


def test_pages_of_two_columns_with_the_cut_line_in_its_place() -> None:
    pages = standings_pages(rows(70), {"after": 40, "text": "cut"})
    assert [p.number for p in pages] == [1, 2, 3] and pages[0].of == 3
    assert [len(c) for c in pages[0].columns] == [ROWS_PER_COLUMN, ROWS_PER_COLUMN]
    items = [item for p in pages for c in p.columns for item in c]
    assert len(items) == 71
    assert items[40] == {"cut": "cut"}
    assert items[39]["player"] == 39 and items[41]["player"] == 40
    # A cut after the last row is at the end; no cut, no line.
    assert standings_pages(rows(3), {"after": 3, "text": "c"})[0].columns[0][-1] == {"cut": "c"}
    assert all("cut" not in i for p in standings_pages(rows(3), None) for c in p.columns for i in c)
    assert standings_pages([], None) == []


def test_the_seat_finder_shows_a_new_draw_then_the_tables_with_moves() -> None:
    w = world(3)
    for name in ("zed", "Amy", "bob"):
        player_register(event=w.event, name=name, starting_money=1000, by=None)
    now = seat_finder(w.event, w.day)
    assert now.title == "Seats now, day 1"
    assert [s["name"] for s in now.seats] == ["Andy", "Bill", "Chris"]
    draw = seating_draw(day=w.day, seed="s", by=None)
    drawn = seat_finder(w.event, w.day)
    assert drawn.title == "Seats drawn for day 1"
    assert [s["name"] for s in drawn.seats] == ["Amy", "bob", "zed"]  # alphabetical, any case
    planned = {e["name"]: (t["table"], e["seat"]) for t in draw.plan for e in t["seats"]}
    assert all((s["table"], s["seat"]) == planned[s["name"]] for s in drawn.seats)
    # A seat taken after the draw: the tables are what is true now.
    second = table_create(day=w.day, by=None)
    seat_move(
        seat=Seat.objects.get(player=w.players[0], left_at=None),
        to_table=second,
        to_seat=2,
        by=None,
    )
    moved = seat_finder(w.event, w.day)
    assert moved.title == "Seats now, day 1"
    andy = next(s for s in moved.seats if s["name"] == "Andy")
    assert (andy["table"], andy["seat"], andy["moved"]) == (second.number, 2, True)
    assert not next(s for s in moved.seats if s["name"] == "Bill")["moved"]
    assert moved.pages[0].first == "A" and moved.pages[0].last == "C"


def at(total: int, hand: int | None = None) -> Point:
    return Point(dt.datetime(2026, 1, 1, tzinfo=dt.UTC), total, "x", hand)


@pytest.mark.parametrize(
    "totals",
    [
        [1000, 1001],  # "now" a hair above "start"
        [1000, 999],
        [1000, 1000],
        [1_000_000, 1_250_000, 999_990],  # wide labels
        [50, 9_000_000, 51],
    ],
)
def test_the_charts_labels_keep_apart(totals: list[int]) -> None:
    points = [at(totals[0])] + [at(t, n) for n, t in enumerate(totals[1:], start=1)]
    chart = money_chart(points)
    assert abs(chart.now["label_y"] - chart.now["start_label_y"]) >= LABEL_GAP - 0.2
    widest = max(len(t["label"]) for t in chart.y_ticks)
    assert chart.plot["left"] - 6 >= widest * CHAR_WIDTH  # the ticks' labels end before the axis
    words = max(len(f"start {totals[0]:,}"), len(f"now {totals[-1]:,}"))
    assert chart.plot["right"] + 6 + words * CHAR_WIDTH <= chart.width
    assert chart.plot["top"] >= 30  # room for the axis's title above it
