"""Check-in in headless Chromium (issue 47): the organiser opens check-in on the console; a
qualifier checks in from their phone's page (390×844) while the hall says "Check in now" with the
count; another is found at the desk as the organiser types and checked in there; the draw seats
only the checked-in and lists the no-shows; a late arrival is checked in at the desk and seated
where balancing puts one more. Screenshots at the users' sizes, kept in docs/screenshots."""

from __future__ import annotations

from datetime import timedelta
from typing import Any
from zoneinfo import ZoneInfo

from django.contrib.auth.models import Group, User
from django.utils import timezone

from brag_event.events.models import Day, Event
from brag_event.events.services import day_open, event_create_flash
from brag_event.players.checkin import player_check_in
from brag_event.players.links import player_path
from brag_event.players.models import CheckIn, Player
from brag_event.players.services import player_register
from brag_event.tables.models import Seat
from tests.browser import DOCS_SHOTS, shot

NAMES = [
    "Ann Lee", "Bob Kay", "Cy Dee", "Di Fox", "Ed Moss", "Flo Hart",
    "Samira Okafor", "Gus Tan", "Hal Reed",
]  # fmt: skip
ZONE = "Europe/Paris"


def sign_in(page: Any, base: str, event: Event) -> None:
    page.goto(f"{base}/organiser/login/")
    page.get_by_label("Username").fill("organiser")
    page.get_by_label("Password").fill("organiser-pw")
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(f"{base}/organiser/events/{event.pk}/")


def fits(page: Any) -> None:
    """Nothing wider than the screen (a phone scrolls down, never sideways)."""
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], width


def test_check_in_from_the_phone_and_the_desk_then_the_draw_and_a_late_arrival(
    chromium: Any, transactional_db: Any, live_server: Any
) -> None:
    from playwright.sync_api import expect

    event = event_create_flash(name="FLASH", by=None)
    Event.objects.filter(pk=event.pk).update(time_zone=ZONE)
    day = day_open(day=Day.objects.get(event=event, number=1), by=None)
    players = {
        name: player_register(event=event, name=name, starting_money=1000, by=None)
        for name in NAMES
    }
    User.objects.create_user("organiser", password="organiser-pw").groups.add(
        Group.objects.get_or_create(name="organiser")[0]
    )
    base = live_server.url
    checkin = f"{base}/organiser/days/{day.pk}/seating/check-in/"
    console = chromium.new_context(viewport={"width": 1366, "height": 768}, locale="en-GB")
    phone = chromium.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    hall = chromium.new_context(viewport={"width": 1920, "height": 1080})
    try:
        desk = console.new_page()
        sign_in(desk, base, event)
        desk.goto(checkin)
        expect(desk.locator("#checkin-status")).to_contain_text("Check-in is not open")
        here = timezone.now().astimezone(ZoneInfo(ZONE))
        desk.get_by_label("Check-in opens").fill(f"{here - timedelta(minutes=5):%Y-%m-%dT%H:%M}")
        desk.get_by_label("Check-in closes").fill(f"{here + timedelta(hours=1):%Y-%m-%dT%H:%M}")
        expect(
            desk.get_by_label("The seating draw seats only the players checked in")
        ).to_be_checked()
        desk.get_by_role("button", name="Open check-in").click()
        expect(desk.locator("#checkin-status")).to_contain_text("Check-in is open")
        expect(desk.locator("#checkin-status")).to_contain_text("0 of 9 players checked in")

        # Ann checks in from her phone's page.
        mine = phone.new_page()
        mine.goto(base + player_path(players["Ann Lee"]))
        mine.get_by_role("button", name="Check in for day 1").click()
        expect(mine.locator("#checkin")).to_contain_text("You are checked in")
        fits(mine)
        shot(mine, "player-checked-in-390", folder=DOCS_SHOTS, full_page=False)

        # The hall says so, with the count.
        screen = hall.new_page()
        screen.goto(f"{base}/standings/{event.pk}/hall/")
        banner = screen.locator(".checkin-banner")
        expect(banner).to_contain_text("Check in now for day 1")
        expect(banner).to_contain_text("1 of 9 checked in")
        shot(screen, "hall-check-in-1920", folder=DOCS_SHOTS, full_page=False)
        screen.set_viewport_size({"width": 1280, "height": 720})
        expect(banner).to_be_visible()
        shot(screen, "hall-check-in-1280", folder=DOCS_SHOTS, full_page=False)

        # Samira at the desk: found as the organiser types part of her name.
        desk.get_by_label("Find a player").press_sequentially("okaf", delay=60)
        button = desk.get_by_role("button", name="Check in Samira Okafor")
        expect(button).to_be_visible()
        assert "q=okaf" in desk.url
        expect(desk.locator("#desk-results")).not_to_contain_text("Bob Kay")
        button.click()
        expect(desk.get_by_text("Samira Okafor checked in.")).to_be_visible()
        # The hall's screen, left as it was, counts her in on its next poll (no reload).
        expect(screen.locator(".checkin-banner")).to_contain_text("2 of 9 checked in")
        # Five more check in from their pages; Gus and Hal do not come.
        for name in NAMES[1:6]:
            player_check_in(day=day, player=players[name], how="page", by=None)
        desk.goto(checkin)
        expect(desk.locator("#checkin-status")).to_contain_text("7 of 9 players checked in")
        expect(desk.locator(".no-shows li")).to_have_count(2)

        # The draw seats the seven checked in; Gus and Hal are listed as not checked in.
        desk.goto(f"{base}/organiser/days/{day.pk}/seating/")
        desk.get_by_role("button", name="Draw", exact=True).click()
        rows = desk.locator("table.seat-table", has=desk.get_by_text("Why")).locator("tbody tr")
        expect(rows).to_have_count(2)
        expect(rows.nth(0)).to_contain_text("Gus Tan")
        expect(rows.nth(0)).to_contain_text("not checked in")
        desk.get_by_role("button", name="Apply this draw…").click()
        desk.get_by_role("button", name="Yes, apply draw").click()
        expect(desk.get_by_text("7 players seated")).to_be_visible()
        seated = set(
            Seat.objects.filter(table__day=day, left_at__isnull=True).values_list(
                "player__name", flat=True
            )
        )
        assert seated == set(NAMES[:7])

        # Gus arrives late: checked in at the desk, seated at the table of three.
        desk.goto(checkin)
        desk.get_by_label("Find a player").press_sequentially("gus", delay=60)
        desk.get_by_role("button", name="Check in Gus Tan").click()
        expect(desk.get_by_text("Gus Tan checked in.")).to_be_visible()
        late = desk.locator("#late")
        expect(late).to_contain_text("the table with the fewest players (3)")
        shot(desk, "organiser-check-in-1366", folder=DOCS_SHOTS)
        late.get_by_role("button", name="Seat Gus Tan").click()
        seat = Seat.objects.get(player=players["Gus Tan"], left_at__isnull=True)
        expect(desk.get_by_text(f"Gus Tan seated at table {seat.table.number}")).to_be_visible()
        at_table = Seat.objects.filter(table=seat.table, left_at__isnull=True).count()
        assert at_table == 4
        assert CheckIn.objects.filter(day=day).count() == 8
        assert not Player.objects.filter(name="Hal Reed", seats__isnull=False).exists()

        # The console's page on a phone-sized screen: it fits.
        small = console.new_page()
        small.set_viewport_size({"width": 390, "height": 844})
        small.goto(checkin)
        fits(small)
        shot(small, "organiser-check-in-390", folder=DOCS_SHOTS)

        # The floor supervisor at the desk on a phone: from the floor's page to the desk, Hal
        # checked in there; the window's times are not theirs to change (not shown).
        User.objects.create_user("sue", password="sue-pw").groups.add(
            Group.objects.get_or_create(name="supervisor")[0]
        )
        sue = phone.new_page()
        sue.goto(f"{base}/organiser/login/")
        sue.get_by_label("Username").fill("sue")
        sue.get_by_label("Password").fill("sue-pw")
        sue.get_by_role("button", name="Sign in").click()
        sue.wait_for_load_state()
        sue.goto(f"{base}/organiser/events/{event.pk}/floor/")
        sue.get_by_role("link", name="Check-in desk, day 1").click()
        expect(sue.locator("#checkin-status")).to_contain_text("8 of 9 players checked in")
        expect(sue.locator("#window")).to_have_count(0)
        sue.get_by_label("Find a player").press_sequentially("hal", delay=60)
        sue.get_by_role("button", name="Check in Hal Reed").click()
        expect(sue.get_by_text("Hal Reed checked in.")).to_be_visible()
        fits(sue)
        shot(sue, "supervisor-check-in-390", folder=DOCS_SHOTS)
        by = CheckIn.objects.get(player=players["Hal Reed"]).by
        assert by is not None and by.username == "sue"
    finally:
        console.close()
        phone.close()
        hall.close()
