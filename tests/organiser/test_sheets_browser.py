"""The table sheets as a phone in the hall meets them: every QR code is decoded from a screenshot
of the page (on screen and as printed, at a laptop's and a phone's width) by a real decoder
(zxing-cpp), reads the public base URL (BRAG_PUBLIC_BASE_URL) and the player's page, and that
page opens on the live server. In print each table is one A4 page. Screenshots go to
docs/screenshots/. Chromium comes from the system; without it this is skipped locally."""

from __future__ import annotations

import io
from typing import Any

import zxingcpp
from django.contrib.auth.models import Group, User
from django.db.models import QuerySet
from PIL import Image

from brag_event.events.models import Day
from brag_event.players.links import player_from_token
from brag_event.players.models import Player
from brag_event.players.services import player_register
from brag_event.tables.models import Seat
from brag_event.tables.services import seat_buy_in, table_create
from tests.browser import capture
from tests.factories import world

PUBLIC = "https://brag-hall.example.org"
LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}


def decoded(page: Any, name: str) -> list[str]:
    """The texts of every QR code on a full-page screenshot (kept as docs/screenshots/name
    when asked for: ``tests/browser.shots_asked``)."""
    png = capture(page, name)
    image = Image.open(io.BytesIO(png)).convert("L")
    codes = zxingcpp.read_barcodes(
        image, formats=zxingcpp.BarcodeFormats(zxingcpp.BarcodeFormat.QRCode)
    )
    return [c.text for c in codes if c.valid]


def players(urls: list[str]) -> list[int]:
    """The players whose pages ``urls`` are, in order; each must be the public base URL and a
    valid player's path."""
    found = []
    for url in urls:
        assert url.startswith(PUBLIC + "/p/") and url.endswith("/"), url
        player = player_from_token(url.removeprefix(PUBLIC + "/p/").removesuffix("/"))
        assert player is not None, url
        found.append(player.pk)
    return sorted(found)


def seated() -> QuerySet[Seat]:
    return Seat.objects.filter(left_at__isnull=True).select_related("player")


def test_every_code_on_the_sheets_opens_the_players_page(
    chromium: Any, transactional_db: Any, live_server: Any, settings: Any
) -> None:
    from playwright.sync_api import expect

    settings.BRAG_PUBLIC_BASE_URL = PUBLIC
    w = world(6, money=1000, buy_in=200)
    # A full table of ten (the most a day allows) on one A4 page, with a name of 80 characters.
    Day.objects.filter(pk=w.day.pk).update(seats=10)
    w.day.refresh_from_db()
    second = table_create(day=w.day, by=None)
    for i in range(10):
        name = ("Bartholomew-Fitzwilliam " * 4)[:80].strip() if i == 0 else f"Guest {i}"
        player = player_register(event=w.event, name=name, starting_money=1000, by=None)
        seat_buy_in(table=second, seat_number=i + 1, player=player, amount=200, by=None)
    # A player's link is signed with the time it was made: the same player, not the same text.
    expected = sorted(s.player_id for s in seated())
    assert len(expected) == 16

    organiser = User.objects.create_user("organiser", password="organiser-pw")
    organiser.groups.add(Group.objects.get_or_create(name="organiser")[0])
    base = live_server.url
    context = chromium.new_context(viewport=LAPTOP, device_scale_factor=1)
    page = context.new_page()
    try:
        page.goto(f"{base}/organiser/login/")
        page.get_by_label("Username").fill("organiser")
        page.get_by_label("Password").fill("organiser-pw")
        page.get_by_role("button", name="Sign in").click()
        page.wait_for_url(f"{base}/organiser/events/{w.event.pk}/")
        page.goto(f"{base}/organiser/days/{w.day.pk}/seating/sheets/")
        expect(page.get_by_role("heading", name="Table 2")).to_be_visible()

        for size, label in ((LAPTOP, "laptop"), (PHONE, "phone")):
            page.set_viewport_size(size)
            for media in ("screen", "print"):
                page.emulate_media(media=media)
                texts = decoded(page, f"organiser-sheets-{media}-{label}")
                assert players(texts) == expected, (label, media, texts)
                # The printed address under each code is the code's own.
                assert sorted(page.locator(".sheet .link").all_inner_texts()) == sorted(texts)
                if media == "screen":
                    width = "document.documentElement.scrollWidth - window.innerWidth"
                    assert page.evaluate(width) <= 0, label
        page.set_viewport_size(LAPTOP)

        # Printed (print media, as a browser prints): one A4 page a table, the full table of ten
        # and its name of 80 characters included.
        page.emulate_media(media="print")
        pdf = page.pdf(format="A4", print_background=True)
        assert pdf.count(b"/Type /Page") - pdf.count(b"/Type /Pages") == 2

        # Each address, its path on this server: the player's own page.
        for url in texts:
            page.goto(base + url.removeprefix(PUBLIC))
            name = Player.objects.get(pk=players([url])[0]).name
            expect(page.get_by_role("heading", level=1)).to_have_text(name)
    finally:
        context.close()
