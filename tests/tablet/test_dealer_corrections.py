"""The dealer's own corrections on the tablet, in a real browser: taking back their last entry
(one tap on a reason; anything further back or a settled hand stays the supervisor's), the bet
amount starting afresh for each player, and a re-buy at a seat that has run out — the amount
said before and after, every other seated player's consent ticked."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from brag_event.audit.models import AuditEntry
from brag_event.hands.models import ActionVoid, Hand, HandAction
from brag_event.hands.selectors import hand_state
from brag_event.hands.services import hand_start
from brag_event.tables.models import RebuyConsent, Seat, Table
from tests.browser import shot
from tests.factories import act, assert_audit_ok

from .conftest import Hall
from .test_tablet_browser import open_table, start_hand

pytestmark = pytest.mark.django_db(transaction=True)


def lose_everything(table: Table, loser: int, winner: int) -> Hand:
    """A hand at ``table`` in which seat ``loser`` loses their whole stack to seat ``winner``
    (the others fold); the hand is settled."""
    hand = hand_start(table=table, by=None)
    state = hand_state(hand)
    while state.phase == "betting":
        seat = state.to_act
        assert seat is not None
        player = state.by_seat[seat]
        if seat not in (loser, winner):
            hand, state = act(hand, seat=seat, action="fold")
        elif player.blind:
            hand, state = act(hand, seat=seat, action="look")
        elif seat == loser and player.stack < 40:
            hand, state = act(hand, seat=seat, action="cover")
        else:
            hand, state = act(hand, seat=seat, action="bet", amount=20)
    cards = {winner: "As Ad Ac", loser: "2s 3d 5c"}
    while state.cards_needed:
        seat = state.cards_needed[0]
        hand, state = act(hand, seat=seat, action="show", cards=cards[seat])
    assert state.is_settled and state.by_seat[loser].stack == 0
    return hand


def fetch_json(page: Any, path: str, body: dict[str, Any]) -> Any:
    """POST ``body`` to the API from the page, as the signed-in dealer (session and CSRF)."""
    return page.evaluate(
        """([path, body]) => fetch(path, {method: "POST", credentials: "same-origin",
            headers: {"Content-Type": "application/json", "X-CSRFToken":
              (document.cookie.match(/csrftoken=([^;]+)/) || [])[1] || ""},
            body: JSON.stringify(body)}).then(r => r.json().then(j => [r.status, j]))""",
        [path, body],
    )


def test_the_dealer_takes_back_their_own_last_entry(hall: Hall, browser: Any) -> None:
    page = open_table(hall, browser)
    expect(page.locator("#who")).to_have_text("dealer")  # the dealer's name, once
    start_hand(page)
    page.get_by_role("button", name="Bill (seat 2)", exact=True).click()  # Bill looked
    last = page.locator("#last-entry")
    expect(last).to_contain_text("Bill (seat 2) looks")
    page.locator('.quick .chip[data-amount="10"]').click()
    page.locator("#bet-submit").click()
    expect(page.locator(".to-act-title")).to_have_text("Chris (seat 3) to act")
    expect(last).to_contain_text("Last entry: Bill (seat 2) bets 10")
    # One tap opens the reasons; one tap on a reason takes the bet back.
    page.get_by_role("button", name="Take back…").click()
    dialog = page.locator("#dialog")
    expect(dialog).to_contain_text("Take back “Bill (seat 2) bets 10”?")
    shot(page, "tablet-take-back-dialog")
    dialog.get_by_role("button", name="Wrong amount").click()
    expect(dialog).to_be_hidden()
    expect(page.locator(".to-act-title")).to_have_text("Bill (seat 2) to act")
    expect(page.locator("#notice")).to_contain_text("Taken back: Bill (seat 2) bets 10")
    expect(page.locator(".s2 .stack")).to_have_text("195")  # the bet's money is back
    void = ActionVoid.objects.get()
    assert void.action.action == "bet" and void.voided_by == hall.dealer
    assert void.reason == "wrong amount (taken back at the table)"
    assert AuditEntry.objects.filter(verb="hand.void", actor=hall.dealer).count() == 1
    # The look is still live, now two entries back: not offered, and refused by the server.
    expect(last).to_be_hidden()
    hand = Hand.objects.get()
    status, answer = fetch_json(
        page,
        f"/api/v1/hands/{hand.pk}/take-back/",
        {"reason": "wrong_action", "expected_seq": hand.next_seq},
    )
    assert status == 403 and answer["error"]["code"] == "earlier_entry_supervisor_only"
    assert ActionVoid.objects.count() == 1
    # The dealer enters the bet again as it was.
    page.locator('.quick .chip[data-amount="5"]').click()
    page.locator("#bet-submit").click()
    expect(last).to_contain_text("Bill (seat 2) bets 5")
    assert_audit_ok(hall.world.event)


def test_a_settled_hand_is_the_supervisors(hall: Hall, browser: Any) -> None:
    page = open_table(hall, browser)
    start_hand(page)
    page.get_by_role("button", name="Fold").click()  # Bill
    expect(page.locator(".to-act-title")).to_have_text("Chris (seat 3) to act")
    page.get_by_role("button", name="Take back…").click()
    # Meanwhile another device ends the hand: Chris folds (Andy, blind, keeps the pot carried).
    hand = Hand.objects.get()
    act(hand, seat=3, action="fold")
    page.locator("#dialog").get_by_role("button", name="Wrong seat").click()
    error = page.locator("#dialog .error")
    expect(error).to_contain_text("This hand is settled: only a supervisor can correct it now")
    assert not ActionVoid.objects.exists()
    page.locator("#dialog").get_by_role("button", name="Cancel").click()
    page.reload()
    expect(page.locator("#result")).to_contain_text("Everyone folded to Andy (seat 1)")
    expect(page.locator("#last-entry")).to_be_hidden()  # a settled hand: nothing to take back
    hand.refresh_from_db()
    assert hand.status == Hand.Status.SETTLED
    assert_audit_ok(hall.world.event)


def test_the_bet_amount_starts_at_each_players_least(hall: Hall, browser: Any) -> None:
    page = open_table(hall, browser)
    start_hand(page)
    amount = page.locator("#bet-amount")
    submit = page.locator("#bet-submit")
    # Bill (blind) is set to bet 10, then folds instead.
    page.locator('.quick .chip[data-amount="10"]').click()
    expect(submit).to_have_text("Bet 10 blind (stake 20)")
    page.get_by_role("button", name="Fold").click()
    # Chris, blind too, starts from his least: not Bill's 10.
    expect(page.locator(".to-act-title")).to_have_text("Chris (seat 3) to act")
    expect(amount).to_have_value("3")
    expect(submit).to_have_text("Bet 3 blind (stake 6)")
    # Chooses 5; someone else looking does not change who acts, nor the amount.
    page.locator('.quick .chip[data-amount="5"]').click()
    page.get_by_role("button", name="Andy (seat 1)", exact=True).click()  # Andy looked
    expect(page.locator("#last-entry")).to_contain_text("Andy (seat 1) looks")
    expect(amount).to_have_value("5")
    submit.click()  # Chris bets 5 blind: a stake of 10
    # Andy, open, starts from the stake.
    expect(page.locator(".to-act-title")).to_have_text("Andy (seat 1) to act")
    expect(amount).to_have_value("10")
    expect(submit).to_have_text("Bet 10")
    assert [a.action for a in HandAction.objects.order_by("seq")] == ["fold", "look", "bet"]


def test_a_dealer_rebuys_a_run_out_seat_with_everyones_consent(hall: Hall, browser: Any) -> None:
    w = hall.world
    lose_everything(w.table, loser=2, winner=3)
    page = open_table(hall, browser)
    seats = page.locator(".seat-admin li")
    bill = seats.filter(has_text="Seat 2: Bill")
    expect(bill).to_contain_text("· 0")
    # Offered only at the seat that has run out.
    expect(page.get_by_role("button", name="Re-buy…")).to_have_count(1)
    bill.get_by_role("button", name="Re-buy…").click()
    dialog = page.locator("#dialog")
    expect(dialog.locator("#rebuy-amount")).to_have_text("Re-buy 200 MB + fee 10")
    expect(dialog).to_contain_text("210 MB in all; the stack becomes 200")
    boxes = dialog.locator("input[type=checkbox]")
    expect(boxes).to_have_count(2)  # Andy and Chris
    boxes.nth(0).check()
    dialog.get_by_role("button", name="Re-buy 200 MB").click()
    # Chris has not agreed: refused in the dialog, which stays open; nothing changed.
    expect(dialog.locator(".error")).to_contain_text("missing: Chris")
    assert Seat.objects.get(pk=w.seat(2).pk).stack == 0
    boxes.nth(1).check()
    shot(page, "tablet-rebuy-dialog")
    dialog.get_by_role("button", name="Re-buy 200 MB").click()
    expect(dialog).to_be_hidden()
    expect(page.locator("#notice")).to_contain_text(
        "Bill re-bought 200 MB and paid the fee of 10: the stack at seat 2 is 200."
    )
    expect(page.locator(".s2 .stack")).to_have_text("200")
    expect(page.get_by_role("button", name="Re-buy…")).to_have_count(0)
    assert RebuyConsent.objects.filter(rebuy_seat=w.seat(2)).count() == 2
    assert AuditEntry.objects.get(verb="seat.rebuy").actor == hall.dealer
    assert_audit_ok(w.event)
    # The next hand deals Bill in again.
    page.get_by_role("button", name="Start the next hand").click()
    expect(page.locator(".to-act-title")).to_have_text(re.compile(" to act$"))
    assert [s["seat"] for s in Hand.objects.latest("number").seats if s["dealt"]] == [1, 2, 3]
