"""The tablet's queue honours the write throttle's ``Retry-After``: entries taken with no network
are sent when it is back; a ``429`` stops the sending for the time the server asked, then the
rest is sent, each entry once. The throttle is the real one (``api.throttles.WriteThrottle``)
at a rate a test can reach in a second (so its ``Retry-After`` is 1 s: below the queue's own
least wait of 1.5 s, which a minute-long rate would tell apart at the cost of a minute)."""

from __future__ import annotations

import time
from typing import Any

import pytest
from playwright.sync_api import expect

from brag_event.api.throttles import WriteThrottle
from brag_event.hands.models import Hand, HandAction

from .conftest import Hall
from .test_offline_first_visit import queue_nine, refuse
from .test_offline_tablet import engine_ready
from .test_tablet_browser import open_table, start_hand

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


def test_the_queue_waits_as_long_as_a_429_says_then_sends_each_entry_once(
    hall: Hall, browser: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    page = open_table(hall, browser, size=(1180, 820))
    engine_ready(page)
    start_hand(page)
    page.context.set_offline(True)
    page.context.route("**/*", refuse)
    queue_nine(page)
    queued = len(page.evaluate("() => window.__bragQueue()"))
    assert queued == 9
    # Four writes a second per device: the nine queued entries cannot all go at once.
    monkeypatch.setattr(
        WriteThrottle, "THROTTLE_RATES", {**WriteThrottle.THROTTLE_RATES, "write": "4/s"}
    )
    posts: list[tuple[float, int, int]] = []  # (when, status, Retry-After)

    def seen(response: Any) -> None:
        if response.request.method == "POST" and "/actions/" in response.url:
            after = int(response.headers.get("retry-after") or 0)
            posts.append((time.monotonic(), response.status, after))

    page.on("response", seen)
    page.context.unroute("**/*", refuse)
    page.context.set_offline(False)
    expect(page.locator("#queue")).to_be_hidden(timeout=120_000)

    refused = [i for i, (_, status, _) in enumerate(posts) if status == 429]
    assert refused, posts  # the throttle was met
    for i in refused:
        at, _, after = posts[i]
        assert after >= 1, posts[i]
        if i + 1 < len(posts):  # the next try waited at least what the server asked
            assert posts[i + 1][0] - at >= after - 0.25, (posts[i], posts[i + 1])
    # Every entry on the server once, in the tablet's order.
    hand = Hand.objects.get()
    assert HandAction.objects.filter(hand=hand).count() == queued
    assert len(page.evaluate("() => window.__bragOfflineLog()")) == queued
    assert sum(1 for _, status, _ in posts if status == 201) == queued
