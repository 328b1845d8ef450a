"""Issue 43's staff and tables pages in headless Chromium, at the console's sizes (1366×768 and
390×844, never scrolling sideways): the Dealers page with the rota's dealers and a warning, the
floor's "Who deals where", a day's set-up with the large-pot form during the day (changed
there), the set-up table's large-pot column and warning, and the dashboard's alert while a pot
waits. Screenshots go to docs/screenshots/."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import Group, User
from django.core.cache import cache
from django.db.models import F
from django.utils import timezone

from brag_event.core.actors import Actor
from brag_event.events.models import Day
from brag_event.floor.services import day_award_from_change
from brag_event.hands.services import hand_start
from brag_event.tables.rota import rota_draw
from brag_event.tables.services import table_create
from brag_event.tables.shifts import shift_sign_in
from tests.access.test_staff_browser import both_sizes, console_sign_in
from tests.factories import act, world

pytestmark = pytest.mark.browser


def test_the_staff_and_tables_pages_at_both_sizes(
    chromium: Any, transactional_db: Any, live_server: Any
) -> None:
    from playwright.sync_api import expect

    cache.clear()
    w = world(3)
    table_create(day=w.day, by=None)
    group = Group.objects.get_or_create(name="dealer")[0]
    people = []
    for name, full in (("ann", "Ann Lee"), ("sam", "Sam Okafor"), ("maria", "Maria Lopez")):
        first, last = full.split()
        user = User.objects.create_user(name, password="x", first_name=first, last_name=last)
        user.groups.add(group)
        people.append(user)
    ann, _sam, maria = people
    rota_draw(
        day=w.day,
        starts_at=timezone.now() - timedelta(minutes=5),
        minutes=30,
        changes=6,
        dealers=people,
        by=None,
    )
    shift_sign_in(table=w.table, by=Actor(user=ann))
    maria.set_unusable_password()
    maria.save()
    Day.objects.filter(event=w.event, number=3).update(award_confirm_from=F("ante") * 3)
    # A pot waits for a supervisor at table 1.
    day_award_from_change(day=w.day, amount=20, by=None)
    hand = hand_start(table=w.table, by=Actor(user=ann))
    act(hand, by=Actor(user=ann), seat=2, action="look")
    act(hand, by=Actor(user=ann), seat=2, action="bet", amount=10)
    act(hand, by=Actor(user=ann), seat=3, action="fold")
    act(hand, by=Actor(user=ann), seat=1, action="fold")
    User.objects.create_superuser("boss", password="felt-green-table-7")

    page = chromium.new_context(viewport={"width": 1366, "height": 768}).new_page()
    page.set_default_timeout(10_000)
    base = live_server.url
    console_sign_in(page, base, "boss", "felt-green-table-7")

    page.goto(f"{base}/organiser/days/{w.day.pk}/seating/dealers/")
    expect(page.locator("#rota")).to_contain_text("table 1, Ann Lee; table 2, Sam Okafor")
    expect(page.locator("#rota-problems")).to_contain_text(
        "Maria Lopez has neither a password nor a tablet token"
    )
    both_sizes(page, "console-dealers-rota")

    page.goto(f"{base}/organiser/events/{w.event.pk}/floor/dealing/")
    expect(page.locator(".dealing-grid")).to_contain_text("Ann Lee")
    expect(page.locator(".dealing-grid")).to_contain_text("not yet here")
    both_sizes(page, "floor-dealing")

    page.goto(f"{base}/organiser/events/{w.event.pk}/")
    expect(page.locator(".alerts")).to_contain_text(
        "Table 1: a pot of 25 has waited for a supervisor's confirmation since"
    )
    expect(page.locator("#live table").first).to_contain_text("Ann Lee")
    expect(page.locator("#live table").first).to_contain_text("Sam Okafor (rota, not signed in)")
    both_sizes(page, "console-dashboard-pot-waits")

    page.goto(f"{base}/organiser/events/{w.event.pk}/setup/")
    expect(page.locator(".large-pot-warning").last).to_contain_text("Day 3: Pots from")
    both_sizes(page, "console-setup-large-pot")

    page.goto(f"{base}/organiser/days/{w.day.pk}/setup/")
    form = page.locator("#large-pot")
    form.get_by_label("Second confirmation for pots from").fill("400")
    form.get_by_label("Why (for the log)").fill("busy tables")
    form.get_by_role("button", name="Change the large-pot amount").click()
    expect(page.get_by_text("pots from 400 wait for a supervisor's confirmation")).to_be_visible()
    assert Day.objects.get(pk=w.day.pk).award_confirm_from == 400
    page.locator("#large-pot").scroll_into_view_if_needed()
    both_sizes(page, "console-day-large-pot")
