"""The floor's pages measured in headless Chromium at the sizes their users have: a supervisor's
phone (390×844), a 10-inch tablet both ways (820×1180, 1180×820) and the organiser's console
(1366×768). The floor's screen (open calls, a large pot to confirm and the question it asks,
rulings, disqualifications with the organiser's lift), a call (take it, misdeal, the ruling
form), the organiser's dashboard with its call alert, a player's page with warnings and
penalties, and the public standings with a disqualified player: no page wider than the screen,
no two controls or headings overlapping, every control and every link a supervisor taps at least
44 px high, and long names and notes wrapped, never cut. With ``BRAG_DOCS_SHOTS=1`` the
screenshots go to ``docs/screenshots/``."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import Group, User
from django.core.cache import cache

from brag_event.events.services import day_open, day_update_rules, event_create_flash
from brag_event.floor.models import FloorCall, Penalty
from brag_event.floor.services import floor_call_open, penalty_lift, ruling_record
from brag_event.hands.selectors import hand_state
from brag_event.hands.services import hand_start
from brag_event.players.links import player_path
from brag_event.players.models import Player
from brag_event.players.services import player_register
from brag_event.tables.services import seat_buy_in, table_create
from tests.browser import SHOTS, shot
from tests.factories import LONG_NAMES, act

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

DOCS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
SIZES = [(390, 844), (820, 1180), (1180, 820), (1366, 768)]
NAMES = LONG_NAMES[:5]
LONG_NOTE = (
    "Seat 3 showed his cards to seat 4 across the table and both talked about the hand while it "
    "was being played; the dealer stopped the hand"
)


@dataclass
class Floor:
    event_id: int
    call_id: int
    warned: Player


def busy_floor() -> Floor:
    """Day 1 of a FLASH event, five long-named players at table 1 with a hand in play and two
    open calls (one taken); rulings with a warning, missed hands, a disqualification and a
    disqualification lifted."""
    cache.clear()  # the login throttle counts per address
    event = event_create_flash(name="FLASH", by=None)
    day = day_open(day=event.days.get(number=1), by=None)
    table = table_create(day=day, by=None)
    players = []
    for number, name in enumerate(NAMES, start=1):
        player = player_register(event=event, name=name, starting_money=1000, by=None)
        seat_buy_in(table=table, seat_number=number, player=player, amount=200, by=None)
        players.append(player)
    for role in ("organiser", "supervisor"):
        User.objects.create_user(role, password=f"{role}-pw").groups.add(
            Group.objects.get_or_create(name=role)[0]
        )
    hand = hand_start(table=table, by=None)
    act(hand, seat=2, action="look")
    act(hand, seat=2, action="bet", amount=10)
    ruling_record(
        table=table,
        what_happened=LONG_NOTE,
        decision="A warning for both; the next time it is a disqualification",
        players=[players[2].pk, players[3].pk],
        penalty="warning",
        by=None,
    )
    ruling_record(
        table=table,
        what_happened="Slow play after two warnings",
        decision="Sits out the next three hands",
        players=[players[2].pk],
        penalty="missed_hands",
        missed_hands=3,
        by=None,
    )
    ruling_record(
        table=table,
        what_happened="Abused the dealer",
        decision="Disqualified",
        players=[players[4].pk],
        penalty="disqualified",
        by=None,
    )
    lifted = ruling_record(
        table=table,
        what_happened="Folded out of turn three times",
        decision="Disqualified",
        players=[players[0].pk],
        penalty="disqualified",
        by=None,
    )
    penalty_lift(
        penalty=Penalty.objects.get(ruling=lifted), reason="appeal upheld by the organiser", by=None
    )
    # A large pot waiting for a second member of staff at a second table (issue 31).
    day_update_rules(day=day, changes={"award_confirm_from": 10}, by=None)
    other = table_create(day=day, by=None)
    for number, name in enumerate((LONG_NAMES[5], "Bartholomew Okafor-K"), start=1):
        player = player_register(event=event, name=name, starting_money=1000, by=None)
        seat_buy_in(table=other, seat_number=number, player=player, amount=200, by=None)
    big = hand_start(table=other, by=None)
    first = hand_state(big).to_act
    act(big, seat=first, action="look")
    act(big, seat=first, action="bet", amount=10)
    act(big, seat=hand_state(big).to_act, action="fold")
    taken = floor_call_open(table=table, hand=hand, note="A card was dealt face up", by=None)
    FloorCall.objects.filter(pk=taken.pk).update(status=FloorCall.Status.TAKEN)
    call = floor_call_open(table=table, hand=hand, note=LONG_NOTE, by=None)
    return Floor(event.pk, call.pk, players[2])


def save(page: Any, name: str) -> None:
    where = DOCS if os.environ.get("BRAG_DOCS_SHOTS") else SHOTS
    shot(page, name, folder=where)


def logged_in(browser: Any, url: str, who: str, width: int, height: int) -> Any:
    context = browser.new_context(
        viewport={"width": width, "height": height}, has_touch=width < 1300
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    if who:
        page.goto(f"{url}/tablet/login/")
        page.get_by_label("User name").fill(who)
        page.get_by_label("Password").fill(f"{who}-pw")
        page.get_by_role("button", name="Log in").click()
        page.wait_for_url(f"{url}/tablet/")
    return page


MEASURE = """([width, root]) => {
  // The skip link waits off screen and screen-reader text is 1 px: neither is laid out to see.
  const shown = e => e.offsetParent !== null && e.getBoundingClientRect().width > 1 &&
    getComputedStyle(e).visibility !== 'hidden' &&
    !e.closest('.skip-link, .visually-hidden, thead.visually-hidden');
  const box = e => e.getBoundingClientRect();
  const name = e => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') +
    (e.className && typeof e.className === 'string' ? '.' + e.className.split(' ').join('.') : '') +
    ' "' + (e.textContent || e.value || '').trim().slice(0, 30) + '"';
  const main = document.querySelector(root);
  // What a supervisor taps: every control, and every link in the page's content (a link inside a
  // sentence of running text, such as a player's name in a ruling, is not a tap target).
  const taps = [...main.querySelectorAll(
    'button, input:not([type=hidden]), select, textarea, summary, a')].filter(shown)
    .filter(e => e.tagName !== 'A' || !e.closest('p.prose'));
  const small = taps.filter(e => box(e).height < 44 - 0.5 ||
      (e.tagName !== 'A' && box(e).width < 44 - 0.5))
    .map(e => name(e) + ' ' + Math.round(box(e).width) + 'x' + Math.round(box(e).height));
  const parts = [...taps, ...main.querySelectorAll('h1, h2, label, th, td, li')].filter(shown);
  const overlaps = [];
  for (let i = 0; i < parts.length; i++) for (let j = i + 1; j < parts.length; j++) {
    const a = parts[i], b = parts[j];
    if (a.contains(b) || b.contains(a)) continue;
    const p = box(a), q = box(b);
    const x = Math.min(p.right, q.right) - Math.max(p.left, q.left);
    const y = Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top);
    if (x > 0.5 && y > 0.5) overlaps.push(name(a) + ' / ' + name(b));
  }
  const wide = [...main.querySelectorAll('*')].filter(shown)
    .filter(e => box(e).right > width + 0.5 || box(e).left < -0.5).map(name);
  const cut = [...main.querySelectorAll('*')].filter(shown).filter(e => {
    const s = getComputedStyle(e);
    return (s.overflowX === 'hidden' || s.textOverflow === 'ellipsis') &&
      e.scrollWidth > e.clientWidth + 1;
  }).map(name);
  return {small, overlaps, wide, cut, scrollWidth: document.documentElement.scrollWidth};
}"""


def check(page: Any, width: int, root: str = "main") -> None:
    found = page.evaluate(MEASURE, [width, root])
    assert found["scrollWidth"] <= width, found["wide"]
    assert found["wide"] == [], found["wide"]
    assert found["overlaps"] == [], found["overlaps"]
    assert found["small"] == [], found["small"]
    assert found["cut"] == [], found["cut"]


@pytest.mark.parametrize(("width", "height"), SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_the_floor_pages_hold_their_layout(
    transactional_db: Any,
    live_server: Any,
    chromium: Any,
    width: int,
    height: int,
) -> None:
    f = busy_floor()
    url = live_server.url
    size = f"{width}x{height}"
    page = logged_in(chromium, url, "organiser", width, height)
    try:
        page.goto(f"{url}/organiser/events/{f.event_id}/floor/")
        assert page.locator(".calls li").count() == 2
        assert page.locator("form.lift").count() == 1  # the one still standing
        assert page.locator(".awards li").count() == 1  # the large pot at table 2
        check(page, width)
        save(page, f"floor-board-{size}")
        page.get_by_role("button", name="Confirm… the pot at table 2").click()
        page.get_by_role("button", name="Yes, confirm the pot of 20").wait_for()
        check(page, width)  # the question, in place
        save(page, f"floor-board-award-{size}")
        page.goto(f"{url}/organiser/floor/calls/{f.call_id}/")
        assert page.get_by_role("button", name="Take this call").is_visible()
        assert page.get_by_role("button", name="Declare a misdeal").is_visible()
        assert page.get_by_role("button", name="Record the ruling").is_visible()
        check(page, width)
        save(page, f"floor-call-{size}")
        page.goto(f"{url}/organiser/events/{f.event_id}/")
        assert "Floor called: 2 open calls" in page.locator(".floor-calls").inner_text()
        check(page, width, ".floor-calls")  # the dashboard's own layout is tested elsewhere
        save(page, f"floor-dashboard-{size}")
    finally:
        page.context.close()
    public = logged_in(chromium, url, "", width, height)
    try:
        public.goto(url + player_path(f.warned))
        assert public.locator(".penalties li").count() == 2
        check(public, width)
        save(public, f"floor-player-penalties-{size}")
        public.goto(f"{url}/standings/{f.event_id}/")
        dq = public.locator("#rows tr.disqualified")
        assert dq.count() == 1 and "disqualified" in dq.inner_text().lower()
        check(public, width)
        save(public, f"floor-standings-dq-{size}")
    finally:
        public.context.close()
