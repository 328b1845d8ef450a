"""People in headless Chromium (issues 29 and 32), at the console's size: a file imported into
this year's event finds last year's Priya Shah by name and a look-alike of a registered Harvey
Price; nothing is registered until the organiser answers each row; then Priya's page lists both
events with last year's closed day. Screenshots of the preview with its questions and of the
person's page go to ``docs/screenshots/``; axe-core finds no WCAG A/AA violation on either."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import Group, User

from brag_event.closing.services import day_close_request
from brag_event.events.services import event_create_flash
from brag_event.players.models import Player
from brag_event.players.people import person_update
from brag_event.players.services import player_register
from brag_event.tables.services import seat_buy_in
from tests.axe import assert_no_violations
from tests.browser import DOCS_SHOTS
from tests.browser import shot as screenshot
from tests.factories import assert_audit_ok, play_hand, world
from tests.organiser.test_import_browser import WIDE, no_sideways_scroll, signed_in

FILE = "Name,Club\nPriya Shah,\nH\u0430rvey Price,York\nNew Person,York\n"


def test_the_import_asks_about_returning_people_and_look_alikes_then_the_person_page(
    transactional_db: Any, live_server: Any, chromium: Any
) -> None:
    organiser = User.objects.create_user("organiser", password="x")
    organiser.groups.add(Group.objects.get_or_create(name="organiser")[0])
    spring = world(3, name="Spring 2026")
    priya = player_register(event=spring.event, name="Priya Shah", by=None)
    person_update(
        person=priya.person, club="Leeds Club", email="priya@example.org", phone="0113", by=None
    )
    seat_buy_in(table=spring.table, seat_number=4, player=priya, amount=200, by=None)
    play_hand(spring)  # Priya plays day 1 too: she can qualify
    day_close_request(day=spring.day, by=None)  # Celery eager: closed on commit
    autumn = event_create_flash(name="Autumn 2026", starting_money=1000, by=None)
    harvey = player_register(event=autumn, name="Harvey Price", by=None)
    number = priya.person.number

    page = signed_in(chromium, live_server.url, organiser, WIDE)
    page.goto(f"{live_server.url}/organiser/events/{autumn.pk}/players/")
    form = page.locator("#import-form")
    form.locator("textarea").fill(FILE)
    form.get_by_role("button", name="Preview the import").click()
    page.get_by_text("Check before importing").wait_for()
    rows = page.locator("table.import-rows tbody tr")
    assert (
        f"matches Priya Shah (no. {number}, Leeds Club) — same person?" in rows.nth(0).inner_text()
    )
    assert "looks the same as Harvey Price, already registered" in rows.nth(1).inner_text()
    page.get_by_text("2 rows below ask you a question").wait_for()
    no_sideways_scroll(page, WIDE)
    assert_no_violations(page)
    screenshot(page, "import-match-1366", folder=DOCS_SHOTS)

    # Unanswered: refused in words, nothing registered.
    page.get_by_role("button", name="Register 3 players").click()
    page.get_by_text("Say for lines 2, 3 whether each is").wait_for()
    assert Player.objects.filter(event=autumn).count() == 1
    # The answers: Priya is last year's Priya; the look-alike is another person.
    rows = page.locator("table.import-rows tbody tr")
    rows.nth(0).get_by_label(f"Same person: Priya Shah (no. {number}, Leeds Club)").check()
    rows.nth(1).get_by_label("Two different people: register").check()
    page.get_by_role("button", name="Register 3 players").click()
    page.get_by_text("3 players registered. You can undo").wait_for()
    entered = Player.objects.get(event=autumn, name="Priya Shah")
    assert entered.person_id == priya.person_id
    york = Player.objects.get(event=autumn, name="H\u0430rvey Price")
    assert york.look_alike_confirmed and york.person.club == "York"
    assert_audit_ok(autumn)

    # The standings tell the two Harveys apart by their numbers, and their clubs where they
    # have one (the York one plays for York).
    assert york.group == "York"
    page.goto(f"{live_server.url}/standings/{autumn.pk}/")
    body = page.locator("body").inner_text()
    assert f"Harvey Price (no. {harvey.person.number})" in body
    assert f"H\u0430rvey Price (no. {york.person.number}, York)" in body

    # Priya's page: both events, last year's closed day, her contact for organisers.
    page.goto(f"{live_server.url}/organiser/players/{entered.pk}/")
    page.get_by_role("link", name="Their events and results").click()
    page.get_by_role("heading", name="Events: 2").wait_for()
    events = page.locator("#events")
    assert "Spring 2026" in events.inner_text() and "Autumn 2026" in events.inner_text()
    spring_day = page.locator(".entry", has_text="Spring 2026").locator("tbody tr").first
    assert spring_day.locator(".badge-ok").inner_text().casefold() == "qualified"
    assert "priya@example.org" in page.locator("#facts").inner_text()
    no_sideways_scroll(page, WIDE)
    assert_no_violations(page)
    screenshot(page, "person-1366", folder=DOCS_SHOTS)
    page.context.close()
