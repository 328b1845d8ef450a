"""The floor in the browser (issue 17): the dealer calls the floor from the tablet, the
supervisor sees the call on the floor's screen and the organiser's dashboard, takes it, declares
a misdeal and gives a warning; the dealer's tablet says "Misdeal — shuffle and deal again" and
the same dealer deals again. With ``BRAG_SHOTS=1`` its
screenshots go to test-results/screenshots/floor-*.png."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import Group, User
from playwright.sync_api import expect

from brag_event.floor.models import FloorCall, Misdeal, Penalty
from brag_event.floor.services import ruling_record
from brag_event.hands.models import Hand
from tests.browser import shot
from tests.factories import act, assert_audit_ok

from .conftest import Hall
from .test_tablet_browser import open_table, start_hand

pytestmark = pytest.mark.django_db(transaction=True)


def test_call_the_floor_misdeal_and_warning(hall: Hall, browser: Any) -> None:
    w = hall.world
    User.objects.create_user("organiser", password="organiser-pw").groups.add(
        Group.objects.get_or_create(name="organiser")[0]
    )
    tablet = open_table(hall, browser)
    start_hand(tablet)
    tablet.locator("#floor-note").fill("A card was dealt face up")
    tablet.get_by_role("button", name="Call the floor").click()
    expect(tablet.locator("#floor-status")).to_contain_text("Floor called at")
    shot(tablet, "floor-01-tablet-called")
    call = FloorCall.objects.get()
    assert call.hand is not None and call.note == "A card was dealt face up"

    organiser = hall.page(browser, who="organiser")
    organiser.goto(f"{hall.url}/organiser/events/{w.event.pk}/")
    expect(organiser.locator(".floor-calls")).to_contain_text("Floor called: 1 open call")
    shot(organiser, "floor-02-dashboard-alert")

    supervisor = hall.page(browser, who="supervisor")
    supervisor.goto(f"{hall.url}/organiser/events/{w.event.pk}/floor/")
    expect(supervisor.locator(".calls")).to_contain_text("A card was dealt face up")
    supervisor.get_by_role("link", name="Open the call").click()
    supervisor.get_by_role("button", name="Take this call").click()
    supervisor.get_by_label("Why is it a misdeal?").fill("a card dealt face up")
    shot(supervisor, "floor-03-call-page")
    supervisor.get_by_role("button", name="Declare a misdeal").click()
    expect(supervisor.locator(".messages")).to_contain_text("Misdeal of hand 1")
    supervisor.get_by_label("What happened").fill("The dealer turned a card over; Bill named it")
    supervisor.get_by_label("Players involved").select_option(label="Bill")
    supervisor.get_by_label("Decision").fill("Misdeal; a warning for Bill")
    supervisor.get_by_label("Penalty", exact=True).select_option("warning")
    supervisor.get_by_role("button", name="Record the ruling").click()
    expect(supervisor.locator("body")).to_contain_text("Misdeal; a warning for Bill")
    shot(supervisor, "floor-04-board-after-ruling")
    assert Misdeal.objects.count() == 1
    assert Penalty.objects.get().player.name == "Bill"

    # The tablet refreshes itself: the misdeal, then the same dealer shuffles and deals again.
    expect(tablet.locator("#floor-misdeal")).to_contain_text("Misdeal — shuffle and deal again")
    expect(tablet.locator("#next")).to_contain_text("Shuffle the deck")
    shot(tablet, "floor-05-tablet-misdeal")
    tablet.get_by_role("button", name="Start the next hand").click()
    expect(tablet.locator(".to-act-title")).to_have_text(re.compile("to act"))
    hands = list(Hand.objects.order_by("number"))
    assert [h.dealer_seat for h in hands] == [1, 1] and hands[1].shuffle_before
    shot(tablet, "floor-06-tablet-redeal")
    assert_audit_ok(w.event)


def test_a_disqualification_after_the_see_settles_the_hand_on_the_tablet(
    hall: Hall, browser: Any
) -> None:
    """Bill looks and bets, Chris folds, Andy looks and sees Bill; the dealer enters Bill's
    cards — and the floor disqualifies Andy before his are shown (RULES §4b): the tablet, which
    was asking for Andy's cards, shows the hand settled, Bill the winner as after a fold."""
    w = hall.world
    tablet = open_table(hall, browser)
    start_hand(tablet)
    hand = Hand.objects.get()
    act(hand, seat=2, action="look")
    act(hand, seat=2, action="bet", amount=10)
    act(hand, seat=3, action="fold")
    act(hand, seat=1, action="look")
    act(hand, seat=1, action="see")
    act(hand, seat=2, action="show", cards="As Ks Qs")
    tablet.reload()
    expect(tablet.locator("body")).to_contain_text("Andy")
    ruling_record(
        table=w.table,
        what_happened="Andy showed his cards to Chris before the show",
        decision="Disqualified",
        players=[w.players[0].pk],
        penalty="disqualified",
        by=None,
    )
    # The tablet refreshes itself (the table's version moved).
    # Who won, then why (each said once).
    expect(tablet.locator("#result .win")).to_have_text("Bill (seat 2) wins 45")
    expect(tablet.locator("#result .why")).to_have_text(
        "Everyone else folded or was disqualified (Andy (seat 1))."
    )
    shot(tablet, "floor-07-tablet-disqualified-after-see")
    assert Hand.objects.get().status == Hand.Status.SETTLED
    assert_audit_ok(w.event)
