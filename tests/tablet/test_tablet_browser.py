"""The dealer's tablet in a real browser (headless Chromium), against the live server."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from brag_event.hands.models import Hand, HandAction
from tests.browser import DOCS_SHOTS, shot
from tests.factories import assert_audit_ok

from .conftest import Hall, andy_and_bill_show, pick_cards

pytestmark = pytest.mark.django_db(transaction=True)


def open_table(hall: Hall, browser: Any, **kw: Any) -> Any:
    page = hall.page(browser, **kw)
    expect(page.get_by_role("link", name=re.compile("Table 1"))).to_be_visible()
    if not kw:
        shot(page, "00-your-tables")
    page.get_by_role("link", name=re.compile("Table 1")).click()
    expect(page.locator("#title")).to_contain_text("Table 1")
    return page


def start_hand(page: Any) -> None:
    page.get_by_role("button", name="Start the next hand").click()
    expect(page.locator(".to-act-title")).to_have_text("Bill (seat 2) to act")


class ApiInFlight:
    """The page's API requests still waiting for their answer (the browser's own events)."""

    def __init__(self, page: Any) -> None:
        self.pending: set[Any] = set()
        page.on("request", self._sent)
        page.on("requestfinished", self._done)
        page.on("requestfailed", self._done)

    def _sent(self, request: Any) -> None:
        if "/api/" in request.url:
            self.pending.add(request)

    def _done(self, request: Any) -> None:
        self.pending.discard(request)

    def wait_idle(self, page: Any, timeout_ms: int = 10_000) -> None:
        waited = 0
        while self.pending and waited < timeout_ms:
            page.wait_for_timeout(50)  # real time: the page's own clock may be held still
            waited += 50
        assert not self.pending, [r.url for r in self.pending]


def bet_least(page: Any, who: str, amount: int) -> None:
    expect(page.locator(".to-act-title")).to_have_text(f"{who} to act")
    page.locator(".quick .chip").first.click()  # the least
    page.locator("#bet-submit").click()


def test_a_whole_hand_with_blind_play_a_see_and_the_card_picker(hall: Hall, browser: Any) -> None:
    page = open_table(hall, browser)
    shot(page, "01-between-hands")
    start_hand(page)
    shot(page, "02-first-to-act")
    bet_least(page, "Bill (seat 2)", 3)
    expect(page.locator(".s2 .badge.blind")).to_be_visible()
    page.get_by_role("button", name="Fold").click()  # Chris, seat 3
    expect(page.locator(".s3")).to_have_class(re.compile("folded"))
    bet_least(page, "Andy (seat 1)", 3)
    expect(page.locator(".to-act-title")).to_have_text("Bill (seat 2) to act")
    shot(page, "03-see-offered")
    page.get_by_role("button", name="See for 6").click()
    # The showdown: the seen player's cards first, through the 52-card picker.
    result = andy_and_bill_show(page, picker_shot="04-card-picker")
    expect(result).to_contain_text("running flush")
    expect(page.locator(".s2 .stack")).to_have_text(str(200 - 5 - 3 - 6 + 27))  # ante, bet, see
    shot(page, "05-result")
    hand = Hand.objects.get()
    assert hand.status == Hand.Status.SETTLED and hand.result is not None
    assert hand.result["pots"][0]["winners"] == [2]
    assert HandAction.objects.filter(hand=hand).count() == 6
    assert_audit_ok(hall.world.event)


@pytest.mark.parametrize("size", [(1180, 820), (820, 1180)], ids=["landscape", "portrait"])
def test_a_see_given_up_on_the_tablet(hall: Hall, browser: Any, size: tuple[int, int]) -> None:
    """RULES §3.6: Bill sees Andy; once Andy's hand is shown, Bill gives up with one tap, next
    to the card picker, and his cards are never entered."""
    page = open_table(hall, browser, size=size)
    start_hand(page)
    bet_least(page, "Bill (seat 2)", 3)
    page.get_by_role("button", name="Fold").click()  # Chris, seat 3
    bet_least(page, "Andy (seat 1)", 3)
    page.get_by_role("button", name="See for 6").click()
    give_up = page.locator("#showdown .give-up")
    pick_cards(page, "Andy (seat 1)", ("Ah", "Kh", "Qh"))
    expect(give_up).to_have_count(0)  # not before the hand against Bill is shown
    page.locator("#show-submit").click()
    expect(page.locator("#showdown h2")).to_contain_text("Bill (seat 2)")
    expect(give_up).to_have_text("Bill (seat 2) gives up (cards stay hidden)")
    width, height = size
    shot(page, f"tablet-give-up-{width}x{height}", folder=DOCS_SHOTS)
    give_up.click()
    result = page.locator("#result")
    expect(result).to_contain_text("Andy (seat 1) wins 27")
    expect(result).to_contain_text("Bill (seat 2) gave up without showing")
    expect(page.locator("#log-list")).to_contain_text("Bill (seat 2) gives up")
    shot(page, f"tablet-given-up-result-{width}x{height}", folder=DOCS_SHOTS)
    hand = Hand.objects.get()
    assert hand.status == Hand.Status.SETTLED and hand.result is not None
    assert hand.result["pots"][0]["winners"] == [1] and hand.result["conceded"] == [2]
    assert HandAction.objects.filter(hand=hand, action="concede", seat=2).count() == 1
    assert not HandAction.objects.filter(hand=hand, seat=2, action="show").exists()
    assert_audit_ok(hall.world.event)


def test_only_legal_entries_are_offered(hall: Hall, browser: Any) -> None:
    page = open_table(hall, browser, portrait=True)
    start_hand(page)
    # Three players in: no see yet, with the engine's reason on the tablet.
    see = page.get_by_role("button", name="See", exact=True)
    expect(see).to_be_disabled()
    expect(page.locator(".reason").first).to_contain_text("two")
    # The stepper keeps a bet inside the legal range; a typed amount outside it is refused.
    amount = page.locator("#bet-amount")
    page.get_by_role("button", name="5 more").click()
    page.get_by_role("button", name="5 more").click()
    page.get_by_role("button", name="5 more").click()
    expect(page.locator("#bet-submit")).to_have_text("Bet 10 blind (stake 20)")
    page.get_by_role("button", name="5 less").click()
    expect(amount).to_have_value("5")
    amount.fill("0")
    expect(amount).to_have_value("0")
    expect(page.locator("#bet-submit")).to_be_disabled()
    shot(page, "06-portrait-legal-actions")
    # The undo is a supervisor's: a dealer's tablet does not offer it.
    expect(page.get_by_role("button", name="Undo the last action…")).to_have_count(0)
    assert HandAction.objects.count() == 0


def test_a_wifi_drop_queues_in_order_survives_a_reload_and_enters_once(
    hall: Hall, browser: Any
) -> None:
    page = open_table(hall, browser)
    start_hand(page)
    # The network drops: actions are not answered.
    page.route("**/api/v1/hands/*/actions/", lambda route: route.abort("internetdisconnected"))
    page.get_by_role("button", name="Everyone looked").click()
    expect(page.locator("#net")).to_contain_text("queued")
    expect(page.locator("#queue li")).to_have_count(3)
    shot(page, "07-queued-offline")
    assert HandAction.objects.count() == 0
    # A reload loses nothing: the queue is kept on the tablet.
    page.reload()
    expect(page.locator("#queue li")).to_have_count(3)
    expect(page.locator("#queue")).to_contain_text("Bill (seat 2) looks")
    # The first one reaches the server but its answer is lost: the retry must not enter twice.
    lost = {"done": False}

    def lose_one_answer(route: Any) -> None:
        if not lost["done"]:
            lost["done"] = True
            route.fetch()  # the server enters it…
            route.abort("connectionreset")  # …and the answer never arrives
        else:
            route.continue_()

    page.unroute("**/api/v1/hands/*/actions/")
    page.route("**/api/v1/hands/*/actions/", lose_one_answer)
    expect(page.locator("#queue")).to_be_hidden(timeout=15_000)
    expect(page.locator("#net")).to_contain_text("Online")
    looks = list(HandAction.objects.order_by("seq").values_list("seq", "seat", "action"))
    assert looks == [(1, 2, "look"), (2, 3, "look"), (3, 1, "look")]
    expect(page.locator(".s1 .badge.open")).to_be_visible()  # a player who looked plays open


def test_a_second_tablet_moves_the_hand_on(hall: Hall, browser: Any) -> None:
    first = open_table(hall, browser)
    first.clock.install()  # fake timers: the page's clock flows until it is paused
    in_flight = ApiInFlight(first)
    first.reload()
    expect(first.locator("#title")).to_contain_text("Table 1")
    start_hand(first)
    # The first tablet's screen stays as drawn until we move its clock: its clock is paused
    # (an installed clock still flows, so its 2-second refresh could show it the other device's
    # move before the tap) and its reads in flight are answered first.
    first.clock.pause_at(first.evaluate("Date.now()") + 10)
    in_flight.wait_idle(first)
    second = open_table(hall, browser, who="supervisor")
    second.get_by_role("button", name="Fold").click()  # Bill folds, from the other tablet
    expect(second.locator(".to-act-title")).to_have_text("Chris (seat 3) to act")
    # The first tablet still shows Bill to act; its stale entry is refused and it redraws.
    first.get_by_role("button", name="Fold").click()
    notice = first.locator("#notice")
    # Who moved it on, and what: from the hand's record.
    expect(notice).to_contain_text("The supervisor entered \u201cBill (seat 2) folds\u201d.")
    expect(notice).to_contain_text("Not entered from this tablet: \u201cBill (seat 2) folds\u201d")
    expect(first.locator(".to-act-title")).to_have_text("Chris (seat 3) to act")
    shot(first, "08-moved-on-elsewhere")
    assert list(HandAction.objects.values_list("seat", "action")) == [(2, "fold")]
    # The supervisor may undo, with a reason.
    second.get_by_role("button", name="Undo the last action…").click()
    second.get_by_role("button", name="Undo", exact=True).click()
    expect(second.locator("#dialog .error")).to_contain_text("Say why")
    second.get_by_label("Why? (required)").fill("entered on the wrong seat")
    second.get_by_role("button", name="Undo", exact=True).click()
    expect(second.locator(".to-act-title")).to_have_text("Bill (seat 2) to act")
    # The first tablet sees it on its next refresh, and says so.
    first.clock.run_for(2500)
    expect(first.locator(".to-act-title")).to_have_text("Bill (seat 2) to act")
    # Nothing has changed since: its next refresh names the version it shows and gets a 304.
    with first.expect_response(lambda r: "/api/v1/tables/" in r.url and r.status == 304) as same:
        first.clock.run_for(2500)
    assert same.value.request.headers["if-none-match"].startswith('"table-')
    expect(first.locator(".to-act-title")).to_have_text("Bill (seat 2) to act")


def test_between_hands_with_a_device_token(hall: Hall, browser: Any) -> None:
    from brag_event.api.models import DeviceToken, token_hash
    from brag_event.players.services import player_register
    from brag_event.tables.models import Seat

    dan = player_register(event=hall.world.event, name="Dan", starting_money=500, by=None)
    key = DeviceToken.new_key()
    DeviceToken.objects.create(
        user=hall.dealer, name="Table 1 tablet", key_hash=token_hash(key), prefix=key[:6]
    )
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    hall.contexts.append(context)
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.goto(f"{hall.url}/tablet/login/")
    page.get_by_label("Device token").fill(key)
    page.get_by_role("button", name="Use this token").click()
    page.get_by_role("link", name=re.compile("Table 1")).click()
    expect(page.locator("#who")).to_contain_text("dealer")
    # Buy-in at an empty seat.
    page.locator(".seat-admin li", has_text="Seat 4: empty").get_by_role("button").click()
    page.get_by_label("Player").select_option(label="Dan (500)")
    page.get_by_label("Amount").fill("150")
    page.get_by_role("button", name="Buy in", exact=True).click()
    expect(page.locator(".s4 .name")).to_have_text("Dan")
    # Sit out: the next hand is dealt without that seat.
    page.locator(".seat-admin li", has_text="Seat 3: Chris").get_by_role(
        "button", name="Sit out"
    ).click()
    expect(page.locator(".seat-admin li", has_text="Seat 3: Chris")).to_contain_text("sitting out")
    page.get_by_role("button", name="Start the next hand").click()
    expect(page.locator(".to-act-title")).to_be_visible()
    hand = Hand.objects.get()
    assert sorted(s["seat"] for s in hand.seats if s["dealt"]) == [1, 2, 4]
    assert Seat.objects.get(player=dan, left_at__isnull=True).stack == 150 - 5  # the ante
    assert_audit_ok(hall.world.event)


def test_a_rebuy_is_offered_only_at_a_seat_that_has_run_out(hall: Hall, browser: Any) -> None:
    """Every seat still has money: no re-buy, for a dealer or a supervisor (a refused re-buy is
    said in its dialog: tests/tablet/test_dealer_corrections.py)."""
    page = open_table(hall, browser, who="supervisor")
    expect(page.locator("#who")).to_have_text("supervisor")  # the name once, not its role again
    expect(page.locator(".seat-admin li", has_text="Seat 1: Andy")).to_be_visible()
    expect(page.get_by_role("button", name="Leave")).to_have_count(3)
    expect(page.get_by_role("button", name="Re-buy…")).to_have_count(0)


def test_touch_targets_are_at_least_44_px_on_a_phone(hall: Hall, browser: Any) -> None:
    page = hall.page(browser, size=(390, 844), touch=True)
    page.get_by_role("link", name=re.compile("Table 1")).click()
    start_hand(page)
    small = page.evaluate(
        """() => [...document.querySelectorAll('button, input, select, a.tile')]
            .filter(e => e.offsetParent !== null)
            .map(e => [e.textContent.trim() || e.name || e.id, e.getBoundingClientRect()])
            .filter(([, r]) => r.width < 44 || r.height < 44)
            .map(([name, r]) => `${name}: ${Math.round(r.width)}x${Math.round(r.height)}`)"""
    )
    assert small == []
    # Nothing wider than the phone's screen.
    wide = page.evaluate(
        """() => [...document.querySelectorAll('body *')]
            .filter(e => e.getBoundingClientRect().right > 391)
            .map(e => e.tagName + '.' + e.className)"""
    )
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390, wide
    # The card picker too (an agreed showdown, once everyone still in has bet).
    for who in ("Bill (seat 2)", "Chris (seat 3)", "Andy (seat 1)"):
        bet_least(page, who, 3)
    page.get_by_role("button", name="Agreed showdown…").click()
    page.get_by_role("button", name="Yes, everyone agrees").click()
    expect(page.locator("#showdown")).to_be_visible()
    widths = page.evaluate(
        "() => [...document.querySelectorAll('.card')].map(e => e.getBoundingClientRect().width)"
    )
    assert len(widths) == 52 and min(widths) >= 44
    shot(page, "09-phone-card-picker")
