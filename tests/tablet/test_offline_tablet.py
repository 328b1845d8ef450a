"""The tablet keeps playing with the network cut: the action bar, the stake, the pots and the
result come from the engine running in the browser (Pyodide); on reconnect the queue drains in
order, and the server's log equals the tablet's."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from brag_event.hands.models import Hand, HandAction
from brag_event.tables.models import Seat
from tests.browser import shot
from tests.factories import assert_audit_ok

from .conftest import Hall, andy_and_bill_show
from .test_tablet_browser import bet_least, open_table, start_hand

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

BOOT = 180_000  # Pyodide's cold start on a loaded 2-core machine


def engine_ready(page: Any) -> None:
    expect(page.locator("#engine-status")).to_have_text("Offline entry ready", timeout=BOOT)


def test_a_whole_hand_offline_then_reconnected_matches_the_server(hall: Hall, browser: Any) -> None:
    page = open_table(hall, browser)
    engine_ready(page)
    # Online, the offline entry's state is not the dealer's concern: not shown.
    expect(page.locator("#engine-status")).to_be_hidden()
    # The start's answer brings the hand's start document: the tablet needs no read of the
    # hand's history to go on offline (a drop right after the start once left it without).
    history = re.compile(r"/api/v1/hands/\d+/history/$")
    page.route(history, lambda route: route.abort())
    start_hand(page)
    page.context.set_offline(True)
    bet_least(page, "Bill (seat 2)", 3)
    expect(page.locator("#net")).to_contain_text("queued")
    expect(page.locator("#engine-status")).to_be_visible()  # now it matters
    # The next player's bar comes from the tablet's engine: no answer came from the server
    # (drawn once the engine has replayed the hand: seconds on a loaded machine).
    fold = page.get_by_role("button", name="Fold")
    expect(fold).to_be_visible(timeout=60_000)
    fold.click()  # Chris, seat 3
    expect(page.locator(".s3")).to_have_class(re.compile("folded"))
    bet_least(page, "Andy (seat 1)", 3)
    expect(page.get_by_role("button", name="See for 6")).to_be_visible()
    shot(page, "21-offline-mid-hand")
    page.get_by_role("button", name="See for 6").click()
    andy_and_bill_show(page)
    expect(page.locator("#queue li")).to_have_count(6)
    shot(page, "22-offline-settled")
    tablet_log = page.evaluate("() => window.__bragOfflineLog && window.__bragOfflineLog()")
    timings = page.evaluate("() => window.__bragOffline")
    taps = sorted(timings["taps"])
    print(  # figures for the README, not assertions: this machine's load varies
        f"engine boot {timings['boot']['total'] / 1000:.1f} s (cold); offline tap to the new "
        f"action bar: median {taps[len(taps) // 2]:.0f} ms, max {taps[-1]:.0f} ms ({len(taps)})"
    )
    assert HandAction.objects.count() == 0  # nothing reached the server
    # Reconnect: the queue drains in order, each answer checked against the tablet's.
    page.context.set_offline(False)
    expect(page.locator("#queue")).to_be_hidden(timeout=30_000)
    expect(page.locator("#notice")).to_be_hidden()
    hand = Hand.objects.get()
    assert hand.status == Hand.Status.SETTLED and hand.result is not None
    assert hand.result["pots"][0]["winners"] == [2]
    server_log = [
        {k: v for k, v in row.items() if v not in (None, "")}
        for row in HandAction.objects.order_by("seq").values(
            "seat", "action", "amount", "hand_choice", "cards"
        )
    ]
    assert [(a["seat"], a["action"]) for a in server_log] == [
        (a["seat"], a["action"]) for a in tablet_log
    ]
    assert [a.get("amount") for a in server_log] == [a.get("amount") for a in tablet_log]
    expect(page.locator(".s2 .stack")).to_have_text(str(200 - 5 - 3 - 6 + 27))
    stacks = dict(Seat.objects.values_list("number", "stack"))
    for number, stack in stacks.items():
        expect(page.locator(f".s{number} .stack")).to_have_text(str(stack))
    assert_audit_ok(hall.world.event)


# A supervisor's void met offline, said with who, what and why: test_offline_first_visit.py.
