"""The set-up page of a three-day event in Kolkata on a phone (390×844) and a laptop
(1366×768): nothing scrolls sideways (it was 865 px wide: a table's hidden heading widened the
page), each day a card of its rules on the phone; axe-core finds nothing. Screenshots go to
docs/screenshots/."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.conf import settings
from django.test import Client

from brag_event.events.setup import event_create, flash_preset
from tests.axe import assert_no_violations
from tests.browser import DOCS_SHOTS, shot
from tests.factories import user_in

SIZES = {"390": {"width": 390, "height": 844}, "1366": {"width": 1366, "height": 768}}


def test_the_set_up_of_a_three_day_event_fits_a_phone(
    chromium: Any, transactional_db: Any, live_server: Any
) -> None:
    from playwright.sync_api import expect

    event = event_create(
        name="Kolkata Three Card Brag Open 2027",
        currency="INR",
        start=dt.date(2027, 1, 15),
        days=flash_preset(),
        time_zone="Asia/Kolkata",
        by=None,
    )
    client = Client()
    client.force_login(user_in("organiser", "olga"))
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    for name, size in SIZES.items():
        context = chromium.new_context(viewport=size, device_scale_factor=1)
        context.add_cookies(
            [{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": live_server.url}]
        )
        page = context.new_page()
        try:
            page.goto(f"{live_server.url}/organiser/events/{event.pk}/setup/")
            expect(page.get_by_role("heading", level=1)).to_contain_text("Set-up of Kolkata")
            wide = page.evaluate("document.documentElement.scrollWidth")
            assert wide <= size["width"], f"{wide} px wide at {size['width']}"
            for number in (1, 2, 3):
                day = page.locator(f"#day-{number}")
                expect(day.get_by_role("link", name=f"Edit day {number}")).to_be_visible()
                box = day.bounding_box()
                assert box and box["x"] >= 0 and box["x"] + box["width"] <= size["width"]
            expect(page.locator("#day-3")).to_contain_text("Sun 17 Jan 2027")
            assert_no_violations(page)
            shot(page, f"organiser-setup-{name}", folder=DOCS_SHOTS)
        finally:
            context.close()
