"""Our error pages as people see them, in headless Chromium on the live server with DEBUG off:
a page not found, a page refused (for a dealer), a request not understood, a failure on our
side, the database away and a form refused by the CSRF check, at a laptop's 1366×768 and a
phone's 390×844. Each fits the screen, has its way back, and is saved to docs/screenshots/.
Chromium comes from the system; without it this is skipped locally."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import Group, User
from django.test import Client

from tests.browser import DOCS_SHOTS, shot

pytestmark = pytest.mark.urls("tests.core.error_urls")

SIZES = {"laptop": {"width": 1366, "height": 768}, "phone": {"width": 390, "height": 844}}
PAGES = [
    ("/no/such/page/", 404, "We can't find that page", "error-404"),
    ("/test-errors/bad/", 400, "The request was not understood", "error-400"),
    ("/test-errors/boom/", 500, "Something went wrong on our side", "error-500"),
    ("/test-errors/database-away/", 503, "Back in a moment", "error-503"),
    ("/test-errors/csrf/", 403, "Your form was not sent", "error-csrf"),
]


def test_the_error_pages_in_a_browser(
    chromium: Any, transactional_db: Any, live_server: Any, settings: Any
) -> None:
    from playwright.sync_api import expect

    settings.DEBUG = False
    # The live server answers in this process: a failing view's exception is logged, not raised.
    settings.DEBUG_PROPAGATE_EXCEPTIONS = False
    dealer = User.objects.create_user("dealer", password="dealer-pw")
    dealer.groups.add(Group.objects.get_or_create(name="dealer")[0])
    context = chromium.new_context(device_scale_factor=1)
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        for label, size in SIZES.items():
            page.set_viewport_size(size)
            for path, status, heading, name in PAGES:
                answer = page.goto(live_server.url + path)
                assert answer is not None and answer.status == status, path
                expect(page.get_by_role("heading", level=1)).to_have_text(heading)
                link = page.get_by_role("link", name="Go to the start page")
                expect(link).to_be_visible()
                width = "document.documentElement.scrollWidth - window.innerWidth"
                assert page.evaluate(width) <= 0, (label, path)
                assert page.evaluate("getComputedStyle(document.body).backgroundColor") != (
                    "rgba(0, 0, 0, 0)"
                ), "the console's stylesheet did not load"
                shot(page, f"{name}-{label}", folder=DOCS_SHOTS)
            link.click()
            page.wait_for_url(live_server.url + "/")

        # A dealer who opens the console: refused, told where their tables are.
        client = Client()
        client.force_login(dealer)
        session = client.cookies[settings.SESSION_COOKIE_NAME].value
        context.add_cookies(
            [{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": live_server.url}]
        )
        for label, size in SIZES.items():
            page.set_viewport_size(size)
            answer = page.goto(live_server.url + "/test-errors/forbidden/")
            assert answer is not None and answer.status == 403
            expect(page.get_by_role("heading", level=1)).to_have_text(
                "Your tables are on the tablet"
            )
            expect(page.get_by_role("link", name="Open the tablet")).to_be_visible()
            width = "document.documentElement.scrollWidth - window.innerWidth"
            assert page.evaluate(width) <= 0, label
            button = page.get_by_role("button", name="Sign out and sign in as someone else")
            card = page.locator(".login-card").bounding_box()
            box = button.bounding_box()
            assert card and box and box["x"] + box["width"] <= card["x"] + card["width"], label
            shot(page, f"error-403-{label}", folder=DOCS_SHOTS)
    finally:
        context.close()
