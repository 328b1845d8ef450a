"""The results exchange file in Chromium: an organiser downloads a finished event's file from
its final results, then imports a file from another installation as a past event, the same
event's file again being refused in words (docs/results-exchange.md). Screenshots of the import
page at a laptop's and a phone's size go to docs/screenshots/."""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth.models import Group, User
from django.test import Client

from brag_event.closing.exchange.document import schema_problems
from brag_event.events.models import Event
from tests.axe import assert_no_violations
from tests.browser import DOCS_SHOTS, shot
from tests.exchange_world import finished_event, renamed

LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


def page_for(browser: Any, url: str, user: User, viewport: dict[str, int]) -> Any:
    client = Client()
    client.force_login(user)
    context = browser.new_context(viewport=viewport, device_scale_factor=1, accept_downloads=True)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": url}])
    page = context.new_page()
    page.set_default_timeout(20_000)
    return page


def choose(page: Any, path: Path) -> None:
    form = page.locator("#results-import-form")
    form.locator("input[type=file]").set_input_files(str(path))
    form.get_by_role("button", name="Import").click()


def test_an_organiser_downloads_a_results_file_and_imports_one(
    chromium: Any,
    transactional_db: Any,
    live_server: Any,
    django_capture_on_commit_callbacks: Any,
    tmp_path: Path,
) -> None:
    from playwright.sync_api import expect

    event = finished_event(django_capture_on_commit_callbacks)
    organiser = User.objects.create_user("organiser", password="x")
    organiser.groups.add(Group.objects.get_or_create(name="organiser")[0])
    base = live_server.url
    page = page_for(chromium, base, organiser, LAPTOP)
    try:
        # The download, from the final results.
        page.goto(f"{base}/organiser/events/{event.pk}/results/")
        with page.expect_download() as download:
            page.get_by_role("link", name="Download the results file (JSON)").click()
        assert download.value.suggested_filename == (f"results-{event.pk}-{event.uid.hex[:8]}.json")
        mine = tmp_path / download.value.suggested_filename
        download.value.save_as(mine)
        document = json.loads(mine.read_text(encoding="utf-8"))
        assert schema_problems(document) == [] and document["event"]["name"] == "FLASH 2025"

        # That very file, brought back: refused in words, on the form.
        page.goto(f"{base}/organiser/")
        page.get_by_role("link", name="Import a past event").click()
        expect(page.get_by_role("heading", level=1, name="Import a past event")).to_be_visible()
        assert_no_violations(page)
        choose(page, mine)
        expect(page.locator("#import-refused")).to_contain_text(
            "FLASH 2025 is this installation's own event (the file was written here): "
            "importing it again would count its results twice."
        )
        assert Event.objects.count() == 1
        page.set_viewport_size(PHONE)
        width = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert width <= 0
        shot(page, "organiser-results-import-refused-390", folder=DOCS_SHOTS)
        page.set_viewport_size(LAPTOP)

        # A file from another installation: a past event, its final results next.
        theirs = tmp_path / "flash-2024.json"
        theirs.write_text(
            json.dumps(renamed(document, "FLASH 2024", str(uuid.uuid4()))), encoding="utf-8"
        )
        choose(page, theirs)
        expect(page.get_by_role("heading", level=1, name="Final results")).to_be_visible()
        expect(page.locator(".messages")).to_contain_text(
            "FLASH 2024 imported as a past event: 3 days, 5 players (5 already registered "
            "here, 0 new)."
        )
        expect(page.locator("#imported-note")).to_contain_text("A past event, imported")
        past = Event.objects.get(name="FLASH 2024")
        assert past.imported and past.days.filter(status="closed").count() == 3
        assert_no_violations(page)
        shot(page, "organiser-results-imported-1280", folder=DOCS_SHOTS)
    finally:
        page.context.close()
