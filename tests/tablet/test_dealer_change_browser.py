"""A change of dealer on the tablet: the rota's change is announced on the table's tablet ten
minutes before it is due, the next dealer signs in on their own tablet and takes the table (a
shift each, the first relieved), and the banner goes."""

from __future__ import annotations

import re
import time
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import Group, User
from django.utils import timezone
from playwright.sync_api import expect

from brag_event.events.zones import zone
from brag_event.tables.models import DealerShift
from brag_event.tables.rota import rota_draw
from tests.browser import DOCS_SHOTS, shot

from .conftest import Hall
from .test_tablet_browser import open_table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


def test_the_tablet_says_the_change_is_due_and_the_next_dealer_takes_the_table(
    hall: Hall, browser: Any
) -> None:
    w = hall.world
    maria = User.objects.create_user(
        "maria", password="maria-pw", first_name="Maria", last_name="Lopez"
    )
    maria.groups.add(Group.objects.get_or_create(name="dealer")[0])
    w.table.dealers.add(maria)
    # The rota's first turn began 25 minutes ago: Maria takes the table in five minutes.
    start = timezone.now().replace(microsecond=0) - timedelta(minutes=25)
    rota_draw(
        day=w.day, starts_at=start, minutes=30, changes=4, dealers=[hall.dealer, maria], by=None
    )
    at = (start + timedelta(minutes=30)).astimezone(zone(w.event.time_zone)).strftime("%H:%M")

    page = open_table(hall, browser, size=(1180, 820))
    banner = page.locator("#dealer-change")
    expect(banner).to_have_text(f"Change of dealer due: Maria Lopez takes this table at {at}.")
    shot(page, "tablet-dealer-change-1180x820", folder=DOCS_SHOTS)
    first = DealerShift.objects.get(dealer=hall.dealer)
    assert first.table == w.table and first.ended_at is None

    # Maria signs in on her tablet and opens the table: her shift starts, the first ends.
    hers = open_table(hall, browser, who="maria", size=(1180, 820))
    expect(hers.locator("#title")).to_contain_text("Table 1")
    expect(hers.locator("#dealer-change")).to_be_hidden()
    expect(banner).to_be_hidden(timeout=25_000)  # the first tablet reads the shift every 15 s
    first.refresh_from_db()
    assert first.ended_how == DealerShift.End.RELIEVED and first.ended_at is not None
    now = DealerShift.objects.get(ended_at__isnull=True)
    assert now.dealer == maria and now.table == w.table

    # Maria signs out: her shift ends.
    hers.locator("#logout").click()
    # The URL is polled, not one navigation awaited: the tablet's own 15-second read can send it
    # to the login page too, aborting the first navigation there (net::ERR_ABORTED).
    expect(hers).to_have_url(re.compile(r"/tablet/login/"))
    # The shift's end is waited on in the record: a tablet with a device token says so in a
    # keepalive request that can land after the login page has loaded.
    deadline = time.monotonic() + 15
    while not DealerShift.objects.filter(pk=now.pk, ended_how=DealerShift.End.SIGNED_OUT).exists():
        assert time.monotonic() < deadline, DealerShift.objects.filter(pk=now.pk).values().get()
        hers.wait_for_timeout(200)
    now.refresh_from_db()
    assert now.ended_how == DealerShift.End.SIGNED_OUT
