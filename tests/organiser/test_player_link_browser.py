"""A player's private link replaced from the console, in headless Chromium: the organiser opens
the player's link page from their page (the code decoded from a screenshot opens that player's
page), asks to replace it, is told what that does, confirms; the new code is shown and opens the
page, while the old link, on a phone, says it was replaced. Screenshots of the link page and of
the question go to ``docs/screenshots/`` (console 1366×768), the old link's page (phone 390×844)
too."""

from __future__ import annotations

import io
from typing import Any

import zxingcpp
from django.conf import settings
from django.contrib.auth.models import Group, User
from django.test import Client
from PIL import Image

from brag_event.audit.models import AuditEntry, Verb
from brag_event.players.links import player_link_holder
from tests.browser import DOCS_SHOTS, capture, shot
from tests.factories import world

LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}


def codes(page: Any, name: str) -> list[str]:
    """The texts of the QR codes on a full-page screenshot (kept as docs/screenshots/name when
    asked for: ``tests/browser.shots_asked``)."""
    png = capture(page, name)
    image = Image.open(io.BytesIO(png)).convert("L")
    found = zxingcpp.read_barcodes(
        image, formats=zxingcpp.BarcodeFormats(zxingcpp.BarcodeFormat.QRCode)
    )
    return [c.text for c in found if c.valid]


def test_an_organiser_replaces_a_players_link_and_the_old_one_says_so(
    transactional_db: Any, live_server: Any, chromium: Any
) -> None:
    from playwright.sync_api import expect

    w = world(3)
    andy = w.players[0]
    organiser = User.objects.create_user("organiser", password="x")
    organiser.groups.add(Group.objects.get_or_create(name="organiser")[0])
    client = Client()
    client.force_login(organiser)
    console = chromium.new_context(viewport=LAPTOP, device_scale_factor=1)
    phone = chromium.new_context(viewport=PHONE, device_scale_factor=1, is_mobile=True)
    try:
        console.add_cookies(
            [
                {
                    "name": settings.SESSION_COOKIE_NAME,
                    "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                    "url": live_server.url,
                }
            ]
        )
        page = console.new_page()
        page.set_default_timeout(20_000)
        page.goto(f"{live_server.url}/organiser/players/{andy.pk}/")
        page.get_by_role("link", name="Their own page's link and code").click()
        expect(page.get_by_role("heading", name="Andy's own page")).to_be_visible()
        [old] = codes(page, "console-player-link-1366")
        assert old == page.locator("#player-link").inner_text()
        holder = player_link_holder(old.rsplit("/p/", 1)[1].strip("/"))
        assert holder is not None and holder.player == andy and not holder.replaced

        page.get_by_role("link", name="Replace this player's link…").click()
        form = page.locator("#replace-form")
        expect(form).to_contain_text("The link above stops working at once")
        shot(page, "console-player-link-replace-1366", folder=DOCS_SHOTS, full_page=False)
        form.get_by_role("button", name="Yes, replace the link").click()
        expect(page.locator(".messages")).to_contain_text("Andy’s link is replaced")
        [new] = codes(page, "console-player-link-replaced-1366")
        assert new != old and new == page.locator("#player-link").inner_text()
        replaced = AuditEntry.objects.filter(verb=Verb.PLAYER_LINK_REISSUE, actor=organiser)
        assert replaced.count() == 1

        mobile = phone.new_page()
        answer = mobile.goto(old)
        assert answer is not None and answer.status == 410
        expect(mobile.get_by_role("heading", name="This link has been replaced")).to_be_visible()
        expect(mobile.locator("main")).to_contain_text("Ask the organisers for your new one.")
        shot(mobile, "player-link-replaced-390", folder=DOCS_SHOTS)
        width = mobile.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"]
        answer = mobile.goto(new)
        assert answer is not None and answer.status == 200
        expect(mobile.get_by_role("heading", name="Andy", exact=True)).to_be_visible()
    finally:
        console.close()
        phone.close()
