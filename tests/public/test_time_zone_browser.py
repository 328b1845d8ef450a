"""The hall's big screen shows the event's time, not the display's: a browser set to Los Angeles
shows a Tokyo event's clock in Tokyo time, with the zone's name. Also screenshots of the pages
with zoned times (big screen 1920×1080, a player's phone 390×844, the dashboard 1366×768 and
390×844). Chromium comes from the system; without it this is skipped locally."""

from __future__ import annotations

import datetime as dt
import re
import zoneinfo
from typing import Any

from django.contrib.auth.models import Group, User

from brag_event.players.links import player_path
from tests.browser import DOCS_SHOTS, shot
from tests.factories import played, world

HALL = {"width": 1920, "height": 1080}
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 768}


def hours(zone: str) -> set[str]:
    """The clock's hour and minute in ``zone`` now, or a minute either side (a slow machine)."""
    now = dt.datetime.now(zoneinfo.ZoneInfo(zone))
    return {(now + dt.timedelta(minutes=m)).strftime("%H:%M") for m in (-1, 0, 1)}


def test_the_big_screen_shows_the_events_time_whatever_the_displays_zone(
    chromium: Any, transactional_db: Any, live_server: Any
) -> None:
    from playwright.sync_api import expect

    w = world(3, name="Tokyo Open", time_zone="Asia/Tokyo")
    played(w)
    context = chromium.new_context(
        viewport=HALL, device_scale_factor=1, timezone_id="America/Los_Angeles"
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        page.goto(f"{live_server.url}/standings/{w.event.pk}/?big=1")
        assert page.evaluate("Intl.DateTimeFormat().resolvedOptions().timeZone") == (
            "America/Los_Angeles"
        )
        # The script's own clock: the server's text is replaced, then written again by a poll.
        page.evaluate("document.getElementById('updated').textContent = ''")
        page.wait_for_function(
            "() => document.getElementById('updated').textContent.startsWith('Updated ')",
            timeout=20_000,
        )
        text = page.locator("#updated").inner_text()
        found = re.fullmatch(r"Updated (\d\d:\d\d):\d\d JST", text)
        assert found, text
        assert found.group(1) in hours("Asia/Tokyo")
        assert not hours("America/Los_Angeles") & hours("Asia/Tokyo")
        shot(page, "standings-big-screen-tokyo-zone", folder=DOCS_SHOTS)

        # A player's page on their phone: the hands' times, with the zone.
        phone = context.new_page()
        phone.set_viewport_size(PHONE)
        phone.goto(live_server.url + player_path(w.players[1]))
        expect(phone.locator("table").last).to_contain_text("JST")
        shot(phone, "player-page-times-with-zone", folder=DOCS_SHOTS)
        phone.close()

        # The organiser's dashboard in a browser elsewhere: its clock too.
        organiser = User.objects.create_user("organiser", password="organiser-pw")
        organiser.groups.add(Group.objects.get_or_create(name="organiser")[0])
        page.set_viewport_size(LAPTOP)
        page.goto(f"{live_server.url}/organiser/login/")
        page.get_by_label("Username").fill("organiser")
        page.get_by_label("Password").fill("organiser-pw")
        page.get_by_role("button", name="Sign in").click()
        page.wait_for_url(f"{live_server.url}/organiser/events/{w.event.pk}/")
        page.evaluate("document.getElementById('live-updated').textContent = ''")
        page.wait_for_function(
            "() => document.getElementById('live-updated').textContent.startsWith('Updated ')",
            timeout=20_000,
        )
        text = page.locator("#live-updated").inner_text()
        found = re.fullmatch(r"Updated (\d\d:\d\d):\d\d JST", text)
        assert found and found.group(1) in hours("Asia/Tokyo"), text
        page.goto(f"{live_server.url}/organiser/events/{w.event.pk}/audit/")
        expect(page.locator("table").first).to_contain_text("JST")
        shot(page, "organiser-audit-log-times-with-zone", folder=DOCS_SHOTS)
        page.set_viewport_size(PHONE)
        shot(page, "organiser-audit-log-times-with-zone-phone", folder=DOCS_SHOTS)
    finally:
        context.close()
