"""The standings page in headless Chromium: it re-draws itself from the API when a hand settles,
without reloading. Chromium comes from the system (Debian's ``chromium``); without it this test
is skipped locally and fails under CI (as in ``tests/tablet``)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from brag_event.players.links import player_path
from tests.browser import shot
from tests.factories import act, start, world


@pytest.fixture
def page(chromium: Any) -> Iterator[Any]:
    context = chromium.new_context(viewport={"width": 1280, "height": 800})
    opened = context.new_page()
    opened.set_default_timeout(15_000)
    yield opened
    context.close()  # no page keeps polling into the next test


def test_the_page_updates_itself_when_a_hand_settles(
    transactional_db: Any, live_server: Any, page: Any
) -> None:
    w = world(3)
    page.goto(f"{live_server.url}/standings/{w.event.pk}/")
    bill = page.locator(f'tr[data-player="{w.players[1].pk}"]')
    assert bill.locator(".money").inner_text().startswith("990")
    page.evaluate("window.__sameDocument = true")  # gone if the page reloads

    hand = start(w)  # dealer 1: seat 2 (Bill) first; antes 5 each
    act(hand, seat=2, action="look")
    act(hand, seat=2, action="bet", amount=10)
    act(hand, seat=3, action="fold")
    act(hand, seat=1, action="fold")  # Bill wins 25

    page.wait_for_function(
        "id => { const r = document.querySelector(`tr[data-player='${id}'] .money`);"
        " return r && r.textContent.startsWith('1,000'); }",
        arg=w.players[1].pk,
        timeout=15_000,
    )
    assert page.evaluate("window.__sameDocument") is True
    # Nothing changes now: the next poll names the answer it has and gets a 304; rows stay.
    with page.expect_response(
        lambda r: "/api/v1/events/" in r.url and r.status == 304, timeout=15_000
    ) as unchanged:
        pass
    # (Weak, W/"…", when the answer came compressed: the page's bytes differ, its version not.)
    named = unchanged.value.request.headers["if-none-match"]
    assert named.removeprefix("W/").startswith('"standings-')
    first = page.locator("#rows tr").first
    assert first.locator(".name").inner_text() == "Bill"
    assert first.locator(".change").inner_text() == "0"  # the day began with 1,000
    andy = page.locator(f'tr[data-player="{w.players[0].pk}"] .change')
    assert andy.inner_text() == "\u221215"  # the fee and the ante
    assert "down" in (andy.get_attribute("class") or "")
    assert bill.locator(".won").inner_text() == "1"
    shot(page, "standings")
    page.goto(live_server.url + player_path(w.players[1]))
    assert page.locator(".result").first.inner_text() == "won 25"
    assert page.locator("#money-chart circle.point").count() == 2  # the day's start, one hand
    shot(page, "player-page")


def test_the_big_screen_pages_through_rows_that_do_not_fit(
    transactional_db: Any, live_server: Any, chromium: Any
) -> None:
    from brag_event.players.services import player_register

    w = world(2)
    for i in range(40):
        player_register(event=w.event, name=f"Player {i:02d}", starting_money=500, by=None)
    context = chromium.new_context(viewport={"width": 1280, "height": 720})
    try:
        screen = context.new_page()
        screen.goto(f"{live_server.url}/standings/{w.event.pk}/?big=1")
        root = screen.locator("#standings")
        pages = int(root.get_attribute("data-pages") or "0")
        assert pages > 1
        visible = screen.locator("#rows tr:not([hidden])").count()
        assert 0 < visible < 42
        assert screen.locator("header.site-header").count() == 0
        shot(screen, "standings-big-screen")
    finally:
        context.close()
