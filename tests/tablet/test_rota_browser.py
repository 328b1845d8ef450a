"""The rota's dealer opens their table on the tablet at their turn (issue 43), in a real
browser: nobody ticked them on the Dealers page; the tablet lists the rota's table for them and
nothing else, they sign in to deal there, the next rota dealer relieves them and their tablet
says so in words and stops offering the next hand."""

from __future__ import annotations

import re
import time
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import Group, User
from django.utils import timezone
from playwright.sync_api import expect

from brag_event.tables.models import DealerShift
from brag_event.tables.rota import rota_draw
from brag_event.tables.services import table_create
from tests.browser import shot

from .conftest import Hall

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


def dealer(name: str, full: str) -> User:
    first, last = full.split()
    user = User.objects.create_user(name, password=f"{name}-pw", first_name=first, last_name=last)
    user.groups.add(Group.objects.get_or_create(name="dealer")[0])
    return user


def dealing(page: Any, who: User) -> None:
    """Wait (up to 15 s) until ``who`` holds the one open shift: the tablet signs in to deal
    in the background, after the page shows the table."""
    deadline = time.monotonic() + 15
    while not DealerShift.objects.filter(ended_at=None, dealer=who).exists():
        assert time.monotonic() < deadline, list(DealerShift.objects.filter(ended_at=None))
        page.wait_for_timeout(200)
    assert DealerShift.objects.filter(ended_at=None).count() == 1


def test_the_rota_dealer_opens_their_table_at_their_turn_and_is_told_when_relieved(
    hall: Hall, browser: Any
) -> None:
    w = hall.world
    second = table_create(day=w.day, by=None)
    ann, maria = dealer("ann", "Ann Lee"), dealer("maria", "Maria Lopez")
    assert not w.table.dealers.filter(pk__in=[ann.pk, maria.pk]).exists()  # nobody ticked them

    def draw(minutes_ago: int) -> None:
        rota_draw(
            day=w.day,
            starts_at=timezone.now() - timedelta(minutes=minutes_ago),
            minutes=30,
            changes=6,
            dealers=[ann, maria],
            by=None,
        )

    draw(5)  # turn 1: ann at table 1, maria at table 2
    page = hall.page(browser, who="ann", size=(1180, 820), touch=True)
    tiles = page.locator("#tables a.tile")
    expect(tiles).to_have_count(1)
    expect(tiles.first).to_contain_text("Table 1")
    shot(page, "rota-dealer-tables-1180")
    tiles.first.click()
    expect(page.locator("#title")).to_contain_text("Table 1")
    expect(page.get_by_role("button", name="Start the next hand")).to_be_visible()
    dealing(page, ann)  # the table page signs her in to deal there
    shot(page, "rota-dealer-table-1180")

    # Maria's turn at table 1 comes (the rota drawn half an hour earlier): she opens it and
    # relieves Ann, whose tablet says so and no longer offers the next hand.
    draw(35)
    other = hall.page(browser, who="maria", size=(1180, 820), touch=True)
    expect(other.locator("#tables a.tile")).to_have_count(1)
    other.get_by_role("link", name=re.compile("Table 1")).click()
    expect(other.locator("#title")).to_contain_text("Table 1")
    expect(other.get_by_role("button", name="Start the next hand")).to_be_visible()
    state = page.locator("#shift-state")
    expect(state).to_contain_text(
        re.compile(r"Maria Lopez took over this table at \d\d:\d\d: you no longer deal here\."),
        timeout=25_000,
    )
    expect(page.locator("#start-hand")).to_have_count(0)
    expect(page.locator("#relieved-note")).to_be_visible()
    shot(page, "rota-dealer-relieved-1180")
    dealing(page, maria)
    assert second.pk not in {s.table_id for s in DealerShift.objects.all()}
