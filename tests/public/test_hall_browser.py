"""The hall's screen in headless Chromium at 1920 × 1080: it turns through the whole standings of
300 players (cut line and marks) and the seat finder, and takes an announcement typed in the
console and a table move in place, without reloading."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

import pytest

from brag_event.events.hall import announcement_post, day_clock_set
from brag_event.events.models import Day
from brag_event.players.models import Player, Standing
from brag_event.players.services import player_register
from brag_event.tables.models import Seat, SeatingDraw
from brag_event.tables.seating import seat_move, seating_apply, seating_draw
from tests.axe import assert_no_violations
from tests.browser import DOCS_SHOTS, shot
from tests.factories import world

HALL = {"width": 1920, "height": 1080}


@pytest.fixture
def screen(chromium: Any) -> Iterator[Any]:
    context = chromium.new_context(viewport=HALL)
    opened = context.new_page()
    opened.set_default_timeout(15_000)
    yield opened
    context.close()


def three_hundred(w: Any) -> list[Player]:
    """297 more players, their money spread so that some cannot afford day 2 (a cut), each
    counted as having played a hand of day 1 (their day's row written as a hand's start writes
    it: the hall is what is tested here, not 50 tables' play)."""
    players = [
        player_register(
            event=w.event,
            name=f"Player {i:03d} {chr(65 + i % 26)}",
            starting_money=100 + (i * 37) % 900,
            by=None,
        )
        for i in range(297)
    ]
    Standing.objects.bulk_create(
        Standing(player=p, day=w.day, hands_played=1, start_total=p.balance) for p in players
    )
    return players


def shown_slide(screen: Any) -> str:
    return str(screen.locator("#hall").get_attribute("data-slide"))


def test_the_hall_turns_through_300_players_the_cut_and_the_seat_finder(
    transactional_db: Any, live_server: Any, screen: Any, settings: Any
) -> None:
    w = world(3)
    three_hundred(w)
    day = w.day
    draw = seating_draw(day=day, seed="hall", by=None)
    announcement_post(
        event=w.event, text="Day 2's draw is up: find your seat on this screen", by=None
    )
    announcement_post(event=w.event, text="Dinner break at 19:30, tables 1 to 25 first", by=None)
    day_clock_set(day=day, break_at=dt.time(19, 30), ends_at=dt.time(23, 45), by=None)
    assert len({e["player"] for t in draw.plan for e in t["seats"]}) > 200

    screen.goto(f"{live_server.url}/standings/{w.event.pk}/hall/")
    # Every player is on a page of the standings; one page shows at a time.
    assert screen.locator(".standings-slide tbody tr[data-player]").count() == 300
    pages = screen.locator(".standings-slide").count()
    assert pages == 11  # 300 rows and the cut line, 30 a page
    assert screen.locator(".slide:not([hidden])").count() == 1
    first = screen.locator(".standings-slide").first
    assert first.locator("tbody tr[data-player]").count() >= 29
    assert first.locator("table").count() == 2  # two columns
    # The cut line is on one of the pages, once, where the standings put it, and said below.
    assert screen.locator(".cut-line").count() == 1
    assert screen.locator(".cut-line").inner_text().strip()
    legend = screen.locator(".hall-foot .legend").inner_text().strip()
    assert legend == screen.locator(".cut-line").inner_text().strip()
    # Each row fits: nothing of the shown page is cut off by the screen's bottom.
    bottom = screen.evaluate(
        "Math.max(...[...document.querySelectorAll('.slide:not([hidden]) tr')]"
        ".map(r => r.getBoundingClientRect().bottom))"
    )
    assert bottom <= HALL["height"]
    height = screen.evaluate(
        "document.querySelector('.slide:not([hidden]) tbody tr[data-player]')"
        ".getBoundingClientRect().height"
    )
    assert height >= 38  # ~4 cm on a 55-inch screen: read from across the hall
    assert screen.locator(".announcements li").count() == 2
    assert "19:30" in screen.locator("#countdown").get_attribute("data-break")
    shot(screen, "hall-standings-1920", folder=DOCS_SHOTS)
    assert_no_violations(screen)

    # The seat finder: the draw's seats, alphabetically, after the standings.
    finder = screen.locator(".seats-slide")
    assert finder.count() >= 5
    names = finder.locator("tbody th.name").all_inner_texts()
    assert names == sorted(names, key=str.casefold)
    assert "Seats drawn for day 1" in finder.first.locator("h2").inner_text()
    # The pages turn by themselves: the seat finder's turn comes.
    screen.evaluate("window.__same = true")
    screen.wait_for_function("() => document.getElementById('hall').dataset.slide === 'seats-1'")
    screen.evaluate(
        "() => { const s = [...document.querySelectorAll('#slides .slide')];"
        " s.forEach((x, i) => x.hidden = !x.matches('.seats-slide')  || i !== "
        "s.findIndex(y => y.matches('.seats-slide'))); }"
    )
    shot(screen, "hall-seat-finder-1920", folder=DOCS_SHOTS)
    assert_no_violations(screen)

    # The draw applied: the finder shows the seats at the tables; a move is marked.
    seating_apply(draw=SeatingDraw.objects.get(pk=draw.pk), by=None)
    mover = Seat.objects.filter(table__day=day, left_at__isnull=True).order_by("pk").last()
    assert mover is not None
    table = w.table
    free = next(
        n for n in range(1, day.seats + 1) if not table.seats.filter(number=n, left_at=None)
    )
    seat_move(seat=mover, to_table=table, to_seat=free, by=None)
    screen.wait_for_function(
        "name => [...document.querySelectorAll('.seats-slide tr.moved th.name')]"
        ".some(th => th.textContent.includes(name))",
        arg=mover.player.name,
    )
    assert "Seats now, day 1" in screen.locator(".seats-slide h2").first.inner_text()
    row = screen.locator(".seats-slide tr.moved").filter(has_text=mover.player.name)
    assert row.locator(".table").inner_text() == str(table.number)
    assert row.locator(".seat").inner_text() == str(free)
    assert screen.evaluate("window.__same") is True  # in place: never reloaded
    assert Day.objects.get(pk=day.pk).status == Day.Status.OPEN
