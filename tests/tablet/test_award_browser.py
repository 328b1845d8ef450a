"""A large pot's second confirmation in the browser (issue 31): the dealer's tablet settles a pot
at or above the day's amount and says it waits for a second member of staff, with no next hand;
a supervisor confirms it on the floor board in a browser of their own — or signs in on the
tablet — and the table moves on. Screenshots: docs/screenshots/tablet-award-wait-1180x820.png,
docs/screenshots/floor-award-confirm.png."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from brag_event.core.actors import Actor
from brag_event.events.services import day_update_rules
from brag_event.floor.models import AwardConfirmation
from brag_event.hands.models import Hand
from tests.browser import DOCS_SHOTS, shot
from tests.factories import act, assert_audit_ok

from .conftest import Hall
from .test_tablet_browser import open_table, start_hand

pytestmark = pytest.mark.django_db(transaction=True)

BANNER = "Pot of 25 to Bill waits for a second member of staff."


def _big_pot_on_the_tablet(hall: Hall, browser: Any) -> Any:
    """The day asks for a second confirmation from 20; the dealer deals on the tablet and the
    hand's entries are the dealer's: Bill looks and bets 10, Chris and Andy fold — Bill wins
    the pot of 25. The tablet, refreshing itself, says the pot waits."""
    day_update_rules(day=hall.world.day, changes={"award_confirm_from": 20}, by=None)
    tablet = open_table(hall, browser, size=(1180, 820))
    start_hand(tablet)
    by = Actor(hall.dealer, "tablet")
    hand = Hand.objects.get()
    act(hand, by=by, seat=2, action="look")
    act(hand, by=by, seat=2, action="bet", amount=10)
    act(hand, by=by, seat=3, action="fold")
    act(hand, by=by, seat=1, action="fold")
    banner = tablet.locator("#award-wait")
    expect(banner.get_by_role("heading")).to_have_text(BANNER)
    expect(banner).to_contain_text("on the floor board, or by signing in on this tablet")
    expect(tablet.get_by_role("button", name="Start the next hand")).to_have_count(0)
    return tablet


def test_a_supervisor_confirms_on_the_floor_board_and_the_table_moves_on(
    hall: Hall, browser: Any
) -> None:
    w = hall.world
    tablet = _big_pot_on_the_tablet(hall, browser)
    expect(tablet.locator("#between")).to_be_hidden()  # no seat changes while it waits
    # (The notice that the hand moved on from another device: this test's entries.)
    tablet.get_by_role("button", name="Dismiss").click()
    shot(tablet, "tablet-award-wait-1180x820", folder=DOCS_SHOTS)

    board = hall.page(browser, who="supervisor", size=(1366, 768))
    board.goto(f"{hall.url}/organiser/events/{w.event.pk}/floor/")
    awards = board.locator("#awards")
    expect(awards).to_contain_text("Table 1, hand 1: Pot of 25 to Bill")
    expect(awards).to_contain_text("entered by dealer")
    awards.get_by_role("button", name="Confirm… the pot at table 1").click()
    expect(awards.locator(".ask")).to_contain_text("not the one who dealt the hand")
    shot(board, "floor-award-confirm", folder=DOCS_SHOTS)
    assert AwardConfirmation.objects.get().status == "waiting"  # asking changed nothing
    awards.get_by_role("button", name="Yes, confirm the pot of 25").click()
    expect(board.locator(".messages")).to_contain_text("Confirmed: Pot of 25 to Bill")
    expect(awards).to_contain_text("No large pot is waiting.")
    award = AwardConfirmation.objects.get()
    assert award.confirmed_by == hall.supervisor and award.where == "floor"

    # The tablet refreshes itself: the pot confirmed, the next hand offered and dealt.
    expect(tablet.locator("#award-wait")).to_have_count(0)
    expect(tablet.locator(".award-done")).to_have_text(
        "Pot of 25 to Bill: confirmed by supervisor."
    )
    tablet.get_by_role("button", name="Start the next hand").click()
    expect(tablet.locator(".to-act-title")).to_have_text(re.compile("to act"))
    assert Hand.objects.count() == 2
    assert_audit_ok(w.event)


def test_a_supervisor_signs_in_on_the_tablet_to_confirm_and_the_dealer_cannot(
    hall: Hall, browser: Any
) -> None:
    tablet = _big_pot_on_the_tablet(hall, browser)
    tablet.get_by_role("button", name="Confirm here…").click()
    dialog = tablet.locator("#dialog")
    expect(dialog.get_by_role("heading")).to_have_text("Confirm the pot")
    dialog.get_by_label("Supervisor's username").fill("dealer")
    dialog.get_by_label("Password").fill("dealer-pw")
    dialog.get_by_role("button", name="Confirm the pot").click()
    expect(dialog.locator(".error")).to_have_text(
        "Only a supervisor or an organiser of this event can confirm a large pot."
    )
    dialog.get_by_label("Supervisor's username").fill("supervisor")
    dialog.get_by_label("Password").fill("wrong")
    dialog.get_by_role("button", name="Confirm the pot").click()
    expect(dialog.locator(".error")).to_contain_text("do not match a member of staff")
    dialog.get_by_label("Password").fill("supervisor-pw")
    shot(tablet, "tablet-award-sign-in-1180x820")
    dialog.get_by_role("button", name="Confirm the pot").click()
    expect(dialog).to_be_hidden()
    expect(tablet.locator("#notice")).to_contain_text("Confirmed by supervisor")
    award = AwardConfirmation.objects.get()
    assert award.confirmed_by == hall.supervisor and award.where == "tablet"
    # The tablet stays the dealer's: the next hand is dealt by the dealer's session.
    expect(tablet.locator("#who")).to_contain_text("dealer")
    tablet.get_by_role("button", name="Start the next hand").click()
    expect(tablet.locator(".to-act-title")).to_have_text(re.compile("to act"))
    assert Hand.objects.order_by("number").last().started_by == hall.dealer  # type: ignore[union-attr]
    assert_audit_ok(hall.world.event)
