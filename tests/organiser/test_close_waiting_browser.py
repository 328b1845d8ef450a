"""The close's page while the job queue cannot be reached (issue 29), in headless Chromium at a
laptop's 1366×768 and a phone's 390×844: it says in words that the close waits for the job queue
and will start by itself, and fits the screen. Screenshots to docs/screenshots/."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import Group, User

from brag_event.events.models import Day, DayClose
from brag_event.organiser.closing_report import WAITING_WORDS
from tests.browser import DOCS_SHOTS
from tests.browser import shot as screenshot
from tests.factories import world

SIZES = {"1366x768": {"width": 1366, "height": 768}, "390x844": {"width": 390, "height": 844}}


def test_the_close_page_says_it_waits_for_the_job_queue(
    chromium: Any, transactional_db: Any, live_server: Any
) -> None:
    from playwright.sync_api import expect

    w = world(3)
    Day.objects.filter(pk=w.day.pk).update(status=Day.Status.CLOSING)
    DayClose.objects.create(
        day=w.day, queue_error="OperationalError: Error 111 connecting to 127.0.0.1:6379."
    )
    organiser = User.objects.create_user("organiser", password="organiser-pw")
    organiser.groups.add(Group.objects.get_or_create(name="organiser")[0])
    expect.set_options(timeout=15_000)
    for size, viewport in SIZES.items():
        context = chromium.new_context(viewport=viewport, device_scale_factor=1)
        page = context.new_page()
        try:
            page.goto(f"{live_server.url}/organiser/days/{w.day.pk}/close/")
            page.get_by_label("Username").fill("organiser")
            page.get_by_label("Password").fill("organiser-pw")
            page.get_by_role("button", name="Sign in").click()
            page.wait_for_url(f"{live_server.url}/organiser/days/{w.day.pk}/close/")
            waiting = page.locator("#close-waiting")
            expect(waiting).to_be_visible()
            expect(waiting).to_have_text(WAITING_WORDS)
            expect(page.locator("#close-step")).to_have_text("waiting for the job queue")
            page.wait_for_timeout(1500)  # a poll has come back: still waiting, still said
            expect(waiting).to_be_visible()
            body = page.locator("body").inner_text()
            assert "6379" not in body and "OperationalError" not in body
            wider = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
            assert wider <= 0, f"{size}: {wider} px wider than the screen"
            screenshot(page, f"organiser-close-waiting-{size}", folder=DOCS_SHOTS)
        finally:
            context.close()
