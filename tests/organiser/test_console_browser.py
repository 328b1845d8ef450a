"""The organiser's console in headless Chromium, at a laptop's 1366×768 and a 10" tablet's
1180×820: signing in lands on the dashboard, every console page fits the screen (a 80-character
player name included), the day close asks for confirmation and ends with its report, the
dashboard then shows the close's ledger audit, and signing out works. Screenshots of the
dashboard, the close's confirmation and report and the seating pages go to docs/screenshots/
(README). Chromium comes from the system; without it this is skipped locally (as in
tests/tablet)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import Group, User
from django.core.cache import cache

from brag_event.players.services import player_register
from tests.browser import DOCS_SHOTS
from tests.browser import shot as screenshot
from tests.factories import act, start, world

LAPTOP = {"width": 1366, "height": 768}
TABLET = {"width": 1180, "height": 820}


def shot(page: Any, name: str) -> None:
    screenshot(page, name, folder=DOCS_SHOTS)


def overflow(page: Any) -> int:
    """How many pixels the page is wider than the window (0: nothing scrolls sideways)."""
    return int(page.evaluate("document.documentElement.scrollWidth - window.innerWidth"))


def sign_in(page: Any, url: str, username: str, password: str) -> None:
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Sign in").click()


def test_an_organiser_runs_the_console(
    chromium: Any, transactional_db: Any, live_server: Any
) -> None:
    from playwright.sync_api import expect

    cache.clear()
    w = world(3, money=1000, buy_in=200)
    hand = start(w)
    act(hand, seat=2, action="look")
    act(hand, seat=2, action="bet", amount=10)
    act(hand, seat=3, action="fold")
    act(hand, seat=1, action="fold")
    long_name = ("Bartholomew-Fitzwilliam " * 4)[:80].strip()
    player_register(event=w.event, name=long_name, starting_money=500, by=None)
    organiser = User.objects.create_user("organiser", password="organiser-pw")
    organiser.groups.add(Group.objects.get_or_create(name="organiser")[0])
    dealer = User.objects.create_user("dealer", password="dealer-pw")
    dealer.groups.add(Group.objects.get_or_create(name="dealer")[0])
    w.table.dealers.add(dealer)
    base = live_server.url

    context = chromium.new_context(viewport=LAPTOP, device_scale_factor=1)
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        # Sign in: the console's own page, then straight to the event's dashboard.
        page.goto(f"{base}/organiser/")
        expect(page.get_by_role("heading", name="Sign in to the console")).to_be_visible()
        sign_in(page, base, "organiser", "wrong")
        expect(page.get_by_text("That user name and password do not match")).to_be_visible()
        sign_in(page, base, "organiser", "organiser-pw")
        page.wait_for_url(f"{base}/organiser/events/{w.event.pk}/")
        expect(page.locator("#tables")).to_contain_text("hand")
        expect(page.locator("#audit")).to_contain_text("Not run yet")
        shot(page, "organiser-dashboard")

        # The seating pages, under the same navigation.
        pages = {
            "seating": f"/organiser/days/{w.day.pk}/seating/",
            "sheets": f"/organiser/days/{w.day.pk}/seating/sheets/",
            "balance": f"/organiser/days/{w.day.pk}/seating/balance/",
            "dealers": f"/organiser/days/{w.day.pk}/seating/dealers/",
        }
        page.goto(base + pages["seating"])
        page.get_by_role("button", name="Draw").click()
        expect(page.get_by_text("Not in this draw")).to_be_visible()
        shot(page, "organiser-seating")
        page.goto(base + pages["dealers"])
        shot(page, "organiser-seating-dealers")

        # Every console page fits a laptop and a 10" tablet.
        every = [
            "/organiser/",
            f"/organiser/events/{w.event.pk}/",
            f"/organiser/events/{w.event.pk}/players/",
            f"/organiser/days/{w.day.pk}/close/",
            "/organiser/tokens/",
            "/organiser/lockouts/",
            f"/organiser/events/{w.event.pk}/integrity/",
            *pages.values(),
        ]
        for size in (LAPTOP, TABLET):
            page.set_viewport_size(size)
            for path in every:
                page.goto(base + path)
                assert overflow(page) <= 0, (size, path, overflow(page))
                if "/players/" not in path:  # the players' page is being rebuilt (issue 16b)
                    nav = page.get_by_role("navigation", name="Console")
                    expect(nav.get_by_role("link", name="Events")).to_be_visible()
        page.set_viewport_size(LAPTOP)

        # The close: the rule, what will happen and a confirmation, then the report.
        page.goto(f"{base}/organiser/days/{w.day.pk}/close/")
        page.get_by_label("The top").check()
        page.get_by_label("How many players go through (N)").fill("")
        page.get_by_role("button", name="Close day 1…").click()
        expect(page.get_by_text("Say how many players go through (the top N).")).to_be_visible()
        page.get_by_label("How many players go through (N)").fill("2")
        page.get_by_role("button", name="Close day 1…").click()
        expect(page.get_by_role("heading", name="Close day 1 now?")).to_be_visible()
        shot(page, "organiser-close-confirm")
        page.get_by_role("button", name="Yes, close day 1").click()
        expect(page.get_by_role("heading", name="Report of day 1's close")).to_be_visible()
        expect(page.locator("#close-status")).to_have_text("Done")
        expect(page.locator("#missed")).to_contain_text(long_name[:20])
        assert overflow(page) <= 0
        shot(page, "organiser-close-report")
        page.set_viewport_size(TABLET)
        assert overflow(page) <= 0
        page.set_viewport_size(LAPTOP)

        # The dashboard shows the close's audit, with its time.
        page.get_by_role("navigation", name="Console").get_by_role("link", name="Dashboard").click()
        expect(page.locator("#audit")).to_contain_text("PASS")

        # Signing out.
        page.locator(".account > summary").click()  # the account menu: who is signed in
        page.get_by_role("button", name="Log out").click()
        expect(page.get_by_text("You are signed out.")).to_be_visible()
        page.goto(f"{base}/organiser/events/{w.event.pk}/")
        expect(page.get_by_role("heading", name="Sign in to the console")).to_be_visible()

        # A dealer who signs in here is told where to go.
        sign_in(page, base, "dealer", "dealer-pw")
        expect(page.get_by_text("Dealers enter hands on the tablet")).to_be_visible()
        expect(page.get_by_role("link", name="Open the tablet")).to_have_attribute(
            "href", "/tablet/"
        )
    finally:
        context.close()
