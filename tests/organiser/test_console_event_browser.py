"""A whole three-day FLASH event run through the organiser's console in headless Chromium.

The organiser sets the event up from the FLASH preset (and edits a day's rules: the change log),
imports the players (every row previewed, bad rows refused), opens day 1, draws and applies its
seating, assigns the dealers and issues the tablets' tokens; the tables play through the API
(the benchmark's tablet, ``bench.api_tablet``); the organiser withdraws a player, closes day 1
(top N), draws day 2 from its qualifiers with day 2's rules (ante 10, table 180–475, fee 25), …
closes day 3; final standings and exports. Every money step ends with the ledger audit passing.
Screenshots of the set-up and players pages at 1366×768 go to ``docs/screenshots/``. Chromium
comes from the system; without it the test is skipped locally and fails under CI (as in
``tests/tablet``)."""

from __future__ import annotations

import csv
import io
import json
import os
import time
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.auth.models import Group, User
from django.core.cache import cache
from django.test import Client

from bench.api_tablet import Tablet
from brag_event.events.models import Day, DayClose, Event
from brag_event.hands.models import Hand
from brag_event.ledger.models import Transfer
from brag_event.players.models import Player, Qualification
from brag_event.tables.models import Seat, SeatingDraw, Table
from tests.browser import DOCS_SHOTS
from tests.browser import shot as screenshot
from tests.factories import assert_audit_ok

VIEWPORT = {"width": 1366, "height": 768}
HANDS_A_TABLE = 2  # hands each table plays on each day

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's loop in this thread

LONG_NAME = "Maximilian" * 8  # 80 characters without a space: the longest name there can be
IMPORT = (
    "name,starting_money,club\n"
    + "".join(f"Player {n:02d},1000,Club {n % 3}\n" for n in range(1, 14))
    + f"{LONG_NAME},1000,\n"
    + "Bad Money,12x,\n"
    + "PLAYER 01,1000,\n"
    + f"{'L' * 100},1000,\n"
)


def shot(page: Any, name: str) -> None:
    screenshot(page, name, folder=DOCS_SHOTS)


def no_sideways_scroll(page: Any) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= VIEWPORT["width"], f"{page.url} is {width} px wide"


def signed_in(browser: Any, url: str, user: User) -> Any:
    """A page whose browser carries the user's session (the sign-in page is issue 16's other
    part and has its own tests)."""
    client = Client()
    client.force_login(user)
    context = browser.new_context(viewport=VIEWPORT, device_scale_factor=1)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": url}])
    page = context.new_page()
    page.set_default_timeout(20_000)
    page.on("dialog", lambda dialog: dialog.accept())  # a confirmation before a close
    return page


def staff(name: str, group: str) -> User:
    user = User.objects.create_user(name, password=f"{name}-pw")
    user.groups.add(Group.objects.get_or_create(name=group)[0])
    return user


def play(tablet: Tablet, hands: int) -> None:
    """Play whole hands at the tablet's table through the API until ``hands`` have settled."""
    hand = tablet.expect("get", "GET", f"/tables/{tablet.table_id}/")["hand"]
    tablet.deal(hand)
    for _ in range(5000):
        if hand is None or hand["status"] != "in_progress":
            if len(tablet.stats.settled) >= hands:
                return
            hand = tablet.start_hand(hand)
        else:
            hand = tablet.step(hand)
    raise AssertionError(f"table {tablet.table_id}: {hands} hands did not settle")


class Console:
    """The organiser's browser, and what the test checks after each step."""

    def __init__(self, page: Any, url: str, event: Event | None = None) -> None:
        self.page = page
        self.url = url
        self.event = event
        self.tokens: dict[str, str] = {}

    def go(self, path: str) -> None:
        self.page.goto(f"{self.url}{path}")

    def day(self, number: int) -> Day:
        assert self.event is not None
        return Day.objects.get(event=self.event, number=number)

    def open_day(self, number: int) -> None:
        assert self.event is not None
        self.go(f"/organiser/events/{self.event.pk}/")
        self.page.get_by_role("link", name=f"Open day {number}…").click()
        # Asked once: the day's rules freeze.
        self.page.get_by_role("heading", name=f"Open day {number} now?").wait_for()
        assert self.day(number).status == "scheduled"
        self.page.get_by_role("button", name=f"Yes, open day {number}").click()
        self.page.get_by_text(f"Day {number} is open: hands can be played.").wait_for()
        assert self.day(number).status == "open"

    def seat_the_day(self, number: int) -> list[Table]:
        day = self.day(number)
        self.go(f"/organiser/days/{day.pk}/seating/")
        self.page.locator("input[name=seed]").fill(f"console-{number}")
        self.page.get_by_role("button", name="Draw", exact=True).click()
        self.page.get_by_role("button", name="Apply this draw…").click()
        self.page.get_by_role("button", name=f"Yes, apply draw console-{number}").click()
        self.page.get_by_text("players seated").wait_for()
        assert_audit_ok(day.event)  # every buy-in and its fee
        return list(Table.objects.filter(day=day).order_by("number"))

    def assign_dealers(self, number: int, tables: list[Table]) -> None:
        """One form for every table of the day: dealer k+1 at the k-th table (whatever the
        page proposed from the day before is unticked first)."""
        day = self.day(number)
        self.go(f"/organiser/days/{day.pk}/seating/dealers/")
        for k, _table in enumerate(tables):
            card = self.page.locator("fieldset.seat-card").nth(k)
            for box in card.get_by_role("checkbox").all():
                box.uncheck()
            card.get_by_label(f"dealer{k + 1}").check()
        self.page.get_by_role("button", name="Save the dealers of every table").click()
        self.page.get_by_text(f"Dealers saved for day {number}").wait_for()
        for k, table in enumerate(tables):
            assert list(table.dealers.values_list("username", flat=True)) == [f"dealer{k + 1}"]

    def issue_tokens(self, count: int) -> None:
        for k in range(1, count + 1):
            if f"dealer{k}" in self.tokens:
                continue
            self.go("/organiser/tokens/")
            self.page.get_by_label("Device name").fill(f"Tablet {k}")
            self.page.get_by_label("Acts as").select_option(label=f"dealer{k}")
            self.page.get_by_role("button", name="Issue").click()
            self.tokens[f"dealer{k}"] = self.page.locator("code.key").inner_text().strip()

    def play_the_day(self, number: int, tables: list[Table]) -> None:
        day = self.day(number)
        where = urlsplit(self.url)
        for k, table in enumerate(tables):
            seated = Seat.objects.filter(table=table, left_at__isnull=True).count()
            tablet = Tablet(
                host=where.hostname or "localhost",
                port=where.port or 80,
                table_id=table.pk,
                token=self.tokens[f"dealer{k + 1}"],
                seats=seated,
                ante=day.ante,
                buy_in=day.table_min,
                seed=100 * number + k,
            )
            try:
                play(tablet, HANDS_A_TABLE)
            finally:
                tablet.conn.close()
            assert not tablet.stats.failures, tablet.stats.failures
        hands = Hand.objects.filter(table__day=day)
        assert hands.count() >= HANDS_A_TABLE * len(tables)
        assert {json.dumps(h.rules["ante"]) for h in hands} == {str(day.ante)}
        assert_audit_ok(day.event)

    def count_tables(self, day: Day) -> None:
        """The end-of-day count (issue 31): every table counted on its count page, each stack
        as recorded (nothing to rule), then the close asked for again."""
        page = self.page
        assert DayClose.objects.get(day=day).status == DayClose.Status.COUNTING
        for table in day.tables.order_by("number"):
            seats = list(
                Seat.objects.filter(table=table, left_at__isnull=True)
                .select_related("player")
                .order_by("number")
            )
            if not seats:
                continue
            self.go(f"/organiser/tables/{table.pk}/count/")
            for seat in seats:
                label = f"Seat {seat.number} · {seat.player.name}"
                page.get_by_label(label, exact=True).fill(str(seat.stack))
            page.get_by_role("button", name=f"Enter the count of table {table.number}").click()
            page.wait_for_load_state()
            assert page.locator("#count-badge").inner_text().lower() == "counted"
        self.go(f"/organiser/days/{day.pk}/close/")
        page.get_by_role("button", name=f"Close day {day.number} now").click()
        page.wait_for_load_state()

    def close_day(self, number: int, top: int | None) -> None:
        day = self.day(number)
        self.go(f"/organiser/days/{day.pk}/close/")
        page = self.page
        last = not day.event.days.filter(number__gt=number).exists()
        if last:
            pass  # the last day's close asks no qualification rule
        elif top is None:
            page.locator("input[name=qualify_rule][value=afford]").check()
        else:
            page.locator("input[name=qualify_rule][value=top]").check()
            page.locator("input[name=qualify_top]").fill(str(top))
        page.get_by_role("button", name=f"Close day {number}…").click()
        page.wait_for_load_state()
        # The confirmation step says what will happen; nothing is closed before it.
        assert self.day(number).status == "open"
        page.get_by_role("button", name=f"Yes, close day {number}").click()
        page.wait_for_load_state()
        if day.event.count_at_close:
            self.count_tables(day)
        deadline = time.monotonic() + 30
        while DayClose.objects.filter(day=day, status=DayClose.Status.DONE).count() == 0:
            assert time.monotonic() < deadline, "the close did not finish"
            time.sleep(0.2)
        assert self.day(number).status == "closed"
        assert not Seat.objects.filter(table__day=day, left_at__isnull=True).exists()
        assert_audit_ok(day.event)  # every stack back to its player's balance


def test_an_organiser_runs_a_three_day_flash_event_through_the_console(
    transactional_db: Any, live_server: Any, chromium: Any
) -> None:
    cache.clear()
    organiser = staff("organiser", "organiser")
    for k in (1, 2, 3):
        staff(f"dealer{k}", "dealer")
    page = signed_in(chromium, live_server.url, organiser)
    console = Console(page, live_server.url)

    # ---- set-up: the FLASH preset, then day 2's page with a change and its log
    console.go("/organiser/events/new/")
    flash = page.locator("#flash-form")
    flash.get_by_label("Event name").fill("FLASH 2027")
    flash.get_by_label("Date of day 1").fill("2027-03-05")
    flash.get_by_label("Starting money of each player").fill("1000")
    no_sideways_scroll(page)
    shot(page, "console-event-new")
    flash.get_by_role("button", name="Create from FLASH").click()
    page.get_by_text("FLASH 2027 is set up with 3 days, all scheduled.").wait_for()
    event = Event.objects.get(name="FLASH 2027")
    console.event = event
    assert page.get_by_role("link", name="Edit day 2").count() == 1
    no_sideways_scroll(page)
    shot(page, "console-event-setup")

    page.get_by_role("link", name="Edit day 2").click()
    form = page.locator("#day-form")
    form.locator("input[name=house_fee]").fill("30")
    form.get_by_label("Why (for the log)").fill("asked by the club")
    form.get_by_role("button", name="Save day 2").click()
    page.get_by_text("Day 2 saved.").wait_for()
    form = page.locator("#day-form")
    form.locator("input[name=table_min]").fill("500")  # more than the most: refused
    form.get_by_role("button", name="Save day 2").click()
    # The engine names both fields of a problem between two (the least and the most).
    problem = page.get_by_text("The least money on the table must not be more than the most.")
    problem.first.wait_for()
    assert problem.count() == 2
    form = page.locator("#day-form")
    form.locator("input[name=table_min]").fill("180")
    form.locator("input[name=house_fee]").fill("25")
    form.get_by_label("Why (for the log)").fill("back to the event sheet")
    form.get_by_role("button", name="Save day 2").click()
    page.get_by_text("Day 2 saved.").wait_for()
    assert page.locator("table.change-log tbody tr").count() == 3  # two changes, the creation
    day2 = console.day(2)
    assert (day2.ante, day2.table_min, day2.table_max, day2.house_fee) == (10, 180, 475, 25)
    no_sideways_scroll(page)
    shot(page, "console-day-rules")

    # ---- players: the import with bad rows, every row previewed, then confirmed
    console.go(f"/organiser/events/{event.pk}/players/")
    page.get_by_label("Or paste it").fill(IMPORT)
    page.locator("#import-form").get_by_role("button", name="Preview the import").click()
    page.get_by_text("Check before importing").wait_for()
    assert page.locator("table.import-rows tbody tr").count() == 17
    assert page.locator("table.import-rows tr.row-refused").count() == 3
    no_sideways_scroll(page)  # the 80-character name and the 100-character rejected one
    shot(page, "console-players-import")
    assert not Player.objects.filter(event=event).exists()
    page.get_by_role("button", name="Register 14 players").click()
    page.get_by_text("14 players registered.").wait_for()
    assert Player.objects.filter(event=event).count() == 14
    assert_audit_ok(event)  # the money issued

    # ---- day 1: open, seat, dealers, tokens, play, close (top 9)
    console.open_day(1)
    tables = console.seat_the_day(1)
    assert [t.seats.count() for t in tables] == [5, 5, 4]
    console.assign_dealers(1, tables)
    console.issue_tokens(len(tables))
    # Day 2 cannot be drawn while day 1 is open: refused in words on its page.
    console.go(f"/organiser/days/{day2.pk}/seating/")
    page.get_by_role("button", name="Draw", exact=True).click()
    page.get_by_text(
        "Day 1 is open: the seating draw of day 2 waits until day 1 has closed."
    ).first.wait_for()
    assert not SeatingDraw.objects.filter(day=day2).exists()
    console.play_the_day(1, tables)
    console.close_day(1, top=9)
    qualified = set(Qualification.objects.filter(day=day2).values_list("player_id", flat=True))
    assert len(qualified) >= 9

    # ---- a qualifier withdraws before day 2: shown as withdrawn, left out of the draw
    leaving = Player.objects.filter(pk__in=qualified).order_by("name").first()
    assert leaving is not None
    console.go(f"/organiser/events/{event.pk}/players/")
    page.get_by_label("Find a player").fill(leaving.name.upper())
    page.get_by_role("button", name="Search").click()
    page.get_by_role("link", name=leaving.name, exact=True).click()
    page.get_by_label("Why (for the log)").fill("went home")
    page.locator("#withdraw-form").get_by_role("button").click()
    page.get_by_text(f"{leaving.name} is withdrawn").wait_for()
    no_sideways_scroll(page)
    shot(page, "console-player")
    assert_audit_ok(event)

    # ---- day 2: its qualifiers only, with day 2's rules
    console.open_day(2)
    tables = console.seat_the_day(2)
    draw = SeatingDraw.objects.get(day=day2, applied_at__isnull=False)
    drawn = {s["player"] for t in draw.plan for s in t["seats"]}
    assert drawn == qualified - {leaving.pk}
    assert {"player": leaving.pk, "name": leaving.name, "reason": "withdrawn"} in draw.excluded
    seats = Seat.objects.filter(table__day=day2)
    assert all(180 <= s.buy_in <= 475 for s in seats)
    fees = Transfer.objects.filter(kind=Transfer.Kind.HOUSE_FEE, memo__contains="buy-in")
    assert fees.filter(amount=25).count() == seats.count()
    console.assign_dealers(2, tables)
    console.issue_tokens(len(tables))
    console.play_the_day(2, tables)
    console.close_day(2, top=6)

    # ---- day 3: the last day, then the final standings and the exports
    day3 = console.day(3)
    qualified3 = set(Qualification.objects.filter(day=day3).values_list("player_id", flat=True))
    console.open_day(3)
    tables = console.seat_the_day(3)
    assert set(Seat.objects.filter(table__day=day3).values_list("player_id", flat=True)) == (
        qualified3
    )
    console.assign_dealers(3, tables)
    console.issue_tokens(len(tables))
    console.play_the_day(3, tables)
    console.close_day(3, top=None)
    assert [d.status for d in event.days.order_by("number")] == ["closed"] * 3

    console.go(f"/standings/{event.pk}/")
    page.get_by_text(LONG_NAME).first.wait_for()
    answer = page.request.get(f"{live_server.url}/organiser/events/{event.pk}/standings.csv")
    assert answer.ok
    rows = list(csv.reader(io.StringIO(answer.text())))
    assert rows[0][:3] == ["player_id", "rank", "name"] and len(rows) == 15
    # Every MB issued is a player's (the export's totals), the house's or in a pot a table
    # carried (RULES §4b).
    total = sum(int(r[5]) for r in rows[1:])
    house = Transfer.objects.filter(kind=Transfer.Kind.HOUSE_FEE).values_list("amount", flat=True)
    carried = Table.objects.filter(day__event=event).values_list("carried_pot", flat=True)
    assert total + sum(house) + sum(carried) == 14 * 1000
    ledger = page.request.get(f"{live_server.url}/organiser/events/{event.pk}/ledger.csv")
    assert ledger.ok and "house_fee" in ledger.text()
    jsonl = page.request.get(f"{live_server.url}/organiser/days/{day3.pk}/hands.jsonl")
    lines = [json.loads(line) for line in jsonl.text().splitlines()]
    hands = [line for line in lines if line["format"] == "brag-hh/1"]
    assert len(hands) == Hand.objects.filter(table__day=day3).count()
    # The last line is the day's record: the root the close published (issue 20).
    day3.refresh_from_db()
    assert lines[-1]["format"] == "brag-day/3" and lines[-1]["root"] == day3.record_root
    assert_audit_ok(event)
    page.context.close()
