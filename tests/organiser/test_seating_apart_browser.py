"""The seating draw's page with clubs: each player's club or group beside their name, and the
groups that had to share a table named in words. A screenshot at the console's size."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import Group, User

from brag_event.events.services import day_open, event_create_flash
from brag_event.players.services import player_register
from tests.browser import DOCS_SHOTS, shot

CLUBS = ["Rovers CC"] * 4 + ["Harriers"] * 2 + [""] * 8


def test_the_draw_page_shows_the_clubs_and_who_shares(
    chromium: Any, transactional_db: Any, live_server: Any
) -> None:
    from playwright.sync_api import expect

    event = event_create_flash(name="FLASH", by=None)
    day = day_open(day=event.days.get(number=1), by=None)
    names = [
        "Ann Lee", "Bob Kay", "Cy Dee", "Di Fox", "Ed Moss", "Flo Hart", "Gus Tan",
        "Hal Reed", "Ivy Chen", "Jo Park", "Kim Webb", "Lou Diaz", "Max Shaw", "Ned Ross",
    ]  # fmt: skip
    for name, club in zip(names, CLUBS, strict=True):
        player_register(event=event, name=name, starting_money=1000, group=club, by=None)
    User.objects.create_user("organiser", password="organiser-pw").groups.add(
        Group.objects.get_or_create(name="organiser")[0]
    )
    base = live_server.url
    context = chromium.new_context(viewport={"width": 1366, "height": 768}, device_scale_factor=1)
    page = context.new_page()
    try:
        page.goto(f"{base}/organiser/login/")
        page.get_by_label("Username").fill("organiser")
        page.get_by_label("Password").fill("organiser-pw")
        page.get_by_role("button", name="Sign in").click()
        page.wait_for_url(f"{base}/organiser/events/{event.pk}/")
        page.goto(f"{base}/organiser/days/{day.pk}/seating/")
        page.get_by_label("Seed (optional)").fill("club-night")
        page.get_by_role("button", name="Draw", exact=True).click()
        warning = page.get_by_text("Not every club or group could be kept apart.")
        expect(warning).to_be_visible()
        expect(page.locator(".apart-list li")).to_have_count(1)
        expect(page.locator(".apart-list li")).to_contain_text(
            "Rovers CC: 4 players at 3 tables, so"
        )
        # Every table shows each player's club; the Harriers are at two tables.
        cards = page.locator(".seat-card")
        expect(cards).to_have_count(3)
        harriers = [
            cards.nth(i).locator("td.seat-group", has_text="Harriers").count() for i in range(3)
        ]
        assert sorted(harriers) == [0, 1, 1]
        shot(page, "organiser-seating-apart", folder=DOCS_SHOTS)
    finally:
        context.close()
