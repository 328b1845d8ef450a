"""Players' phones (390 × 844) and the console's hall page in headless Chromium: an announcement
typed in the console reaches the hall's screen and a player's page; a move shows on the moved
player's page; the page updates in place (no timed reload); "find me" on the standings; the
money chart's labels never overlap; axe-core finds no WCAG 2 A/AA violation."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from brag_event.players.links import player_path
from brag_event.players.services import player_register
from brag_event.tables.models import Seat
from brag_event.tables.seating import seat_move
from brag_event.tables.services import table_create
from tests.axe import assert_no_violations
from tests.browser import DOCS_SHOTS, shot
from tests.factories import act, start, user_in, world

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def phone(chromium: Any) -> Iterator[Any]:
    context = chromium.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    opened = context.new_page()
    opened.set_default_timeout(15_000)
    yield opened
    context.close()


@pytest.fixture
def console(chromium: Any) -> Iterator[Any]:
    context = chromium.new_context(viewport={"width": 1366, "height": 768})
    opened = context.new_page()
    opened.set_default_timeout(15_000)
    yield opened
    context.close()


def faster(page: Any, ms: int = 500) -> None:
    """The pages ask for a new version every few seconds: ask every ``ms`` in the test (the
    same code path, sooner)."""
    page.add_init_script(
        f"""(() => {{ const set = window.setTimeout;
        window.setTimeout = (f, t, ...a) => set(f, t >= 2000 ? {ms} : t, ...a); }})()"""
    )


def overlapping_labels(page: Any) -> list[list[str]]:
    """Pairs of the chart's texts, or a text and the "now" marker, whose boxes intersect."""
    found: list[list[str]] = page.evaluate(
        """() => {
          const t = [...document.querySelectorAll('#money-chart text, #money-chart circle.now')]
            .map(e => { const b = e.getBoundingClientRect();
              return [e.tagName === 'circle' ? 'the now marker' : e.textContent, b]; });
          const out = [];
          for (let i = 0; i < t.length; i++) for (let j = i + 1; j < t.length; j++) {
            const a = t[i][1], b = t[j][1];
            if (a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom)
              out.push([t[i][0], t[j][0]]);
          }
          return out; }"""
    )
    return found


def test_an_announcement_reaches_the_hall_and_a_players_page_and_a_move_is_said(
    transactional_db: Any, live_server: Any, chromium: Any, phone: Any, console: Any
) -> None:
    w = world(3)
    bill = w.players[1]
    # The player's phone, open on their page: it must update in place, never reload.
    faster(phone)
    phone.goto(live_server.url + player_path(bill))
    assert phone.locator('meta[http-equiv="refresh"]').count() == 0
    assert phone.locator("#where").inner_text() == "Table 1, seat 2"
    phone.evaluate("window.__same = true")
    # The hall's screen, open too.
    hall_ctx = chromium.new_context(viewport={"width": 1920, "height": 1080})
    try:
        hall = hall_ctx.new_page()
        faster(hall)
        hall.goto(f"{live_server.url}/standings/{w.event.pk}/hall/")
        assert hall.locator(".announcements").count() == 0

        # The organiser types an announcement and sets the day's clock in the console.
        user_in("organiser", "olive", password="pw-olive-1")
        console.goto(f"{live_server.url}/organiser/login/")
        console.get_by_label("Username").fill("olive")
        console.get_by_label("Password").fill("pw-olive-1")
        console.get_by_role("button", name="Sign in").click()
        console.goto(f"{live_server.url}/organiser/events/{w.event.pk}/hall/")
        console.get_by_label("Announcement", exact=True).fill(
            "Dinner break at 19:30: tables 1 to 10 first"
        )
        console.get_by_role("button", name="Announce").click()
        assert "Announced" in console.locator(".messages").inner_text()
        console.get_by_label("Next break at").fill("19:30")
        console.get_by_label("Day ends at").fill("23:00")
        console.get_by_role("button", name="Set the clock").click()
        assert "clock set" in console.locator(".messages").inner_text()
        shot(console, "console-hall-1366", folder=DOCS_SHOTS)
        assert_no_violations(console)
        console.set_viewport_size(PHONE)  # an organiser on the floor with a phone
        assert console.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        shot(console, "console-hall-390", folder=DOCS_SHOTS)
        console.set_viewport_size({"width": 1366, "height": 768})

        said = "Dinner break at 19:30: tables 1 to 10 first"
        hall.wait_for_function(
            "s => (document.querySelector('.announcements') || {}).textContent?.includes(s)",
            arg=said,
        )
        hall.wait_for_function(
            "() => /Break|Day ends|Last hands/.test(document.getElementById('countdown')"
            ".textContent)"
        )
        phone.wait_for_function(
            "s => (document.querySelector('.announcements') || {}).textContent?.includes(s)",
            arg=said,
        )
        assert phone.evaluate("window.__same") is True

        # The floor moves Bill to a new table: his phone says so, in place.
        second = table_create(day=w.day, by=None)
        seat_move(
            seat=Seat.objects.get(player=bill, left_at=None), to_table=second, to_seat=4, by=None
        )
        notice = phone.locator("#seat-notice")
        notice.get_by_text(f"moved to table {second.number}, seat 4").wait_for()
        assert phone.locator("#where").inner_text() == f"Table {second.number}, seat 4"
        assert phone.evaluate("window.__same") is True
        shot(phone, "player-page-moved-390", folder=DOCS_SHOTS)
        assert_no_violations(phone)
        # Seen: the notice goes, and stays gone on the next visit.
        notice.get_by_role("button", name="Got it").click()
        assert notice.inner_text() == ""
        phone.reload()
        assert phone.locator("#seat-notice").inner_text() == ""

        # Taken down in the console: gone from the hall's screen.
        console.get_by_role("button", name="Take down").click()
        assert "taken down" in console.locator(".messages").inner_text()
        hall.wait_for_function("() => !document.querySelector('.announcements')")
        shot(hall, "hall-after-announcement-1920", folder=DOCS_SHOTS)
    finally:
        hall_ctx.close()


def test_find_me_on_a_phone_and_a_chart_whose_labels_never_overlap(
    transactional_db: Any, live_server: Any, phone: Any
) -> None:
    w = world(3)
    for i in range(60):
        player_register(event=w.event, name=f"Zoë Example {i:02d}", starting_money=500 + i, by=None)
    hand = start(w)  # Bill speaks first
    act(hand, seat=2, action="look")
    act(hand, seat=2, action="bet", amount=10)
    act(hand, seat=3, action="fold")
    act(hand, seat=1, action="fold")
    bill = w.players[1]
    # Bill's own page remembers him on this phone; its chart's labels are apart.
    phone.goto(live_server.url + player_path(bill))
    assert phone.locator("#money-chart text").count() >= 6
    assert overlapping_labels(phone) == []
    shot(phone, "player-page-390", folder=DOCS_SHOTS)
    assert_no_violations(phone)

    phone.goto(f"{live_server.url}/standings/{w.event.pk}/")
    rows = phone.locator("#rows tr[data-player]")
    assert rows.count() == 63
    # Search as you type: accents and case do not matter.
    phone.locator("#find").press_sequentially("zoe example 4")
    phone.wait_for_function(
        "() => document.querySelectorAll('#rows tr[data-player]:not([hidden])').length === 10"
    )
    assert "10 players found" in phone.locator("#find-said").inner_text()
    shot(phone, "standings-find-390", folder=DOCS_SHOTS)
    assert_no_violations(phone)
    phone.locator("#find").fill("nobody like this")
    phone.get_by_text("Nobody's name has").wait_for()
    # "Me": Bill's row, marked and shown.
    me = phone.get_by_role("button", name="Me: Bill")
    me.click()
    mine = phone.locator(f'#rows tr[data-player="{bill.pk}"]')
    assert "me" in (mine.get_attribute("class") or "")
    assert mine.is_visible()
    assert rows.filter(visible=True).count() == 63
    shot(phone, "standings-me-390", folder=DOCS_SHOTS)
    assert_no_violations(phone)
