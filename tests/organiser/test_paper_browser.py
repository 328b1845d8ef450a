"""Results on paper and a hand's history in Chromium: the printable results at a laptop's size
and as printed on A4, the hand's history for the floor; axe-core finds nothing on either.
Screenshots go to docs/screenshots/."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth.models import Group, User
from django.test import Client

from brag_event.closing.services import day_close_request
from brag_event.floor.services import ruling_record
from brag_event.players.services import player_register
from tests.axe import assert_no_violations
from tests.browser import DOCS_SHOTS, shot
from tests.factories import disqualify, world
from tests.scenarios import ends_by_a_see, ends_by_folds

LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}
A4 = {"width": 794, "height": 1123}  # A4 at 96 px an inch


def page_for(browser: Any, url: str, user: User, viewport: dict[str, int]) -> Any:
    client = Client()
    client.force_login(user)
    context = browser.new_context(viewport=viewport, device_scale_factor=1)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": url}])
    page = context.new_page()
    page.set_default_timeout(20_000)
    return page


def test_the_printable_results_and_a_hands_history(
    chromium: Any, transactional_db: Any, live_server: Any, django_capture_on_commit_callbacks: Any
) -> None:
    from playwright.sync_api import expect

    w = world(6, money=1000, buy_in=200, name="FLASH Summer Open")
    for name, money in (("Priya Shah", 1000), ("Oluwaseun Adebayo", 1000), ("Poor", 50)):
        player_register(event=w.event, name=name, starting_money=money, by=None)
    see = ends_by_a_see(w)
    ends_by_folds(w)
    ruling_record(
        table=w.table,
        what_happened="talked about a live hand",
        decision="a warning",
        players=[w.players[0].pk],
        penalty="warning",
        by=None,
    )
    disqualify(w.table, w.players[5])
    with django_capture_on_commit_callbacks(execute=True):
        day_close_request(day=w.day, by=None)
    w.day.refresh_from_db()

    organiser = User.objects.create_user("organiser", password="x")
    organiser.groups.add(Group.objects.get_or_create(name="organiser")[0])
    base = live_server.url
    page = page_for(chromium, base, organiser, LAPTOP)
    try:
        # One click from the close report.
        page.goto(f"{base}/organiser/days/{w.day.pk}/close/")
        page.get_by_role("link", name="Print day 1's results").click()
        expect(page.get_by_role("heading", level=1, name="Results of day 1")).to_be_visible()
        expect(page.locator(".cut-line").first).to_be_visible()
        expect(page.locator(".paper-record .root code")).to_have_text(w.day.record_root)
        width = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert width <= 0
        assert_no_violations(page)
        # How anyone checks the root, in words; the command folded away for the technical reader.
        expect(page.locator(".paper-record")).to_contain_text("Anyone can check that nothing")
        command = page.locator(".paper-record code.command")
        expect(command).to_be_hidden()
        page.get_by_text("How to run the check (for the technical reader)").click()
        expect(command).to_contain_text(f"--root {w.day.record_root}")
        shot(page, "organiser-results-1366", folder=DOCS_SHOTS)
        page.set_viewport_size(PHONE)
        page.reload()  # as a phone opens it: the menu folded
        width = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert width <= 0
        shot(page, "organiser-results-390", folder=DOCS_SHOTS)
        page.set_viewport_size(LAPTOP)

        # As printed: the navigation and the buttons go, the sheet fills the page.
        page.set_viewport_size(A4)
        page.emulate_media(media="print")
        expect(page.locator(".topbar")).to_be_hidden()
        expect(page.get_by_role("button", name="Print")).to_be_hidden()
        expect(command).to_be_hidden()  # on paper, a pointer to the documentation instead
        expect(page.locator(".paper-record .print-only")).to_contain_text("Checking a published")
        shot(page, "organiser-results-print-a4", folder=DOCS_SHOTS)
        pdf = page.pdf(format="A4", print_background=True)
        assert pdf.count(b"/Type /Page") - pdf.count(b"/Type /Pages") == 1
        page.emulate_media(media="screen")
        page.set_viewport_size(LAPTOP)

        # The download is the server's PDF.
        with page.expect_download() as download:
            page.get_by_role("link", name="Download as PDF").click()
        assert download.value.suggested_filename == f"results-{w.event.pk}-day1.pdf"

        # The hand's history for the floor.
        page.goto(f"{base}/organiser/floor/hands/{see.pk}/")
        expect(page.get_by_role("heading", level=1)).to_have_text("Table 1, hand 1")
        expect(page.get_by_text("Bill (seat 2) sees for 20")).to_be_visible()
        assert_no_violations(page)
        shot(page, "floor-hand-history-1366", folder=DOCS_SHOTS)
        page.set_viewport_size(A4)
        page.emulate_media(media="print")
        shot(page, "floor-hand-history-print-a4", folder=DOCS_SHOTS)
    finally:
        page.context.close()
