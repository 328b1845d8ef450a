"""The count's console pages through Django's test client (issue 31): a supervisor counts a
table, bad input is said in place and changes nothing, only an organiser rules, and the
waiver asks for a reason and a tick before the day closes without its count."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from brag_event.audit.models import AuditEntry, Verb
from brag_event.closing.models import CountWaiver, SeatCount, TableCount
from brag_event.closing.services import day_close_request
from brag_event.events.models import DayClose
from tests.factories import World, played, signed_in, world

pytestmark = pytest.mark.django_db


@pytest.fixture
def w() -> World:
    w = world(3, count=True)
    played(w)  # stacks 195, 210, 195
    day_close_request(day=w.day, by=None)
    return w


def text(response: Any) -> str:
    return response.content.decode()


def test_a_supervisor_counts_and_bad_input_changes_nothing(w: World) -> None:
    floor = signed_in("supervisor")
    url = f"/organiser/tables/{w.table.pk}/count/"
    first = floor.get(url)
    assert first.status_code == 200
    html = text(first)
    assert "Seat 1 · Andy" in html and "195" not in html  # a blind count
    bad = floor.post(url, {"seat_1": "195", "seat_2": "-3"})
    assert bad.status_code == 400
    html = text(bad)
    assert "A count is a whole number of chips." in html
    assert "Enter the chips counted at this seat" in html
    assert 'value="195"' in html  # what was typed is kept
    assert not TableCount.objects.exists()
    done = floor.post(url, {"seat_1": "195", "seat_2": "200", "seat_3": "195"})
    assert done.status_code == 302
    counted = text(floor.get(url))
    assert "1 difference to rule" in counted
    assert "An organiser rules on the differences." in counted
    assert 'name="ruling"' not in counted
    # A supervisor's ruling is refused like any page they may not use.
    row = SeatCount.objects.get(seat__number=2)
    refused = floor.post(
        f"/organiser/tables/{w.table.pk}/count/rule/",
        {"seat_count": row.pk, "ruling": "accept", "reason": "x"},
    )
    assert refused.status_code == 403
    row.refresh_from_db()
    assert row.ruling == ""


def test_an_organiser_rules_with_the_refusal_in_place(w: World) -> None:
    boss = signed_in("organiser")
    boss.post(
        f"/organiser/tables/{w.table.pk}/count/",
        {"seat_1": "195", "seat_2": "230", "seat_3": "195"},
    )
    row = SeatCount.objects.get(seat__number=2)
    rule = f"/organiser/tables/{w.table.pk}/count/rule/"
    short = boss.post(
        rule, {"seat_count": row.pk, "ruling": "correct", "source": "count", "reason": "found"}
    )
    assert short.status_code == 409
    assert "The chips the count set aside hold only 0" in text(short)
    row.refresh_from_db()
    assert row.ruling == "" and row.transfer is None
    ok = boss.post(rule, {"seat_count": row.pk, "ruling": "accept", "reason": "miscounted"})
    assert ok.status_code == 302
    row.refresh_from_db()
    assert row.ruling == "accept" and row.reason == "miscounted"


def test_the_waiver_asks_for_a_reason_and_a_tick(
    w: World, django_capture_on_commit_callbacks: Any
) -> None:
    boss: Client = signed_in("organiser")
    url = f"/organiser/days/{w.day.pk}/count/waive/"
    close = f"/organiser/days/{w.day.pk}/close/"
    page = text(boss.get(close))
    assert "Close without the count" in page and "not counted" in page
    missing = boss.post(url, {"reason": ""})
    assert missing.status_code == 400
    assert "Say why the count is waived." in text(missing)
    assert "Tick the box to confirm." in text(missing)
    assert not CountWaiver.objects.exists()
    assert boss.post(url, {"reason": "hall closes", "confirm": "on"}).status_code == 302
    assert AuditEntry.objects.filter(verb=Verb.DAY_COUNT_WAIVED).count() == 1
    page = text(boss.get(close))
    assert "The count is waived by organiser: hall closes" in page
    with django_capture_on_commit_callbacks(execute=True):
        assert boss.post(close, {}).status_code == 302
    assert DayClose.objects.get(day=w.day).status == DayClose.Status.DONE
    report = text(boss.get(close))
    assert "Waived by organiser: hall closes" in report
    log = text(boss.get(f"/organiser/events/{w.event.pk}/audit/"))
    assert "The day&#x27;s chip count waived: hall closes." in log
