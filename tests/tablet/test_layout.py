"""Layout that holds at every size a floor uses — measured, not looked at: the dealer's tablet
at 1180×820 and 820×1180 (a 10" tablet), 390×844 (a phone) and 1920×1080 (the hall's screen),
six seats of 20-character names, in a hand and between hands: no two visible seat, title or
action elements overlap, no page is wider than the screen, every control is at least 44 px, and
every name is shown whole; on the tablet, the action bar and the call to the floor are in the
first screen, without scrolling. Then the taps a dealer needs for a typical hand.

With ``BRAG_DOCS_SHOTS=1`` the screenshots go to ``docs/screenshots/`` (the README's), with
``BRAG_SHOTS=1`` to ``test-results/screenshots/`` (``tests/browser.shots_asked``)."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import Group, User
from django.core.cache import cache
from playwright.sync_api import expect

from brag_event.events.services import day_open, event_create_flash
from brag_event.hands.models import Hand, HandAction
from brag_event.hands.services import hand_start
from brag_event.players.services import player_register
from brag_event.tables.models import Table
from brag_event.tables.services import seat_buy_in, table_create
from tests.browser import SHOTS, shot
from tests.factories import LONG_NAMES, act, assert_audit_ok

from .test_dealer_corrections import lose_everything

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

DOCS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
SIZES = [(1180, 820), (820, 1180), (390, 844), (1920, 1080)]
TABLETS = [(1180, 820), (820, 1180)]
NAMES = LONG_NAMES
assert all(len(n) == 20 for n in NAMES)


def save(page: Any, name: str) -> None:
    where = DOCS if os.environ.get("BRAG_DOCS_SHOTS") else SHOTS
    shot(page, name, folder=where)


def six_long_names(players: int = 6) -> Table:
    cache.clear()  # the login throttle counts per address
    event = event_create_flash(name="FLASH", by=None)
    day = day_open(day=event.days.get(number=1), by=None)
    table = table_create(day=day, by=None)
    for number, name in enumerate(NAMES[:players], start=1):
        player = player_register(event=event, name=name, starting_money=1000, by=None)
        seat_buy_in(table=table, seat_number=number, player=player, amount=200, by=None)
    dealer = User.objects.create_user("dealer", password="dealer-pw")
    dealer.groups.add(Group.objects.get_or_create(name="dealer")[0])
    table.dealers.add(dealer)
    return table


def tablet(browser: Any, url: str, table: Table, size: tuple[int, int]) -> Any:
    width, height = size
    context = browser.new_context(
        viewport={"width": width, "height": height}, has_touch=width < 1000
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{url}/tablet/login/")
    page.get_by_label("User name").fill("dealer")
    page.get_by_label("Password").fill("dealer-pw")
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(f"{url}/tablet/")
    page.goto(f"{url}/tablet/tables/{table.pk}/")
    expect(page.locator("#title")).to_contain_text("Table 1")
    return page


MEASURE = r"""(width) => {
  const shown = e => e.offsetParent !== null && e.getBoundingClientRect().width > 0;
  const box = e => e.getBoundingClientRect();
  const name = e => (e.id ? '#' + e.id : '') + '.' + e.className + ' "' +
    (e.textContent || e.value || '').trim().slice(0, 30) + '"';
  const parts = [...document.querySelectorAll(
    '#title, .seat, .centre, #bar button, #bar input, #next button, #between button, ' +
    '#showdown button, #result p, #call-floor, #floor-note, #last-entry button')].filter(shown);
  const overlaps = [];
  for (let i = 0; i < parts.length; i++) for (let j = i + 1; j < parts.length; j++) {
    const a = box(parts[i]), b = box(parts[j]);
    const x = Math.min(a.right, b.right) - Math.max(a.left, b.left);
    const y = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
    if (x > 0.5 && y > 0.5) overlaps.push(name(parts[i]) + ' / ' + name(parts[j]));
  }
  const small = [...document.querySelectorAll('button, input, select, a.tile, summary')]
    .filter(shown).filter(e => box(e).width < 44 || box(e).height < 44)
    .map(e => name(e) + ' ' + Math.round(box(e).width) + 'x' + Math.round(box(e).height));
  const wide = [...document.querySelectorAll('body *')].filter(shown)
    .filter(e => box(e).right > width + 0.5).map(name);
  const cut = [...document.querySelectorAll('.seat .name')].filter(shown)
    .filter(e => e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1 ||
                 getComputedStyle(e).textOverflow === 'ellipsis' && e.scrollWidth > e.clientWidth)
    .map(name);
  const names = [...document.querySelectorAll('.seat .name')].map(e => e.textContent);
  // Names wrapped inside a word (a line that starts within it, not after a space or a hyphen).
  const rect = (node, i) => { const r = document.createRange(); r.setStart(node, i);
                              r.setEnd(node, i + 1); return r.getBoundingClientRect(); };
  const broken = [...document.querySelectorAll('.seat .name')].filter(shown).filter(e => {
    const node = [...e.childNodes].find(n => n.nodeType === 3);
    if (!node) return false;
    const text = node.textContent;
    for (let i = 1; i < text.length; i++) {
      if (/[\s-]/.test(text[i - 1]) || /\s/.test(text[i])) continue;
      if (rect(node, i).top > rect(node, i - 1).top + 2) return true;
    }
    return false;
  }).map(e => e.textContent);
  return {overlaps, small, wide, cut, names, broken,
          scrollWidth: document.documentElement.scrollWidth};
}"""


def in_first_screen(page: Any, height: int, *selectors: str) -> None:
    """Each of ``selectors`` is shown whole inside the first screen (the page not scrolled)."""
    assert page.evaluate("() => window.scrollY") == 0
    for selector in selectors:
        found = page.locator(selector)
        expect(found).to_be_visible()
        box = found.bounding_box()
        assert box is not None and box["y"] >= 0, selector
        assert box["y"] + box["height"] <= height, (selector, box, height)


def check(page: Any, width: int) -> None:
    found = page.evaluate(MEASURE, width)
    assert found["overlaps"] == [], found["overlaps"]
    assert found["small"] == [], found["small"]
    assert found["scrollWidth"] <= width, found["wide"]
    assert found["cut"] == [], found["cut"]
    assert found["broken"] == [], found["broken"]  # wrapped at a space or a hyphen, whole words
    assert sorted(found["names"]) == sorted(NAMES)


@pytest.mark.parametrize(("width", "height"), SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_the_tablet_holds_its_layout(
    transactional_db: Any, live_server: Any, browser: Any, width: int, height: int
) -> None:
    table = six_long_names()
    hand = start_and_bet(table)
    page = tablet(browser, live_server.url, table, (width, height))
    try:
        expect(page.locator(".to-act-title")).to_be_visible()
        expect(page.locator(".quick .chip").first).to_be_visible()
        check(page, width)
        if (width, height) in TABLETS:
            in_first_screen(page, height, "#bar", "#bet-submit", "#call-floor")
        save(page, f"tablet-{width}x{height}-in-hand")
        # The card picker: a suit a row on a tablet (four rows of thirteen), the button under it.
        hand, state = act(hand, action="showdown")
        page.reload()
        expect(page.locator("#show-submit")).to_be_visible()
        check(page, width)
        if (width, height) in TABLETS:
            assert page.evaluate(ROWS) == [13, 13, 13, 13]
            in_first_screen(page, height, "#showdown", "#call-floor")
        save(page, f"tablet-{width}x{height}-card-picker")
        # A six-way showdown settled: the result, the next hand's button and the seats' list.
        show_all(hand, state)
        page.reload()
        expect(page.locator("#start-hand")).to_be_visible()
        check(page, width)
        start = page.locator("#start-hand").bounding_box()
        assert start is not None and start["y"] + start["height"] <= height  # in sight
        if (width, height) in TABLETS:
            in_first_screen(page, height, "#start-hand", "#call-floor")
        save(page, f"tablet-{width}x{height}-result")
    finally:
        page.context.close()


@pytest.mark.parametrize(("width", "height"), TABLETS, ids=[f"{w}x{h}" for w, h in TABLETS])
def test_the_dealers_dialogs_fit_the_tablet(
    transactional_db: Any, live_server: Any, browser: Any, width: int, height: int
) -> None:
    """The re-buy dialog (a seat that has run out) and the take-back dialog, whole on the screen
    over the table of six long names."""
    table = six_long_names()
    lose_everything(table, loser=2, winner=3)
    page = tablet(browser, live_server.url, table, (width, height))
    try:
        in_first_screen(page, height, "#start-hand", "#call-floor")
        page.get_by_role("button", name="Re-buy…").click()
        dialog = page.locator("#dialog")
        expect(dialog.locator("#rebuy-amount")).to_have_text("Re-buy 200 MB + fee 10")
        for box in dialog.locator("input[type=checkbox]").all():
            box.check()
        in_first_screen(page, height, "#dialog")
        save(page, f"tablet-{width}x{height}-rebuy-dialog")
        dialog.get_by_role("button", name="Re-buy 200 MB").click()
        expect(page.locator("#notice")).to_contain_text("re-bought 200 MB")
        save(page, f"tablet-{width}x{height}-rebuy-done")
        page.get_by_role("button", name="Start the next hand").click()
        page.get_by_role("button", name="Fold").click()
        page.get_by_role("button", name="Take back…").click()
        expect(dialog.get_by_role("button", name="Wrong seat")).to_be_visible()
        in_first_screen(page, height, "#dialog", "#last-entry", "#bar", "#call-floor")
        save(page, f"tablet-{width}x{height}-take-back-dialog")
    finally:
        page.context.close()


def start_and_bet(table: Table) -> Hand:
    hand = hand_start(table=table, by=None)
    act(hand, seat=2, action="bet", amount=5)  # blind: a stake of 10
    return hand


ROWS = """() => {
  const rows = new Map();
  for (const card of document.querySelectorAll('#showdown .card')) {
    const top = Math.round(card.getBoundingClientRect().top);
    rows.set(top, (rows.get(top) || 0) + 1);
  }
  return [...rows.values()];
}"""


def show_all(hand: Hand, state: Any) -> None:
    cards = iter(["Ah Kh Qh", "2c 3c 5d", "4s 6s 8d", "9c Tc Kd", "2d 7h Js", "3h 5s 9h"])
    while state.cards_needed:
        hand, state = act(hand, seat=state.cards_needed[0], action="show", cards=next(cards))


TAPS_FOR_A_FIVE_PLAYER_HAND = 19  # stated in README.md ("The dealer's tablet"): must not grow


def test_the_taps_for_a_typical_five_player_hand_ending_in_a_see(
    transactional_db: Any, live_server: Any, browser: Any
) -> None:
    """Five players; the dealer starts the hand; Annabel looks and bets 10, Bartholomew folds,
    Maximiliano looks and folds, Gwendolyn looks and bets 10, Declan folds, Annabel sees;
    both hands are entered through the card picker."""
    table = six_long_names(players=5)
    page = tablet(browser, live_server.url, table, (1180, 820))
    taps = 0

    def tap(target: Any) -> None:
        nonlocal taps
        taps += 1
        target.click()

    def to_act(name: str) -> None:
        expect(page.locator(".to-act-title")).to_have_text(re.compile(f"^{name}"))

    def button(name: str) -> Any:
        return page.get_by_role("button", name=name, exact=True)

    try:
        tap(page.get_by_role("button", name="Start the next hand"))
        to_act("Annabel")
        tap(button(f"{NAMES[1]} (seat 2)"))  # Annabel looked
        tap(page.locator('.quick .chip[data-amount="10"]'))
        tap(page.locator("#bet-submit"))
        to_act("Bartholomew")
        tap(button("Fold"))
        to_act("Maximiliano")
        tap(button(f"{NAMES[3]} (seat 4)"))  # looked
        tap(button("Fold"))
        to_act("Gwendolyn")
        tap(button(f"{NAMES[4]} (seat 5)"))  # looked
        expect(page.locator("#bet-submit")).to_have_text("Bet 10")  # the least is the stake
        tap(page.locator("#bet-submit"))
        to_act("Declan")
        tap(button("Fold"))
        to_act("Annabel")
        tap(page.get_by_role("button", name=re.compile("^See for")))
        shown = ""
        for cards in (("Ah", "Kh", "Qh"), ("3h", "3d", "3c")):
            expect(page.locator("#showdown")).to_be_visible()
            if shown:  # the picker of the next player, not the last one's still on the screen
                expect(page.locator("#show-submit")).not_to_have_text(shown)
            shown = page.locator("#show-submit").inner_text()
            for card in cards:
                tap(page.locator(f'[data-card="{card}"]'))
            tap(page.locator("#show-submit"))
        expect(page.locator("#result")).to_contain_text("wins")
        save(page, "tablet-five-player-see")
    finally:
        page.context.close()
    hand = Hand.objects.get()
    assert hand.status == Hand.Status.SETTLED
    assert HandAction.objects.filter(hand=hand).count() == 11
    assert_audit_ok(hand.table.day.event)
    assert taps <= TAPS_FOR_A_FIVE_PLAYER_HAND, taps
    assert taps == TAPS_FOR_A_FIVE_PLAYER_HAND  # fewer? say so in the README and lower it
