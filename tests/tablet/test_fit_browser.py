"""One screen of work on the tablets the floor uses (issue 44): at 1024×768, 1180×820 and
820×1180, with six 20-character names, every control of the page is inside the first screen —
in a six-player hand, at the card picker after a see (four rows of thirteen), at the step where
the seer may give up, and between hands (the last seats' Sit out and Leave too). A "Taken
back…" notice goes once the dealer enters the next thing.

With ``BRAG_DOCS_SHOTS=1`` the screenshots go to ``docs/screenshots/``."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from brag_event.hands.models import Hand
from brag_event.hands.selectors import hand_state
from brag_event.hands.services import hand_start
from tests.factories import act

from .test_layout import ROWS, check, save, show_all, six_long_names, tablet

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

FIT_SIZES = [(1024, 768), (1180, 820), (820, 1180)]

# Every control shown (a button, a field, a link, a folded list's summary) that is not whole
# inside the first screen of ``[width, height]``, the page not scrolled.
OUTSIDE = """([width, height]) => {
  const shown = e => e.offsetParent !== null && e.getBoundingClientRect().width > 0;
  return [...document.querySelectorAll('button, input, select, a[href], summary')]
    .filter(shown).filter(e => !e.classList.contains('skip-link'))  // shown on focus only
    .map(e => [e, e.getBoundingClientRect()])
    .filter(([, b]) => b.top < -0.5 || b.left < -0.5 || b.bottom > height + 0.5 ||
                       b.right > width + 0.5)
    .map(([e, b]) => (e.id ? '#' + e.id : e.tagName) + ' "' + e.textContent.trim().slice(0, 30) +
                     '" ' + Math.round(b.top) + '..' + Math.round(b.bottom));
}"""


def fits(page: Any, width: int, height: int) -> None:
    assert page.evaluate("() => window.scrollY") == 0
    outside = page.evaluate(OUTSIDE, [width, height])
    assert outside == [], outside
    check(page, width)  # no overlaps, nothing too small or too wide, every name whole


def six_bet_then_a_see(hand: Hand) -> tuple[Hand, Any]:
    """Everyone looks and bets once (six in the hand, the bar at its fullest: the agreed
    showdown is offered); the next four fold; the last but one sees the other."""
    for seat in range(1, 7):
        hand, state = act(hand, seat=seat, action="look")
    for _ in range(6):
        hand, state = act(hand, seat=state.to_act, action="bet", amount=10)
    return hand, state


@pytest.mark.parametrize(("width", "height"), FIT_SIZES, ids=[f"{w}x{h}" for w, h in FIT_SIZES])
def test_one_screen_of_work_in_and_between_hands(
    transactional_db: Any, live_server: Any, browser: Any, width: int, height: int
) -> None:
    table = six_long_names()
    hand, state = six_bet_then_a_see(hand_start(table=table, by=None))
    page = tablet(browser, live_server.url, table, (width, height))
    try:
        expect(page.locator("#agreed-showdown")).to_be_visible()
        expect(page.locator("#bet-submit")).to_be_visible()
        assert len(state.players) == 6 and all(p.status == "active" for p in state.players)
        save(page, f"tablet-{width}x{height}-six-in-hand")
        fits(page, width, height)

        for _ in range(4):
            hand, state = act(hand, seat=state.to_act, action="fold")
        seer = state.to_act
        hand, state = act(hand, seat=seer, action="see", amount=20)
        page.reload()
        expect(page.locator("#show-submit")).to_be_visible()
        assert page.evaluate(ROWS) == [13, 13, 13, 13]
        save(page, f"tablet-{width}x{height}-see-picker")
        fits(page, width, height)

        hand, state = act(hand, seat=state.cards_needed[0], action="show", cards="Ah Kh Qh")
        page.reload()
        give_up = page.locator("#showdown .give-up")
        expect(give_up).to_contain_text("gives up")
        save(page, f"tablet-{width}x{height}-give-up-step")
        fits(page, width, height)

        give_up.click()
        expect(page.locator("#result")).to_contain_text("gave up without showing")
        expect(page.locator("#start-hand")).to_be_visible()
        expect(page.locator(".seat-admin li")).to_have_count(6)
        save(page, f"tablet-{width}x{height}-between-hands")
        fits(page, width, height)

        # A notice of what was done goes once the dealer enters the next thing.
        page.locator("#start-hand").click()
        expect(page.locator(".to-act-title")).to_be_visible()
        page.get_by_role("button", name="Fold").click()
        page.get_by_role("button", name="Take back…").click()
        page.locator("#dialog").get_by_role("button", name="Wrong seat").click()
        notice = page.locator("#notice")
        expect(notice).to_contain_text(re.compile("^Taken back: .* folds"))
        page.get_by_role("button", name="Fold").click()
        expect(notice).to_be_hidden()
        fits(page, width, height)
    finally:
        page.context.close()
    first = Hand.objects.order_by("number").first()
    assert first is not None and hand_state(first).is_settled


@pytest.mark.parametrize(("width", "height"), FIT_SIZES, ids=[f"{w}x{h}" for w, h in FIT_SIZES])
def test_after_a_six_way_showdown_every_control_is_in_the_first_screen(
    transactional_db: Any, live_server: Any, browser: Any, width: int, height: int
) -> None:
    """Six hands shown (an agreed showdown): the result's six lines, the next hand's button and
    every seat's Sit out and Leave."""
    table = six_long_names()
    hand, state = six_bet_then_a_see(hand_start(table=table, by=None))
    hand, state = act(hand, action="showdown")
    show_all(hand, state)
    page = tablet(browser, live_server.url, table, (width, height))
    try:
        expect(page.locator("#start-hand")).to_be_visible()
        expect(page.locator("#result p", has_text="showed")).to_have_count(6)
        save(page, f"tablet-{width}x{height}-six-shown")
        fits(page, width, height)
    finally:
        page.context.close()
