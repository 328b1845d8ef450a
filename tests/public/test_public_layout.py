"""The players' pages measured in headless Chromium: the standings on a 390 px phone (every
column on the screen), the hall's screen at 1920×1080 (ten rows, nothing cut, a readable
"Updated", no tabs) and a player's page on a phone. With ``BRAG_DOCS_SHOTS=1`` the screenshots
go to ``docs/screenshots/``."""

from __future__ import annotations

import os
from typing import Any

import pytest

from brag_event.players.links import player_path
from brag_event.players.services import player_register
from tests.browser import DOCS_SHOTS, SHOTS, shot
from tests.factories import act, start, world

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


def save(page: Any, name: str) -> None:
    shot(page, name, folder=DOCS_SHOTS if os.environ.get("BRAG_DOCS_SHOTS") else SHOTS)


def hall_of(players: int) -> Any:
    w = world(3)
    for i in range(players - 3):
        player_register(
            event=w.event, name=f"Gwendolyn Castell{i:03d}", starting_money=500 + i, by=None
        )
    hand = start(w)
    act(hand, seat=2, action="fold")
    act(hand, seat=3, action="fold")
    return w


def open_at(chromium: Any, url: str, width: int, height: int) -> Any:
    context = chromium.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(url)
    return page


def test_the_standings_fit_a_phone(
    transactional_db: Any,
    live_server: Any,
    chromium: Any,
) -> None:
    w = hall_of(8)
    page = open_at(chromium, f"{live_server.url}/standings/{w.event.pk}/", 390, 844)
    try:
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        # Every cell of every column, the headings too, inside the screen (measured at once:
        # the page re-draws its rows from the API every few seconds).
        outside = page.evaluate(
            """() => [...document.querySelectorAll('#standings th, #standings td')]
                .map(e => [e.className + ' ' + e.textContent.trim(), e.getBoundingClientRect()])
                .filter(([, r]) => r.left < 0 || r.right > 390).map(([n]) => n)"""
        )
        assert outside == []
        columns = page.evaluate(
            """() => ['rank', 'name', 'money', 'change', 'played', 'won'].map(
                c => document.querySelectorAll('#rows tr .' + c).length)"""
        )
        assert columns == [8] * 6
        # Short headings on a phone; the long ones are kept for screen readers.
        assert page.locator("thead .short").all_inner_texts() == ["#", "Change", "Hands"]
        save(page, "standings-390x844")
    finally:
        page.context.close()


def test_the_big_screen_shows_ten_rows_uncut_with_a_readable_time_and_no_tabs(
    transactional_db: Any,
    live_server: Any,
    chromium: Any,
) -> None:
    w = hall_of(10)
    page = open_at(chromium, f"{live_server.url}/standings/{w.event.pk}/?big=1", 1920, 1080)
    try:
        assert page.evaluate("document.documentElement.scrollHeight") <= 1080
        rows = page.locator("#rows tr:not([hidden])")
        # Ten players and the cut line (a row of its own since the marks came in): all shown.
        assert page.locator("#rows tr[data-player]:not([hidden])").count() == 10
        assert rows.count() == 10 + page.locator("#rows tr.cut-line").count()
        for i in range(rows.count()):
            box = rows.nth(i).bounding_box()
            assert box is not None and box["y"] + box["height"] <= 1080
        assert page.locator("#standings").get_attribute("data-pages") == "1"
        assert page.locator(".tabs").count() == 0
        size = page.evaluate(
            "parseFloat(getComputedStyle(document.getElementById('updated')).fontSize)"
        )
        assert size >= 28  # read from across the hall
        assert page.locator("#updated").inner_text().startswith("Updated ")
        save(page, "standings-big-screen-1920x1080")
    finally:
        page.context.close()


def test_a_players_page_on_a_phone(
    transactional_db: Any,
    live_server: Any,
    chromium: Any,
) -> None:
    w = hall_of(3)
    hand = start(w)
    act(hand, seat=3, action="look")
    act(hand, seat=3, action="bet", amount=5)
    act(hand, seat=1, action="fold")
    act(hand, seat=2, action="fold")
    page = open_at(chromium, live_server.url + player_path(w.players[2]), 390, 844)
    try:
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        chart = page.locator("#money-chart").bounding_box()
        assert chart is not None and chart["x"] + chart["width"] <= 390
        assert page.locator("#money-chart circle.point").count() == 3
        save(page, "player-page-390x844")
        page.set_viewport_size({"width": 1280, "height": 800})
        save(page, "player-page")
    finally:
        page.context.close()
