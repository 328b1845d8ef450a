"""A player's own hands after the day, on a phone (390×844): the cards shown at the table drawn
as faces, the folded hand without cards, no sideways scrolling; axe-core finds nothing.
Screenshot: docs/screenshots/player-own-hands-390x844.png."""

from __future__ import annotations

from typing import Any

from brag_event.closing.services import day_close_request
from brag_event.players.links import player_path
from tests.axe import assert_no_violations
from tests.browser import DOCS_SHOTS, shot
from tests.factories import world
from tests.scenarios import ends_by_a_see, ends_by_folds

PHONE = {"width": 390, "height": 844}


def test_a_players_own_hands_on_a_phone(
    chromium: Any, transactional_db: Any, live_server: Any, django_capture_on_commit_callbacks: Any
) -> None:
    from playwright.sync_api import expect

    w = world(3, name="FLASH Summer Open")
    ends_by_a_see(w)
    ends_by_folds(w)
    with django_capture_on_commit_callbacks(execute=True):
        day_close_request(day=w.day, by=None)
    bill = w.players[1]
    context = chromium.new_context(viewport=PHONE, device_scale_factor=2)
    page = context.new_page()
    try:
        page.goto(live_server.url + player_path(bill))
        expect(page.get_by_role("heading", level=1)).to_have_text("Bill")
        mine = page.locator(".shown-hands li.own")
        expect(mine).to_have_count(1)
        expect(mine.get_by_role("img")).to_have_attribute("aria-label", "A♠ A♦ 2♣")
        expect(page.locator(".shown-hands li:not(.own) .who")).to_have_text("Chris")
        expect(page.locator(".cards-row .no-cards")).to_have_count(1)
        width = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert width <= 0
        assert_no_violations(page)
        page.locator("#hands-title").scroll_into_view_if_needed()
        shot(page, "player-own-hands-390x844", folder=DOCS_SHOTS)
    finally:
        context.close()
