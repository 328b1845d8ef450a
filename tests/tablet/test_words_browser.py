"""The tablet's words add up (issue 44): no pot of nothing after a cover, an agreed showdown
asked once and offered only once everyone still in has bet, "seen at" in the status line."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from playwright.sync_api import expect

from brag_event.hands.models import Hand, HandAction
from brag_event.players.services import player_register
from brag_event.tables.services import seat_buy_in
from tests.factories import act, assert_audit_ok, start

from .conftest import Hall, pick_cards
from .test_tablet_browser import bet_least, open_table, start_hand

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_covered_pot_with_nothing_bet_after_it_is_no_pot(hall: Hall, browser: Any) -> None:
    """Dan (seat 4, 3 left after the ante) covers; Andy folds; Bill folds to Chris: the pot
    the cover opened holds nothing, and neither the hand nor its result speaks of it."""
    w = hall.world
    w.day.table_min = 5
    w.day.save(update_fields=["table_min"])
    dan = player_register(event=w.event, name="Dan", starting_money=1000, by=None)
    seat_buy_in(table=w.table, seat_number=4, player=dan, amount=8, by=None)
    hand = start(w)
    hand, _ = act(hand, seat=2, action="look")
    hand, _ = act(hand, seat=2, action="bet", amount=10)
    hand, _ = act(hand, seat=3, action="look")
    hand, _ = act(hand, seat=3, action="bet", amount=10)
    hand, _ = act(hand, seat=4, action="cover")
    hand, state = act(hand, seat=1, action="fold")
    assert [p.amount for p in state.pots][1] == 0  # the engine's own newest pot: nothing yet
    page = open_table(hall, browser)
    pots = page.locator("#centre .pot")
    expect(pots).to_have_count(1)
    expect(pots.first).to_have_text(re.compile(r"^Pot: \d+ MB \(covered by Dan \(seat 4\)\)$"))
    expect(page.locator(".to-act-title")).to_have_text("Bill (seat 2) to act")
    page.get_by_role("button", name="Fold").click()
    pick_cards(page, "Chris (seat 3)", ("Ah", "Kh", "Qh"))
    page.locator("#show-submit").click()
    pick_cards(page, "Dan (seat 4)", ("2c", "3d", "5s"))
    page.locator("#show-submit").click()
    result = page.locator("#result")
    expect(result).to_contain_text("Chris (seat 3) wins")
    text = result.inner_text()
    assert not re.search(r"\bwins 0\b|: 0 MB|Pot 2", text), text
    expect(page.locator("#centre .pot")).to_have_count(1)
    settled = Hand.objects.get()
    assert settled.result is not None and len(settled.result["pots"]) == 2  # the record: both
    assert_audit_ok(w.event)


def test_the_agreed_showdown_asks_once_and_only_once_everyone_has_bet(
    hall: Hall, browser: Any
) -> None:
    page = open_table(hall, browser)
    start_hand(page)
    agreed = page.locator("#agreed-showdown")
    expect(agreed).to_have_count(0)  # nobody has bet: nobody has had a say yet
    bet_least(page, "Bill (seat 2)", 3)
    expect(page.locator(".to-act-title")).to_have_text("Chris (seat 3) to act")
    expect(agreed).to_have_count(0)
    bet_least(page, "Chris (seat 3)", 3)
    bet_least(page, "Andy (seat 1)", 3)
    expect(page.locator(".to-act-title")).to_have_text("Bill (seat 2) to act")
    expect(agreed).to_have_text("Agreed showdown…")
    entered = HandAction.objects.count()
    agreed.click()
    dialog = page.locator("#dialog")
    expect(dialog).to_contain_text("Bill (seat 2), Chris (seat 3), Andy (seat 1)")
    dialog.get_by_role("button", name="Cancel").click()
    expect(dialog).to_be_hidden()
    assert HandAction.objects.count() == entered  # a mis-tap changes nothing
    expect(page.locator("#showdown")).to_be_hidden()
    agreed.click()
    dialog.get_by_role("button", name="Yes, everyone agrees").click()
    expect(page.locator("#showdown")).to_be_visible()
    assert HandAction.objects.filter(action="showdown").count() == 1


def test_the_status_line_says_when_the_table_was_seen(hall: Hall, browser: Any) -> None:
    page = open_table(hall, browser)
    net = page.locator("#net")
    expect(net).to_contain_text("Online \u2014 table seen at")
    seen = net.inner_text().rsplit(" ", 1)[-1]
    zone = ZoneInfo(hall.world.event.time_zone)
    now = dt.datetime.now(zone)
    near = {(now + dt.timedelta(minutes=m)).strftime("%H:%M") for m in (-1, 0, 1)}
    assert seen in near, (seen, near)  # the event's time zone
