"""A series' public standings on a phone (390×844), a laptop (1366×768) and the hall's screen
(1920×1080), and the console's series page (1366×768): nothing cut or scrolled sideways — long
event and player names wrap, the Points column stays on a phone's screen (it was 421 px wide,
the points cut off) — and axe-core finds nothing. Screenshots go to docs/screenshots/."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth.models import Group, User
from django.test import Client

from brag_event.series.services import series_create, series_event_add
from tests.axe import assert_no_violations
from tests.browser import DOCS_SHOTS, shot
from tests.scenarios import ends_by_a_concede, ends_by_a_see, finished

PHONE = {"width": 390, "height": 844}
HALL = {"width": 1920, "height": 1080}
LAPTOP = {"width": 1366, "height": 768}
# Registered, never seated: below the three who played (1,000 less the days' fees).
OTHERS = [
    ("Venkataraghavan Subramaniam", 900),
    ("Priyadarshini Chattopadhyay", 880),
    ("Declan Iqbal-Forsyth", 700),
]
SPRING, AUTUMN = "Kolkata Three Card Brag Open 2026", "Howrah Winter Brag Championship"


def test_the_series_standings_on_a_phone_and_the_halls_screen(
    chromium: Any, transactional_db: Any, live_server: Any, django_capture_on_commit_callbacks: Any
) -> None:
    from playwright.sync_api import expect

    commits = django_capture_on_commit_callbacks
    spring = finished(SPRING, ends_by_a_see, commits, others=OTHERS)
    autumn = finished(AUTUMN, ends_by_a_concede, commits, others=OTHERS[:2])
    series = series_create(name="Brag League 2026", points=[25, 18, 15, 12, 10, 8], by=None)
    series_event_add(series=series, event=spring, by=None)
    series_event_add(series=series, event=autumn, by=None)
    url = f"{live_server.url}/series/{series.pk}/"
    sizes = (
        (PHONE, "series-390x844", ""),
        (LAPTOP, "series-1366x768", ""),
        (HALL, "series-1920x1080", "?big=1"),
    )
    for size, name, query in sizes:
        context = chromium.new_context(viewport=size, device_scale_factor=1)
        page = context.new_page()
        try:
            page.goto(url + query)
            expect(page.get_by_role("heading", level=1)).to_contain_text("Brag League 2026")
            expect(page.locator(".series-board tbody tr")).to_have_count(6)
            first = page.locator(".series-board tbody tr").first
            expect(first.locator(".name")).to_contain_text(f"{SPRING}: 1st, 25 pts")
            expect(first.locator(".name")).to_contain_text("Bill")
            width = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
            assert width <= 0, (name, width)
            for cell in page.locator(".series-board td.points").all():  # every figure on screen
                box = cell.bounding_box()
                assert box and box["x"] + box["width"] <= size["width"], (name, box)
            assert_no_violations(page)
            shot(page, name, folder=DOCS_SHOTS)
        finally:
            context.close()

    organiser = User.objects.create_user("organiser", password="x")
    organiser.groups.add(Group.objects.get_or_create(name="organiser")[0])
    client = Client()
    client.force_login(organiser)
    context = chromium.new_context(viewport=LAPTOP, device_scale_factor=1)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": live_server.url}]
    )
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/organiser/series/{series.pk}/")
        expect(page.get_by_role("heading", level=1)).to_have_text("Brag League 2026")
        expect(page.get_by_role("textbox", name="Points by finishing place")).to_have_value(
            "25, 18, 15, 12, 10, 8"
        )
        assert_no_violations(page)
        shot(page, "organiser-series-1366", folder=DOCS_SHOTS)
    finally:
        context.close()
