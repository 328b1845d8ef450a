"""A tablet reading its table when the day is not open gets the day's state in words (409),
not a 404; other dealers' tables, and tables nobody has, stay 404. Between hands the table says
who deals the next hand."""

from __future__ import annotations

import pytest

from brag_event.events.models import Day
from tests.factories import act, start

from .conftest import Api

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("status", "code", "said"),
    [
        (Day.Status.CLOSED, "day_closed", "Day 1 is closed"),
        (Day.Status.CLOSING, "day_closing", "Day 1 is closing"),
        (Day.Status.SCHEDULED, "day_not_open", "Day 1 has not opened yet"),
    ],
)
def test_a_table_of_a_day_not_open_says_the_days_state(
    api: Api, status: str, code: str, said: str
) -> None:
    table = api.world.table
    Day.objects.filter(pk=table.day_id).update(status=status)
    for role in ("dealer", "supervisor"):
        answer = api.client(role).get(f"/api/v1/tables/{table.pk}/")
        assert answer.status_code == 409
        error = answer.json()["error"]
        assert error["code"] == code
        assert error["message"].startswith(said)
        assert error["details"]["status"] == status
        assert error["details"]["table"] == 1
        assert error["details"]["status_text"]
    # Not yours, or no such table: nothing is said about it.
    assert api.client("other_dealer").get(f"/api/v1/tables/{table.pk}/").status_code == 404
    assert api.client("dealer").get(f"/api/v1/tables/{table.pk + 99}/").status_code == 404


def test_between_hands_the_table_names_the_next_hands_dealer(api: Api) -> None:
    client = api.client("dealer")
    url = f"/api/v1/tables/{api.world.table.pk}/"
    assert client.get(url).json()["next_dealer"] == 1  # no hand yet: the first seated
    hand = start(api.world)
    act(hand, seat=2, action="fold")
    act(hand, seat=3, action="fold")
    data = client.get(url).json()
    assert data["hand"]["dealer"] == 1
    assert data["next_dealer"] == 2
