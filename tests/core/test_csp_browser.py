"""The Content-Security-Policy in Chromium on the pages no other browser test opens — the
admin's and the API's docs — and the watch itself: a page that tries an inline handler, an inline
style or a script from another origin is caught (so a browser test that sees no refusal saw
none, rather than missed one). Every browser test fails on a refusal (tests/conftest.py,
``csp_violations``); these pages just have to load and be used."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client

from tests.factories import world


def signed_in(chromium: Any, url: str, user: User) -> Any:
    client = Client()
    client.force_login(user)
    context = chromium.new_context(viewport={"width": 1366, "height": 768})
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": url}])
    page = context.new_page()
    page.set_default_timeout(20_000)
    return page


def test_the_admin_and_the_api_docs_run_under_the_policy(
    chromium: Any, transactional_db: Any, live_server: Any
) -> None:
    from playwright.sync_api import expect

    w = world(2)
    root = User.objects.create_superuser("root", password="x")
    page = signed_in(chromium, live_server.url, root)
    try:
        base = live_server.url
        page.goto(f"{base}/admin/")
        expect(page.get_by_role("heading", name="Site administration")).to_be_visible()
        page.goto(f"{base}/admin/players/player/")
        page.get_by_role("link", name="Andy").click()  # a change form, with its widgets' scripts
        expect(page.locator("#player_form")).to_be_visible()
        page.goto(f"{base}/admin/auth/user/add/")
        expect(page.locator("#user_form")).to_be_visible()
        page.goto(f"{base}/admin/events/day/{w.day.pk}/change/")
        expect(page.locator("#day_form")).to_be_visible()
        page.goto(f"{base}/api/docs/")
        # Swagger UI drew the operations from the schema: its script ran.
        expect(page.locator(".opblock").first).to_be_visible()
    finally:
        page.context.close()


def test_the_watch_catches_what_the_policy_refuses(
    chromium: Any, transactional_db: Any, live_server: Any
) -> None:
    from playwright.sync_api import expect

    world(1)
    context = chromium.new_context()
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/")
        expect(page.locator("main")).to_be_visible()
        assert chromium.take_refused() == []
        page.evaluate(
            """() => {
                document.body.insertAdjacentHTML('beforeend', '<img src="/x" onerror="1">');
                document.body.insertAdjacentHTML('beforeend', '<p style="color: red">x</p>');
                const s = document.createElement('script');
                s.src = 'https://cdn.example.org/x.js';
                document.body.append(s);
            }"""
        )
        page.wait_for_function("() => document.querySelectorAll('img, p, script').length > 2")
        # The inline handler, the inline style, the script of another origin.
        wanted = ("script-src-attr", "style-src-attr", "https://cdn.example.org/x.js")
        refused: list[str] = []
        for _ in range(50):  # the reports come over Playwright's connection
            refused += chromium.take_refused()
            if all(w in "\n".join(refused) for w in wanted):
                break
            page.wait_for_timeout(100)
        said = "\n".join(refused)
        assert all(w in said for w in wanted), said
    finally:
        context.close()
