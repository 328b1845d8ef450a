"""A tablet in a dead zone: the network is cut before a hand starts; the dealer starts that hand
and the next one on the tablet (dealt by the engine in Pyodide), enters both start to finish,
reloads the page with no network (the service worker opens it, IndexedDB has the queue and the
table), and reconnects: the server's log equals the tablet's, every stack matches, and the
ledger audit passes.

Honest offline: Playwright's ``set_offline`` is not trusted alone. In Chromium a request of a
page that a service worker controls but lets through to the network (the API here) was seen to
reach the server with the context offline; so every request is also refused by routing, and
every request the live server receives is counted (Django's ``request_started``): while the
tablet is offline none may arrive, whoever sent it (the page, the engine's worker or the service
worker). The reloaded page must say that the service worker served it."""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.signals import request_started
from playwright.sync_api import expect

from brag_event.core.actors import Actor
from brag_event.hands.models import Hand, HandAction
from brag_event.hands.services import hand_start
from brag_event.tables.models import Seat
from tests.browser import shot
from tests.factories import assert_audit_ok

from .conftest import Hall
from .test_offline_tablet import BOOT, engine_ready
from .test_tablet_browser import open_table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


class Hits:
    """The requests that reach the live server (any thread), with their paths."""

    def __init__(self) -> None:
        self.paths: list[str] = []
        self.lock = threading.Lock()
        self.on = False

    def __call__(self, sender: Any, environ: dict[str, Any] | None = None, **kw: Any) -> None:
        if self.on:
            with self.lock:
                env = environ or {}
                self.paths.append(f"{env.get('REQUEST_METHOD')} {env.get('PATH_INFO')}")


@pytest.fixture
def hits() -> Iterator[Hits]:
    counter = Hits()
    request_started.connect(counter, weak=False)
    yield counter
    request_started.disconnect(counter)


def refuse(route: Any) -> None:
    route.abort("internetdisconnected")


def cut(context: Any) -> None:
    """The network goes: the context offline, and every request refused by routing too; then
    each page knows it (``navigator.onLine`` false). Until a page does, a request it sends can
    still leave through its service worker — whose own requests neither the emulation nor the
    routing covers (seen once in CI: a hand's start reached the server; the real tablet sends
    it again with the same key, so the server starts it once)."""
    context.set_offline(True)
    context.route("**/*", refuse)
    for page in context.pages:
        page.wait_for_function("() => navigator.onLine === false")


def mend(context: Any) -> None:
    context.unroute("**/*", refuse)
    context.set_offline(False)


def kept_for_offline(page: Any) -> None:
    """The service worker controls the page and has kept it, Pyodide and the engine."""
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=BOOT)
    expect(page.locator("#sw-status")).to_have_text(
        "Kept on this tablet for offline use.", timeout=BOOT
    )
    page.wait_for_function(
        """() => caches.open("brag-pages")
            .then((c) => c.match(location.pathname)).then((r) => !!r)""",
        timeout=BOOT,
        polling=250,
    )


def to_act(page: Any, after: str | None = None) -> str:
    """Who acts now (once the screen has moved on from ``after``)."""
    title = page.locator(".to-act-title")
    if after is not None:
        expect(title).not_to_have_text(f"{after} to act")
    expect(title).to_have_text(re.compile(r" to act$"))
    return str(title.text_content()).removesuffix(" to act")


def bet_least(page: Any) -> None:
    page.locator(".quick .chip").first.click()
    page.locator("#bet-submit").click()


def show(page: Any, who: str, cards: tuple[str, str, str]) -> None:
    expect(page.locator("#showdown h2")).to_contain_text(who)
    for card in cards:
        page.locator(f'[data-card="{card}"]').click()
    page.locator("#show-submit").click()


# Every different text of the table's centre drawn, with whether the engine was ready then.
DRAWN = """
window.__bragDrawn = [];
new MutationObserver(() => {
  const centre = document.querySelector("#centre .hand-no") || document.querySelector("#centre p");
  if (!centre) return;
  const text = centre.textContent, all = window.__bragDrawn;
  if (!all.length || all[all.length - 1][0] !== text)
    all.push([text, !!(window.BragOffline && window.BragOffline.isReady())]);
}).observe(document, { subtree: true, childList: true, characterData: true });
"""


def stacks_on_screen(page: Any) -> dict[int, int]:
    return {n: int(str(page.locator(f".s{n} .stack").text_content())) for n in (1, 2, 3)}


def tablet_logs(queue: list[dict[str, Any]]) -> list[list[tuple[Any, ...]]]:
    """The tablet's entries hand by hand, as the server logs them."""
    hands: list[list[tuple[Any, ...]]] = []
    for item in queue:
        if item["kind"] == "start":
            hands.append([])
            continue
        body = item["body"]
        action = "show" if item["kind"] == "cards" else body["action"]
        hands[-1].append(
            (
                body["expected_seq"],
                body.get("seat"),
                action,
                body.get("amount"),
                body.get("hand") or "",
                body.get("cards") or "",
            )
        )
    return hands


def test_two_hands_offline_with_a_reload_in_a_dead_zone_then_reconnected(
    hall: Hall, browser: Any, hits: Hits
) -> None:
    page = open_table(hall, browser)
    page.set_viewport_size({"width": 1180, "height": 820})
    engine_ready(page)
    cold = page.evaluate("() => window.__bragOffline.boot")
    kept_for_offline(page)

    # The network goes before the hand starts.
    cut(page.context)
    hits.on = True
    page.get_by_role("button", name="Start the next hand").click()
    expect(page.locator("#queue li")).to_have_count(1)
    expect(page.locator("#queue li").first).to_have_text("Hand 1 starts")
    # Hand 1, dealt by the tablet's engine: antes in, Bill first to act.
    assert to_act(page) == "Bill (seat 2)"
    bet_least(page)
    assert to_act(page, after="Bill (seat 2)") == "Chris (seat 3)"
    page.get_by_role("button", name="Fold").click()
    assert to_act(page, after="Chris (seat 3)") == "Andy (seat 1)"
    bet_least(page)
    assert to_act(page, after="Andy (seat 1)") == "Bill (seat 2)"
    page.get_by_role("button", name="See for 6").click()  # Bill sees Andy
    show(page, "Andy (seat 1)", ("Ah", "Kh", "Qh"))
    show(page, "Bill (seat 2)", ("3h", "3d", "3c"))
    expect(page.locator("#result")).to_contain_text("Bill (seat 2) wins 27")
    expect(page.locator(".s2 .stack")).to_have_text(str(200 - 5 - 3 - 6 + 27))

    # Hand 2, started on the tablet: the button has moved on.
    page.get_by_role("button", name="Start the next hand").click()
    expect(page.locator("#queue li").last).to_have_text("Hand 2 starts")
    expect(page.locator("#centre .hand-no")).to_have_text("Hand 2 · betting")
    first = to_act(page)
    assert first != "Bill (seat 2)"  # the next seat after the dealer acts first
    bet_least(page)
    second = to_act(page, after=first)
    page.get_by_role("button", name="Fold").click()
    third = to_act(page, after=second)
    assert len({first, second, third}) == 3
    queued_before = page.evaluate("() => window.__bragQueue().length")

    # A reload with no network: the service worker serves the page, IndexedDB the rest. The
    # page records every table it draws, and whether the engine had booted then: the tablet's
    # own latest hand from its store before the engine boots, never the server's older one.
    page.add_init_script(DRAWN)
    response = page.reload()
    assert response is not None and response.from_service_worker
    expect(page.locator(".waiting")).to_contain_text("as this tablet last left it")
    engine_ready(page)
    drawn = page.evaluate("() => window.__bragDrawn")
    assert drawn and drawn[0][1] is False, drawn  # drawn before the engine was ready
    assert all(text.startswith("Hand 2") for text, _ready in drawn), drawn
    cached = page.evaluate("() => window.__bragOffline.boot")
    expect(page.locator("#net")).to_contain_text("Offline")
    expect(page.locator("#queue li")).to_have_count(queued_before)
    assert to_act(page) == third
    shot(page, "24-offline-reloaded-mid-hand", full_page=False)
    page.get_by_role("button", name="Fold").click()
    # Everyone folded to a blind player: the pot is carried to the next hand (RULES).
    result = page.locator("#result")
    expect(result).to_contain_text(f"Everyone folded to {first}")
    expect(result).to_contain_text("carried")
    carried = int(re.findall(r"[Tt]he pot of (\d+) is carried", str(result.text_content()))[0])
    expect(page.locator("#next")).to_contain_text(f"Carried to the next hand: a pot of {carried}.")
    screen = stacks_on_screen(page)
    assert sum(screen.values()) + carried == 600  # no money made or lost on the tablet
    taps = sorted(page.evaluate("() => window.__bragOffline.taps"))
    # A restart in the dead zone opens the tablet's start page: it lists the tables it kept.
    page.goto(f"{hall.url}/tablet/")
    kept = page.get_by_role("link", name=re.compile("Table 1"))
    expect(kept).to_contain_text("seen at")
    kept.click()
    engine_ready(page)
    expect(page.locator("#result")).to_contain_text(f"Everyone folded to {first}")
    assert stacks_on_screen(page) == screen
    queue = page.evaluate("() => window.__bragQueue()")
    assert [q["kind"] for q in queue].count("start") == 2
    # Nothing reached the server while offline: not a page, a script, Pyodide or an action.
    assert hits.paths == []
    assert Hand.objects.count() == 0 and HandAction.objects.count() == 0
    assert cached["worker"]["from_cache"] >= 6  # Pyodide's files and the engine, all kept
    print(  # figures for the README (this machine's load varies): not assertions
        f"engine start-up: first visit {cold['total'] / 1000:.1f} s; reloaded offline, from "
        f"the tablet's cache {cached['total'] / 1000:.1f} s; an offline tap to the new action "
        f"bar after the reload: {taps[len(taps) // 2]:.0f} ms ({len(taps)})"
    )

    # Reconnect: the queue drains in order, the new hands take their ids from the server.
    hits.on = False
    mend(page.context)
    expect(page.locator("#queue")).to_be_hidden(timeout=60_000)
    expect(page.locator("#notice")).to_be_hidden()
    hands = list(Hand.objects.order_by("number"))
    assert [h.status for h in hands] == [Hand.Status.SETTLED] * 2
    server = [
        [
            (a.seq, a.seat, a.action, a.amount, a.hand_choice or "", a.cards or "")
            for a in HandAction.objects.filter(hand=h).order_by("seq")
        ]
        for h in hands
    ]
    assert server == tablet_logs(queue)
    assert hands[0].dealer_seat != hands[1].dealer_seat
    stacks = dict(Seat.objects.values_list("number", "stack"))
    assert stacks == screen
    hall.world.table.refresh_from_db()
    assert hall.world.table.carried_pot == carried
    for number, stack in stacks.items():
        expect(page.locator(f".s{number} .stack")).to_have_text(str(stack))
    assert_audit_ok(hall.world.event)


def test_engine_start_up_cold_and_from_the_tablets_cache(hall: Hall, browser: Any) -> None:
    """Pyodide and the engine: from the server on a tablet that never kept them (no service
    worker), then from the tablet's cache (every runtime file read from it), a few times."""
    cold_page = open_table(hall, browser, service_workers="block")
    engine_ready(cold_page)
    cold = cold_page.evaluate("() => window.__bragOffline.boot")
    assert cold["worker"]["from_cache"] == 0  # nothing kept: everything from the server
    cold_page.context.close()

    page = open_table(hall, browser, portrait=True)
    engine_ready(page)
    kept_for_offline(page)
    cached = []
    for _ in range(3):
        page.reload()
        engine_ready(page)
        boot = page.evaluate("() => window.__bragOffline.boot")
        assert boot["worker"]["from_cache"] >= 6
        cached.append(boot)
    totals = sorted(b["total"] / 1000 for b in cached)
    pyodide = sorted(b["worker"]["pyodide"] / 1000 for b in cached)
    print(  # figures for the README (this machine's load varies): not assertions
        f"engine start-up, headless Chromium: cold {cold['total'] / 1000:.1f} s (Pyodide "
        f"{cold['worker']['pyodide'] / 1000:.1f} s, the engine "
        f"{cold['worker']['engine'] / 1000:.2f} s); from the tablet's cache "
        f"{', '.join(f'{t:.1f}' for t in totals)} s (Pyodide "
        f"{', '.join(f'{t:.1f}' for t in pyodide)} s)"
    )


def test_a_hand_started_from_another_device_while_offline_is_said_in_words(
    hall: Hall, browser: Any
) -> None:
    """The tablet starts a hand offline and enters in it; meanwhile a supervisor starts the
    table's hand from the console. On reconnect the server refuses the tablet's start: the tablet
    stops, says what was not entered, shows the server's hand, and the dealer enters from it."""
    page = open_table(hall, browser)
    engine_ready(page)
    cut(page.context)
    page.get_by_role("button", name="Start the next hand").click()
    assert to_act(page) == "Bill (seat 2)"
    bet_least(page)
    expect(page.locator("#queue li")).to_have_count(2)
    hand_start(table=hall.world.table, by=Actor(user=hall.supervisor, device="console"))
    mend(page.context)
    notice = page.locator("#notice")
    expect(notice).to_contain_text("Refused: \u201cHand 1 starts\u201d", timeout=30_000)
    expect(notice).to_contain_text("Finish the hand in progress before starting another.")
    expect(notice).to_contain_text("Not sent after it: Bill (seat 2) bets 3 blind.")
    shot(page, "25-offline-start-refused")
    expect(page.locator("#queue")).to_be_hidden()
    # The server's hand, as the console dealt it: the dealer enters from there.
    assert to_act(page) == "Bill (seat 2)"
    assert HandAction.objects.count() == 0
    bet_least(page)
    expect(page.locator("#queue")).to_be_hidden(timeout=30_000)
    expect(page.locator(".to-act-title")).to_have_text("Chris (seat 3) to act")
    assert Hand.objects.count() == 1
    assert list(HandAction.objects.values_list("seat", "action", "amount")) == [(2, "bet", 3)]
    assert_audit_ok(hall.world.event)
