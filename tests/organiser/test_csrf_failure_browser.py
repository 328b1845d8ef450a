"""The CSRF failure as an organiser meets it, in headless Chromium: the players page open with a
name typed, a sign-in again in another tab (a new token), then Register: the page comes back
with a notice in words and the typed values in their fields; one press sends them. Screenshots
at 1366×768 and 390×844 go to docs/screenshots/."""

from __future__ import annotations

from typing import Any

from brag_event.players.models import Player
from tests.axe import assert_no_violations
from tests.browser import DOCS_SHOTS, shot
from tests.factories import user_in, world

WIDE = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}


def sign_in(page: Any, base: str) -> None:
    page.goto(f"{base}/organiser/login/")
    page.get_by_label("Username").fill("olga")
    page.get_by_label("Password").fill("olga-pw")
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(lambda url: "/login/" not in url)


def test_a_form_left_open_over_a_sign_in_again_keeps_what_was_typed(
    chromium: Any, transactional_db: Any, live_server: Any
) -> None:
    from playwright.sync_api import expect

    w = world(0, name="Kolkata Open")
    user_in("organiser", "olga", password="olga-pw")
    context = chromium.new_context(viewport=WIDE, device_scale_factor=1)
    try:
        page = context.new_page()
        sign_in(page, live_server.url)
        page.goto(f"{live_server.url}/organiser/events/{w.event.pk}/players/")
        form = page.locator("#register-form")
        form.get_by_label("Name").fill("Asha Verma")
        form.get_by_label("Starting money").fill("1500")
        form.get_by_label("Club or group").fill("Pune Brag Club")

        other = context.new_page()  # another tab: signed in again, the session's token is new
        sign_in(other, live_server.url)
        other.close()

        form.get_by_role("button", name="Register").click()
        notice = page.get_by_role("alert").filter(has_text="Your form was not sent")
        expect(notice).to_contain_text("open while you signed in again")
        expect(notice).to_contain_text("What you typed is back in the form below")
        form = page.locator("#register-form")
        expect(form.get_by_label("Name")).to_have_value("Asha Verma")
        expect(form.get_by_label("Starting money")).to_have_value("1500")
        expect(form.get_by_label("Club or group")).to_have_value("Pune Brag Club")
        expect(form.get_by_role("button", name="Register")).to_be_focused()
        assert not Player.objects.filter(name="Asha Verma").exists()  # never sent by itself
        assert_no_violations(page)
        shot(page, "organiser-form-not-sent-1366", folder=DOCS_SHOTS)
        page.set_viewport_size(PHONE)
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        shot(page, "organiser-form-not-sent-390", folder=DOCS_SHOTS)

        form.get_by_role("button", name="Register").click()
        expect(page.locator(".messages")).to_contain_text("Asha Verma")
        assert Player.objects.filter(name="Asha Verma", balance=1500).count() == 1
    finally:
        context.close()
