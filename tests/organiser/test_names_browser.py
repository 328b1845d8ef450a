"""Names that tell people apart, in Chromium (issue 43): a players' file with two John Smiths
(6001, 6002) and a look-alike "Jоhn Smith" previewed — told apart by their numbers, the
look-alike asked — at the console's sizes; removing a player asks once; and the hall's board at
its sizes shows each long look-alike name's number whole, the name cut short instead.
Screenshots go to docs/screenshots/."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth.models import Group, User
from django.test import Client

from brag_event.events.services import day_open, event_create_flash
from brag_event.players.services import player_register
from tests.axe import assert_no_violations
from tests.browser import DOCS_SHOTS, shot

CONSOLE = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}
HALL = [{"width": 1920, "height": 1080}, {"width": 1280, "height": 720}]
LONG = "Bartholomew Featherstonehaugh-Cholmondeley"
FILE = (
    "Name,Membership number,Starting money\n"
    "John Smith,6001,1000\n"
    "John Smith,6002,1000\n"
    "J\u043ehn Smith,6003,1000\n"
    "Vera Wang,6004,1000\n"
    "VERA  WANG,6005,1000\n"
)


def page_for(browser: Any, url: str, user: User | None, viewport: dict[str, int]) -> Any:
    context = browser.new_context(viewport=viewport, device_scale_factor=1)
    if user is not None:
        client = Client()
        client.force_login(user)
        cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
        context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": url}])
    page = context.new_page()
    page.set_default_timeout(20_000)
    return page


def test_same_names_are_told_apart_in_the_console_and_the_hall(
    chromium: Any, transactional_db: Any, live_server: Any, tmp_path: Any
) -> None:
    from playwright.sync_api import expect

    event = event_create_flash(name="Names", starting_money=1000, by=None)
    day_open(day=event.days.get(number=1), by=None)
    first = player_register(event=event, name=LONG, by=None)
    player_register(event=event, name=LONG.upper(), look_alike_confirmed=True, by=None)
    oops = player_register(event=event, name="Oops Typo", by=None)
    organiser = User.objects.create_user("organiser", password="x")
    organiser.groups.add(Group.objects.get_or_create(name="organiser")[0])
    base = live_server.url
    players_file = tmp_path / "players.csv"
    players_file.write_text(FILE, encoding="utf-8")

    for size, viewport in (("1366", CONSOLE), ("390", PHONE)):
        page = page_for(chromium, base, organiser, viewport)
        try:
            page.goto(f"{base}/organiser/events/{event.pk}/players/")
            form = page.locator("form:has(input[name=form][value=import])")
            form.locator("input[type=file]").set_input_files(str(players_file))
            form.get_by_role("button", name="Preview the import").click()
            expect(page.get_by_text("Check before importing")).to_be_visible()
            rows = page.locator("table.import-rows tbody tr")
            expect(rows.nth(1)).to_contain_text("told apart by their numbers")
            expect(rows.nth(2)).to_contain_text("asks you")
            expect(rows.nth(2)).to_contain_text("line 2 of this file")
            expect(rows.nth(4)).to_contain_text("told apart by their numbers")
            width = page.evaluate("() => document.documentElement.scrollWidth")
            assert width <= viewport["width"], (size, width)
            assert_no_violations(page)
            shot(page, f"organiser-import-same-names-{size}", folder=DOCS_SHOTS)
        finally:
            page.context.close()

    # Removing a player asks once, with the reason said back.
    page = page_for(chromium, base, organiser, CONSOLE)
    try:
        page.goto(f"{base}/organiser/players/{oops.pk}/")
        form = page.locator("#remove-form")
        form.get_by_label("Why (for the log)").fill("registered twice")
        form.get_by_role("button", name="Remove Oops Typo…").click()
        expect(page.locator("#remove-confirm")).to_be_visible()
        expect(page.locator("#remove-form")).to_contain_text("“registered twice”")
        shot(page, "organiser-player-remove-asks-1366", folder=DOCS_SHOTS)
        page.locator("#remove-confirm").click()
        expect(page.get_by_text("Oops Typo is removed")).to_be_visible()
    finally:
        page.context.close()

    # The hall: each long look-alike name's number whole, the name cut short.
    for viewport in HALL:
        page = page_for(chromium, base, None, viewport)
        try:
            page.goto(f"{base}/standings/{event.pk}/hall/")
            apart = page.locator(".hall-board .apart", has_text=f"(no. {first.person.number})")
            expect(apart.first).to_be_visible()
            for i in range(page.locator(".hall-board .name-line").count()):
                line = page.locator(".hall-board .name-line").nth(i)
                box = line.bounding_box()
                for part in line.locator(".apart, .mark").all():
                    inner = part.bounding_box()
                    assert inner["x"] + inner["width"] <= box["x"] + box["width"] + 0.5
            shot(page, f"hall-names-apart-{viewport['width']}", folder=DOCS_SHOTS)
        finally:
            page.context.close()
