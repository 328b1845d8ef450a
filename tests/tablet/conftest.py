"""Browser tests: headless Chromium driven by Playwright against the live test server.

Chromium comes from the system (Debian's ``chromium``, installed by ``.ci/run``). Without it the
browser tests are skipped locally, and fail under CI, where they must run."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import Group, User
from django.core.cache import cache

from tests.factories import World, world

SHOTS = Path(__file__).resolve().parents[2] / "test-results" / "screenshots"

# Playwright's sync API runs an event loop in this thread; the test's own ORM calls are
# synchronous and safe (Django refuses them by default when a loop is running).
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


def chromium_path() -> str | None:
    for name in (os.environ.get("BRAG_CHROMIUM", ""), "chromium", "chromium-browser"):
        if name and (found := shutil.which(name)):
            return found
    return None


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    path = chromium_path()
    if path is None:
        if os.environ.get("CI"):
            pytest.fail("Chromium is missing: .ci/run installs Debian's chromium package")
        pytest.skip("no Chromium here (install Debian's chromium to run the browser tests)")
    from playwright.sync_api import expect, sync_playwright

    # A loaded 2-core CI machine can take seconds to answer: wait up to 15 s for the page.
    expect.set_options(timeout=15_000)

    with sync_playwright() as pw:
        launched = pw.chromium.launch(executable_path=path, args=["--no-sandbox"])
        yield launched
        launched.close()


@dataclass
class Hall:
    world: World
    url: str
    dealer: User
    supervisor: User
    contexts: list[Any]

    def page(
        self, browser: Any, *, who: str = "dealer", portrait: bool = False, **options: Any
    ) -> Any:
        size = {"width": 800, "height": 1280} if portrait else {"width": 1280, "height": 800}
        context = browser.new_context(viewport=size, device_scale_factor=1, **options)
        self.contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(10_000)
        page.goto(f"{self.url}/tablet/login/")
        page.get_by_label("User name").fill(who)
        page.get_by_label("Password").fill(f"{who}-pw")
        page.get_by_role("button", name="Log in").click()
        page.wait_for_url(f"{self.url}/tablet/")
        return page

    def table_url(self) -> str:
        return f"{self.url}/tablet/tables/{self.world.table.pk}/"


@pytest.fixture
def hall(transactional_db: Any, live_server: Any) -> Iterator[Hall]:
    cache.clear()  # the login throttle counts per address, and every test logs in
    w = world(3)
    dealer = User.objects.create_user("dealer", password="dealer-pw")
    dealer.groups.add(Group.objects.get_or_create(name="dealer")[0])
    supervisor = User.objects.create_user("supervisor", password="supervisor-pw")
    supervisor.groups.add(Group.objects.get_or_create(name="supervisor")[0])
    w.table.dealers.add(dealer)
    made = Hall(w, live_server.url, dealer, supervisor, [])
    yield made
    for context in made.contexts:  # no tablet keeps polling into the next test
        context.close()


def shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)
