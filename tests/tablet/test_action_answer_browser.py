"""The tablet keeps the table its start's or action's answer brings (issue 33): the next poll of
the table names that answer's ETag and is answered 304 — no second rendering of what it just did."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import Hall
from .test_tablet_browser import open_table, start_hand

pytestmark = pytest.mark.django_db(transaction=True)


def table_read(hall: Hall) -> Any:
    path = re.compile(rf"/api/v1/tables/{hall.world.table.pk}/$")
    return lambda r: r.request.method == "GET" and bool(path.search(r.url))


def polls_are_304(page: Any, hall: Hall, reads: list[int]) -> None:
    """Since ``reads`` was cleared, the table's reads were all 304: the page polls every 2 s,
    the next read after the answer, and the one after."""
    for _ in range(2):
        with page.expect_response(table_read(hall), timeout=15_000) as polled:
            pass
        assert polled.value.status == 304
    assert reads and set(reads) == {304}, reads


def test_after_a_start_and_an_action_the_next_table_poll_is_a_304(hall: Hall, browser: Any) -> None:
    page = open_table(hall, browser)
    reads: list[int] = []
    page.on("response", lambda r: reads.append(r.status) if table_read(hall)(r) else None)
    started = lambda r: r.request.method == "POST" and r.url.endswith("/hands/")  # noqa: E731
    expect(page.get_by_role("button", name="Start the next hand")).to_be_enabled()
    with page.expect_response(table_read(hall), timeout=15_000):
        pass  # the table as it was, read once (a 200) before the hand starts
    reads.clear()
    with page.expect_response(started) as sent:
        start_hand(page)
    assert sent.value.status == 201
    polls_are_304(page, hall, reads)
    actions = lambda r: r.request.method == "POST" and "/actions/" in r.url  # noqa: E731
    for entry in ("bet", "fold"):
        with page.expect_response(actions) as sent:
            if entry == "bet":
                page.locator(".quick .chip").first.click()
                page.locator("#bet-submit").click()
            else:
                page.get_by_role("button", name="Fold").click()
        assert sent.value.status == 201
        reads.clear()
        polls_are_304(page, hall, reads)
    expect(page.locator(".s3")).to_have_class(re.compile("folded"))


RESOURCE_TIMES = """() => performance.getEntriesByType("resource")
  .filter(e => e.initiatorType === "fetch")
  .map(e => ({url: e.name, start: e.startTime, end: e.responseEnd}))"""


def test_a_dealer_entering_a_hand_sends_no_table_reads(hall: Hall, browser: Any) -> None:
    """Each entry's answer brings the whole table, so the page reads it again only once its
    copy is 2 s old: while five bets are entered 0.6 s apart, no read leaves the page within
    2 s of the last answer (by the browser's own clock: its resource timings). A page that
    polled every 2 s whatever it had would read within 0.6 s of some answer."""
    page = open_table(hall, browser)
    page.evaluate("() => performance.setResourceTimingBufferSize(2000)")
    expect(page.get_by_role("button", name="Start the next hand")).to_be_enabled()
    started = lambda r: r.request.method == "POST" and r.url.endswith("/hands/")  # noqa: E731
    with page.expect_response(started) as sent:
        start_hand(page)
    assert sent.value.status == 201
    actions = lambda r: r.request.method == "POST" and "/actions/" in r.url  # noqa: E731
    for n in range(5):
        page.wait_for_timeout(600)
        with page.expect_response(actions) as sent:
            page.locator(".quick .chip").first.click()
            page.locator("#bet-submit").click()
        assert sent.value.status == 201, n
    # Once nothing is entered, the page reads the table again (a 304: it has the latest).
    with page.expect_response(table_read(hall), timeout=15_000) as polled:
        pass
    assert polled.value.status == 304
    times = page.evaluate(RESOURCE_TIMES)
    read = re.compile(rf"/api/v1/tables/{hall.world.table.pk}/$")
    answers = sorted(
        t["end"] for t in times if t["url"].endswith("/hands/") or "/actions/" in t["url"]
    )
    assert len(answers) == 6, times  # the start and five bets
    reads = [t["start"] for t in times if read.search(t["url"]) and t["start"] > answers[0]]
    assert reads, times  # the poll above, at least
    for at in reads:
        last = max(a for a in answers if a <= at)
        assert at - last >= 1900, (at - last, times)  # ms: 2 s, less the timer's granularity
