"""A counted close in headless Chromium (issue 31): the organiser asks for day 1's close, the
close page lists the table still to count and refuses to close; table 1 is counted with one
difference, the stack is corrected to the count (the chips set aside), the day closes and its
report lists the count, the difference and the ruling. The ledger audit passes after it.

Screenshots at 1366×768 in ``docs/screenshots/`` (``count-*``)."""

from __future__ import annotations

import os
import time
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.test import Client

from brag_event.closing.models import SeatCount
from brag_event.events.models import DayClose
from brag_event.ledger.models import Transfer
from brag_event.tables.models import Seat
from tests.browser import DOCS_SHOTS
from tests.browser import shot as screenshot
from tests.factories import assert_audit_ok, played, user_in, world

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's loop in this thread

LAPTOP = {"width": 1366, "height": 768}


def shot(page: Any, name: str) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= LAPTOP["width"], (page.url, width)
    screenshot(page, f"count-{name}-1366x768", folder=DOCS_SHOTS)


def test_a_counted_close_with_one_difference_corrected(
    transactional_db: Any, live_server: Any, chromium: Any
) -> None:
    cache.clear()
    w = world(3, count=True, name="Brag Open 2026")
    played(w)  # stacks: Andy 195, Bill 210, Chris 195
    organiser = user_in("organiser", "organiser")
    client = Client()
    client.force_login(organiser)
    context = chromium.new_context(viewport=LAPTOP, device_scale_factor=1)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": live_server.url}]
    )
    page = context.new_page()
    page.set_default_timeout(20_000)
    close_url = f"{live_server.url}/organiser/days/{w.day.pk}/close/"

    # ---- asking for the close: the day leaves play and waits for its count
    page.goto(close_url)
    page.get_by_role("radio", name="Everyone who can afford it").check()
    page.get_by_role("button", name="Close day 1…").click()
    assert "counted, seat by seat" in page.locator("#confirm").inner_text()
    page.get_by_role("button", name="Yes, close day 1").click()
    tables = page.locator("#count-tables")
    assert "not counted" in tables.inner_text().lower()
    assert DayClose.objects.get(day=w.day).status == DayClose.Status.COUNTING
    # Closing now is refused, in words, with the table to count linked.
    page.get_by_role("button", name="Close day 1 now").click()
    refusal = page.locator("#refusal")
    assert "waits for its count: table 1 not counted yet" in refusal.inner_text()
    shot(page, "close-waiting")

    # ---- table 1 counted blind: Andy's bag is 10 short
    refusal.get_by_role("link", name="Count of table 1").click()
    form = page.locator("#count-form")
    assert "195" not in form.inner_text()  # the records are not shown to the counter
    shot(page, "table-form")
    form.get_by_label("Seat 1 · Andy").fill("185")
    form.get_by_label("Seat 2 · Bill").fill("210")
    form.get_by_label("Seat 3 · Chris").fill("abc")
    form.get_by_role("button", name="Enter the count of table 1").click()
    assert "A count is a whole number of chips." in page.locator("#count-form").inner_text()
    assert not SeatCount.objects.exists()
    page.get_by_label("Seat 3 · Chris").fill("195")
    page.get_by_role("button", name="Enter the count of table 1").click()
    assert "1 difference to rule" in page.locator("#count-badge").inner_text().lower()
    row = page.locator("#count-table tbody tr").first
    assert [c.strip() for c in row.locator("td").all_inner_texts()[:5]] == [
        "1",
        "Andy",
        "195",
        "185",
        "-10",
    ]
    shot(page, "table-differences")

    # ---- the difference corrected to the count, with a reason
    rule = page.locator("#rule-1")
    rule.get_by_role("button", name="Rule seat 1").click()  # nothing chosen: said in place
    rule = page.locator("#rule-1")
    assert "Choose a ruling." in rule.inner_text()
    assert "Say why, in a few words." in rule.inner_text()
    rule.get_by_label("Correct the stack to the count").check()
    rule.get_by_label("Why (kept on the record)").fill("recounted twice: 185")
    rule.get_by_role("button", name="Rule seat 1").click()
    assert page.locator("#count-badge").inner_text().lower() == "counted"
    assert "Stack corrected to 185" in page.locator("#count-table").inner_text()
    assert Seat.objects.get(table=w.table, number=1).stack == 185
    correction = Transfer.objects.get(kind=Transfer.Kind.COUNT)
    assert correction.amount == 10 and correction.record_seq is not None
    shot(page, "table-ruled")

    # ---- the day closes; its report lists the count
    page.goto(close_url)
    assert "1 difference ruled" in page.locator("#count-table-1").inner_text().lower()
    page.get_by_role("button", name="Close day 1 now").click()
    deadline = time.monotonic() + 30
    while not DayClose.objects.filter(day=w.day, status="done").exists():
        assert time.monotonic() < deadline, "the close did not finish"
        time.sleep(0.2)
    page.goto(close_url)
    report = page.locator("#count-report")
    cells = [c.strip() for c in report.locator("tbody tr").first.locator("td").all_inner_texts()]
    assert cells[:6] == ["Table 1", "1", "Andy", "195", "185", "-10"]
    assert (
        "Stack corrected to the count, the difference set aside: recounted twice: 185" in (cells[6])
    )
    assert "organiser" in cells[6]
    page.locator("#count-report").scroll_into_view_if_needed()
    shot(page, "close-report")
    assert_audit_ok(w.event)
    context.close()
