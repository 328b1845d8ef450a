"""The tablet's browser tests: the run's Chromium (``tests.browser``), a hall of
tables, signed-in pages, and a page with the offline engine (Pyodide) booted once for a
module."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth.models import Group, User
from django.core.cache import cache
from playwright.sync_api import expect

from brag_event.tablet.offline import engine_zip
from brag_event.tablet.vendor import installed
from tests.browser import shot
from tests.factories import World, world


@pytest.fixture(scope="session")
def browser(chromium: Any) -> Any:
    """The run's Chromium (``chromium``, tests/conftest.py), by the tablet tests' name."""
    return chromium


@dataclass
class EnginePage:
    """A page of the live server with the tablet's offline engine booted in its Web Worker."""

    page: Any
    boot: dict[str, float]  # the boot's timings (ms), as ``BragEngine.boot`` measured them


def boot_engine(page: Any, url: str) -> dict[str, float]:
    """Open a same-origin page with the engine's client and boot the worker; its timings."""
    if not installed():
        pytest.fail("Pyodide is not installed: run `make install` (static/vendor/pyodide)")
    page.goto(f"{url}/tablet/login/")
    page.add_script_tag(url=f"{url}/static/tablet/offline/engine-client.js")
    _data, version = engine_zip()
    times: dict[str, float] = page.evaluate(
        """(c) => BragEngine.boot(c)""",
        {
            "worker": f"{url}/static/tablet/offline/engine-worker.js",
            "pyodide": f"{url}/static/vendor/pyodide/",
            "engine": f"{url}/tablet/engine/{version}.zip",
        },
    )
    return times


@pytest.fixture(scope="module")
def engine_page(browser: Any, live_server: Any, django_db_blocker: Any) -> Iterator[EnginePage]:
    """The offline engine booted once for the module's tests (Pyodide's start takes seconds to
    tens of seconds on a loaded machine): tests that only ask it questions share it. Tests of
    the tablet's own start-up boot it in their own pages instead."""
    context = browser.new_context()
    try:
        page = context.new_page()
        page.set_default_timeout(120_000)
        # Set up before any test's database access is allowed; the pages it loads read nothing
        # from the database, but Django's checks would refuse a connection all the same.
        with django_db_blocker.unblock():
            times = boot_engine(page, live_server.url)
        yield EnginePage(page, times)
    finally:
        context.close()


@dataclass
class Hall:
    world: World
    url: str
    dealer: User
    supervisor: User
    contexts: list[Any]

    def page(
        self,
        browser: Any,
        *,
        who: str = "dealer",
        portrait: bool = False,
        size: tuple[int, int] | None = None,
        touch: bool = False,
        **options: Any,
    ) -> Any:
        """A new browser context's page, signed in as ``who`` on the tablet's start page: a
        tablet in landscape (or ``portrait``), or a screen of ``size`` (width, height), with a
        touch screen if ``touch``; ``options`` go to the context (e.g. its service workers)."""
        width, height = size or ((800, 1280) if portrait else (1280, 800))
        context = browser.new_context(
            viewport={"width": width, "height": height},
            device_scale_factor=1,
            has_touch=touch,
            **options,
        )
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


def pick_cards(page: Any, who: str, cards: tuple[str, ...]) -> None:
    """At a showdown, once the card picker asks ``who`` (its heading), tap ``cards``."""
    expect(page.locator("#showdown h2")).to_contain_text(who)
    for card in cards:
        page.locator(f'[data-card="{card}"]').click()


def andy_and_bill_show(page: Any, *, picker_shot: str | None = None) -> Any:
    """The showdown of the tablet tests' seen hand: Andy (seat 1) shows Ah Kh Qh, then Bill
    (seat 2) a prial of threes — the picker greys out the cards already shown — and Bill's win
    is said; the result's locator. ``picker_shot``: a screenshot of the picker with Andy's
    cards picked."""
    pick_cards(page, "Andy (seat 1)", ("Ah", "Kh", "Qh"))
    if picker_shot:
        shot(page, picker_shot)
    page.locator("#show-submit").click()
    pick_cards(page, "Bill (seat 2)", ("3h", "3d", "3c"))
    expect(page.locator('[data-card="Ah"]')).to_be_disabled()  # already shown
    page.locator("#show-submit").click()
    result = page.locator("#result")
    expect(result).to_contain_text("Bill (seat 2) wins 27")
    expect(result).to_contain_text("prial of threes")
    return result
