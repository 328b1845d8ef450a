"""The organiser's event day in headless Chromium: three days run through the console, every
step that cannot be undone asked once, the draw waiting through the day's opening, the cut
previewed before a close, a day's rules copied to the day after, a player let back in with a
reason, and the standings (page, big screen, CSV) marking who qualified, who is out and the cut.

Screenshots of each page this flow changed, at 1366×768 and 390×844 (the standings' big screen
at 1920×1080), go to ``docs/screenshots/`` (``flow-*``)."""

from __future__ import annotations

import csv
import io
import os
import time
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.test import Client

from brag_event.audit.models import AuditEntry, Verb
from brag_event.events.models import Day, DayClose, Event
from brag_event.events.services import event_create_flash
from brag_event.players.models import Player, Qualification, StandingSnapshot
from brag_event.players.services import player_issue_money, player_register
from brag_event.tables.models import Seat, SeatingDraw
from tests.browser import DOCS_SHOTS
from tests.browser import shot as screenshot
from tests.factories import LONG_NAMES, assert_audit_ok, play_at_every_table, user_in

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's loop in this thread

LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}
HALL = {"width": 1920, "height": 1080}
EVENT_NAME = "Brag Open 2026 Midlands Finals"  # 30 characters: the top bar keeps one row


# The elements that stick out past the window's right edge (none on a page that fits).
WIDER = """() => [...document.querySelectorAll('body *')]
  .filter(e => e.getBoundingClientRect().right > window.innerWidth + 1)
  .filter(e => !e.closest('.table-wrap, .scroll, details:not([open])'))
  .slice(0, 8)
  .map(e => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right))"""


def fits(page: Any, size: dict[str, int]) -> None:
    # The window's new size reaches the page's scripts (the menu folds) at the next frames.
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= size["width"], (page.url, width, page.evaluate(WIDER))


def shot(page: Any, name: str, *, both: bool = True) -> None:
    """The page at 1366×768 (and, with ``both``, at 390×844), in docs/screenshots, each
    checked to fit the window's width."""
    page.set_viewport_size(LAPTOP)
    fits(page, LAPTOP)
    screenshot(page, f"flow-{name}-1366x768", folder=DOCS_SHOTS)
    if both:
        page.set_viewport_size(PHONE)
        fits(page, PHONE)
        screenshot(page, f"flow-{name}-390x844", folder=DOCS_SHOTS)
        page.set_viewport_size(LAPTOP)


def day(event: Event, number: int) -> Day:
    return Day.objects.get(event=event, number=number)


def wait_closed(event: Event, number: int) -> None:
    deadline = time.monotonic() + 30
    while not DayClose.objects.filter(day=day(event, number), status="done").exists():
        assert time.monotonic() < deadline, f"day {number}'s close did not finish"
        time.sleep(0.2)


def test_three_days_through_the_console_each_step_asked_once_and_the_cut_shown(
    transactional_db: Any, live_server: Any, chromium: Any
) -> None:
    cache.clear()
    # The cut's flow, without the end-of-day count (tests/organiser/test_count_browser.py).
    event = event_create_flash(name=EVENT_NAME, count_at_close=False, by=None)
    # Eight players a little apart in money (the top N have no ties), two who can sit down on
    # day 1 but cannot afford day 2 afterwards.
    names = [*LONG_NAMES, "Ann Lee", "Bo Diaz"]
    for k, name in enumerate(names):
        player_register(event=event, name=name, starting_money=1000 - 10 * k, by=None)
    for name in ("Penny Short", "Sam Skint"):
        player_register(event=event, name=name, starting_money=150, by=None)
    organiser = user_in("organiser", "organiser")
    client = Client()
    client.force_login(organiser)
    context = chromium.new_context(viewport=LAPTOP, device_scale_factor=1)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": live_server.url}]
    )
    page = context.new_page()
    page.set_default_timeout(20_000)
    base = live_server.url

    def go(path: str) -> None:
        page.goto(base + path)

    # ---- the top bar: one row on a laptop with a 30-character name; a menu on a phone
    go(f"/organiser/events/{event.pk}/")
    bar = page.locator("header.topbar")
    assert bar.bounding_box()["height"] < 64, bar.bounding_box()
    nav = page.get_by_role("navigation", name="Console")
    assert nav.get_by_role("link", name="Audit log").is_visible()
    assert page.locator(".topbar .event-name").inner_text() == EVENT_NAME  # whole
    page.locator(".account > summary").click()
    page.get_by_role("button", name="Log out").wait_for()
    assert page.evaluate("document.querySelector('.account').open"), "the account menu is shut"
    # The window as it is (a full-page capture lays the page out again, the menu shut).
    screenshot(page, "flow-nav-account-1366x768", folder=DOCS_SHOTS, full_page=False)
    page.set_viewport_size(PHONE)
    # The menu folds on the media query's change event, which follows the resize: wait for it.
    nav.get_by_role("link", name="Audit log").wait_for(state="hidden")
    assert bar.bounding_box()["height"] < 64
    page.locator("#navmenu > summary").click()
    nav.get_by_role("link", name="Audit log").wait_for()
    assert page.get_by_role("button", name="Log out").is_visible()
    screenshot(page, "flow-nav-menu-390x844", folder=DOCS_SHOTS)
    page.set_viewport_size(LAPTOP)

    # ---- day 2's rules changed once, copied to day 3 (asked once)
    go(f"/organiser/days/{day(event, 2).pk}/setup/")
    form = page.locator("#day-form")
    form.locator("input[name=house_fee]").fill("30")
    form.get_by_label("Why (for the log)").fill("the club's fee")
    form.get_by_role("button", name="Save day 2").click()
    page.get_by_text("Day 2 saved.").wait_for()
    page.get_by_role("button", name="Copy the rules…").click()
    page.get_by_role("heading", name="Copy day 2's rules now?").wait_for()
    assert day(event, 3).house_fee == 25  # nothing copied before the confirmation
    shot(page, "day-rules-copy-confirm")
    page.get_by_role("button", name="Yes, copy to day 3").click()
    page.get_by_text("rules copied to day 3.").wait_for()
    assert day(event, 3).rules_dict() == day(event, 2).rules_dict()
    go(f"/organiser/days/{day(event, 3).pk}/setup/")
    page.get_by_text("copied from day 2").first.wait_for()

    # ---- day 1: opened (asked: its rules freeze), drawn, applied (asked)
    go(f"/organiser/events/{event.pk}/")
    page.get_by_text("not open yet. It can be opened now.").first.wait_for()
    page.get_by_role("link", name="Open day 1…").click()
    page.get_by_role("heading", name="Open day 1 now?").wait_for()
    assert "rules freeze" in page.locator("#confirm").inner_text()
    assert day(event, 1).status == "scheduled"
    shot(page, "day-open-confirm")
    page.get_by_role("button", name="Yes, open day 1").click()
    page.get_by_text("Day 1 is open: hands can be played.").wait_for()
    go(f"/organiser/days/{day(event, 1).pk}/seating/")
    page.locator("input[name=seed]").fill("day-1")
    page.get_by_role("button", name="Draw", exact=True).click()
    page.get_by_role("button", name="Apply this draw…").click()
    page.get_by_role("heading", name="Apply draw day-1 now?").wait_for()
    assert not Seat.objects.exists()
    # Every name whole in the draw's cards (wrapped, never cut).
    for cell in page.locator(".seat-card td:nth-child(2)").all():
        assert cell.evaluate("e => e.scrollWidth <= e.clientWidth"), cell.inner_text()
    shot(page, "seating-apply-confirm")
    page.get_by_role("button", name="Yes, apply draw day-1").click()
    page.get_by_text("10 players seated").wait_for()
    assert_audit_ok(event)
    play_at_every_table(day(event, 1))  # the tablets' part: a hand at each table

    # ---- day 1's close: the cut previewed by name, then the close
    go(f"/organiser/days/{day(event, 1).pk}/close/")
    page.locator("input[name=qualify_rule][value=afford]").check()
    page.get_by_role("button", name="Close day 1…").click()
    preview = page.locator("#preview-missed")
    preview.wait_for()
    assert "Penny Short" in preview.inner_text() and "day 2 needs 210" in preview.inner_text()
    assert "Ann Lee" in page.locator("#preview-qualified").inner_text()
    assert day(event, 1).status == "open"
    shot(page, "close-preview")
    page.get_by_role("button", name="Yes, close day 1").click()
    wait_closed(event, 1)
    assert len(Qualification.objects.filter(day=day(event, 2))) == 8

    # ---- day 3 says what is true of it now; day 2 can open
    go(f"/organiser/events/{event.pk}/")
    days = page.locator("#days").inner_text()
    assert "Day 1 has closed: it can be opened now." in days
    assert "It opens once day 2 has closed." in days
    shot(page, "dashboard")

    # ---- Penny is given money: richer than anyone, still out (not in day 2's field)
    penny = Player.objects.get(name="Penny Short")
    player_issue_money(player=penny, amount=5000, by=None)

    # ---- day 2: drawn while scheduled; the draw stays through the opening; applied (asked)
    go(f"/organiser/days/{day(event, 2).pk}/seating/")
    page.locator("input[name=seed]").fill("day-2")
    page.get_by_role("button", name="Draw", exact=True).click()
    page.get_by_text("This draw waits for day 2 to open").wait_for()
    page.get_by_role("link", name="Open day 2…").first.click()
    page.get_by_role("button", name="Yes, open day 2").click()
    page.get_by_text("Day 2 is open: hands can be played.").wait_for()
    assert page.url.endswith(f"/organiser/days/{day(event, 2).pk}/seating/")
    page.get_by_role("heading", name="Draw day-2").wait_for()
    shot(page, "seating-pending-after-open")
    page.get_by_role("button", name="Apply this draw…").click()
    page.get_by_role("button", name="Yes, apply draw day-2").click()
    page.get_by_text("8 players seated").wait_for()
    draw = SeatingDraw.objects.get(day=day(event, 2))
    assert penny.pk not in {s["player"] for t in draw.plan for s in t["seats"]}
    play_at_every_table(day(event, 2))

    # ---- day 2's close: the top 4; Penny, the richest, is shown out and why
    go(f"/organiser/days/{day(event, 2).pk}/close/")
    page.locator("input[name=qualify_rule][value=top]").check()
    page.locator("input[name=qualify_top]").fill("4")
    page.get_by_role("button", name="Close day 2…").click()
    missed = page.locator("#preview-missed").inner_text()
    assert "Penny Short" in missed and "was not in day 2's field" in missed
    assert page.locator("#preview-qualified tbody tr").count() == 4
    page.get_by_role("button", name="Yes, close day 2").click()
    wait_closed(event, 2)
    qualified = set(Qualification.objects.filter(day=day(event, 3)).values_list("player__name"))
    assert ("Penny Short",) not in qualified and len(qualified) == 4

    # ---- the organiser lets Penny back in for day 3, with a reason (the audit log keeps it)
    page.reload()
    form = page.locator("#requalify")
    form.get_by_label("Player").select_option(label="Penny Short")
    form.get_by_label("Why (kept in the audit log)").fill("ruled back in on appeal")
    form.get_by_role("button", name="Let back in").click()
    page.get_by_text("Penny Short is let back in for day 3").wait_for()
    assert "ruled back in on appeal" in page.locator("#requalified").inner_text()
    shot(page, "close-report-requalify")
    entry = AuditEntry.objects.get(verb=Verb.PLAYER_REQUALIFY)
    assert entry.player_id == penny.pk and entry.actor_id == organiser.pk
    go(f"/organiser/events/{event.pk}/audit/")
    log = page.locator("table.audit-log").inner_text()
    assert "Let back in for day 3 past the cut. Why: ruled back in on appeal." in log
    assert "_" not in page.locator("td.audit-data").all_inner_texts().__str__()
    shot(page, "audit-log")

    # ---- the standings: marks and the cut line, on the page, the big screen and the CSV
    go(f"/standings/{event.pk}/?day=2")
    board = page.locator("table.board")
    cut = board.locator("tr.cut-line")
    cut.wait_for()
    # The close's cut, as it took it: Penny, let back in since, is said beside, not above it.
    assert "4 qualified for day 3" in cut.inner_text()
    assert "Penny Short: let back in for day 3" in page.locator(".since-close").inner_text()
    taken = StandingSnapshot.objects.filter(day=day(event, 2)).order_by("position")
    top = taken[0].player.name  # the first of day 2's order: its richest who played
    missed = taken.filter(mark="out")[0].player.name  # played day 2, missed its cut
    assert "qualified for day 3" in board.locator("tr", has_text=top).inner_text()
    assert "out after day 2" in board.locator("tr", has_text=missed).inner_text()
    sam = board.locator("tr", has_text="Sam Skint").inner_text()
    assert "out" in sam
    rows = board.locator("tbody tr")
    texts = rows.all_inner_texts()
    line = next(i for i, t in enumerate(texts) if "qualified for day 3" in t and "cut" in t)
    assert all("qualified for day 3" in t for t in texts[:line])
    assert all("qualified for day 3" not in t for t in texts[line + 1 :])
    page.set_viewport_size(PHONE)
    screenshot(page, "flow-standings-390x844", folder=DOCS_SHOTS)
    page.set_viewport_size(LAPTOP)
    screenshot(page, "flow-standings-1366x768", folder=DOCS_SHOTS)
    # The page keeps its marks when it re-draws itself from the API (every few seconds).
    page.wait_for_function("() => document.getElementById('updated').textContent.length > 0")
    page.evaluate("window.scrollTo(0, 0)")
    hall = context.new_page()
    hall.set_viewport_size(HALL)
    hall.goto(f"{base}/standings/{event.pk}/?big=1")
    hall.locator("tr.cut-line").wait_for()
    assert "qualified for day 3" in hall.locator("table.board").inner_text()
    screenshot(hall, "flow-standings-big-1920x1080", folder=DOCS_SHOTS)
    hall.close()
    answer = page.request.get(f"{base}/organiser/events/{event.pk}/standings.csv?day=2")
    table = list(csv.reader(io.StringIO(answer.text())))
    head = table[0]
    assert head[6] == "change_day_2" and head[-3:] == ["standing", "note", "cut"]
    by_name = {r[2]: r for r in table[1:]}
    assert by_name[top][-3:] == ["qualified", "qualified for day 3", "above the cut"]
    assert by_name[missed][-3:] == ["out", "out after day 2", "below the cut"]
    assert by_name["Sam Skint"][-3] == "out" and by_name["Sam Skint"][-1] == "below the cut"

    # ---- day 3 (the last): opened, drawn, applied, closed; Penny plays it
    go(f"/organiser/days/{day(event, 3).pk}/open/")
    page.get_by_role("button", name="Yes, open day 3").click()
    page.get_by_text("Day 3 is open: hands can be played.").wait_for()
    go(f"/organiser/days/{day(event, 3).pk}/seating/")
    page.get_by_role("button", name="Draw", exact=True).click()
    page.get_by_role("button", name="Apply this draw…").click()
    page.get_by_role("button", name=__import__("re").compile("^Yes, apply draw")).click()
    page.get_by_text("5 players seated").wait_for()
    assert Seat.objects.filter(table__day=day(event, 3), player=penny).exists()
    play_at_every_table(day(event, 3))
    go(f"/organiser/days/{day(event, 3).pk}/close/")
    page.get_by_role("button", name="Close day 3…").click()
    page.get_by_text("This is the event's last day").wait_for()
    page.get_by_role("button", name="Yes, close day 3").click()
    wait_closed(event, 3)
    go(f"/standings/{event.pk}/")
    page.locator("table.board").wait_for()
    assert page.locator("tr.cut-line").count() == 0  # the last day: no cut
    assert_audit_ok(event)
    context.close()
