"""The dealers of a day's tables: one form for every table, and the previous day's dealers
proposed for a day that has none yet (at the same table numbers)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from brag_event.access.models import StaffRole
from brag_event.audit.models import AuditEntry
from brag_event.core.errors import ServiceError
from brag_event.tables.assign import day_assign_dealers, day_dealers_proposed
from brag_event.tables.models import Table
from brag_event.tables.services import table_create
from tests.factories import user_in, world

pytestmark = pytest.mark.django_db


def dealer_of(event_id: int, name: str) -> User:
    user = User.objects.create_user(name, password="x")
    StaffRole.objects.create(user=user, event_id=event_id, role="dealer")
    return user


@pytest.fixture
def two_days() -> dict:
    w = world(3)
    t2 = table_create(day=w.day, by=None)
    day2 = w.event.days.get(number=2)
    # Day 2's tables as a seating draw leaves them; table 3 is new on day 2.
    later = {n: Table.objects.create(day=day2, number=n) for n in (1, 2, 3)}
    d = {name: dealer_of(w.event.pk, name) for name in ("ann", "ben", "cal")}
    return {"w": w, "day1": w.day, "day2": day2, "t1": w.table, "t2": t2, "later": later, **d}


def test_the_previous_days_dealers_are_proposed_at_the_same_numbers(two_days: dict) -> None:
    s = two_days
    day_assign_dealers(
        day=s["day1"], dealers={s["t1"].pk: [s["ann"]], s["t2"].pk: [s["ben"], s["cal"]]}, by=None
    )
    proposed, carried_from = day_dealers_proposed(s["day2"])
    later = s["later"]
    assert carried_from == s["day1"]
    assert proposed == {
        later[1].pk: [s["ann"].pk],
        later[2].pk: sorted([s["ben"].pk, s["cal"].pk]),
        later[3].pk: [],
    }
    # Only a proposal: nothing is saved until the organiser saves.
    assert not any(t.dealers.exists() for t in later.values())
    # A dealer switched off since is not proposed.
    s["cal"].is_active = False
    s["cal"].save()
    proposed, _ = day_dealers_proposed(s["day2"])
    assert proposed[later[2].pk] == [s["ben"].pk]
    # Once the day has its own dealers, they are what is shown.
    day_assign_dealers(day=s["day2"], dealers={later[3].pk: [s["ann"]]}, by=None)
    proposed, carried_from = day_dealers_proposed(s["day2"])
    assert carried_from is None
    assert proposed == {later[1].pk: [], later[2].pk: [], later[3].pk: [s["ann"].pk]}


def test_one_save_for_every_table_and_only_changes_are_logged(two_days: dict) -> None:
    s = two_days
    day_assign_dealers(day=s["day1"], dealers={s["t1"].pk: [s["ann"]]}, by=None)
    before = AuditEntry.objects.filter(verb="table.dealers").count()
    changed = day_assign_dealers(
        day=s["day1"], dealers={s["t1"].pk: [s["ann"]], s["t2"].pk: [s["ben"]]}, by=None
    )
    assert [t.pk for t in changed] == [s["t2"].pk]
    assert AuditEntry.objects.filter(verb="table.dealers").count() == before + 1
    # A stranger anywhere: nothing of the day changes.
    outsider = User.objects.create_user("outsider")
    with pytest.raises(ServiceError) as err:
        day_assign_dealers(
            day=s["day1"], dealers={s["t1"].pk: [s["cal"]], s["t2"].pk: [outsider]}, by=None
        )
    assert err.value.code == "not_a_dealer"
    assert list(s["t1"].dealers.all()) == [s["ann"]] and list(s["t2"].dealers.all()) == [s["ben"]]
    # A table of another day is refused.
    with pytest.raises(ServiceError) as err:
        day_assign_dealers(day=s["day1"], dealers={s["later"][1].pk: [s["ann"]]}, by=None)
    assert err.value.code == "unknown_table"
    # A dealer of another event is not a dealer here.
    other = world(1, name="OTHER")
    theirs = dealer_of(other.event.pk, "theirs")
    with pytest.raises(ServiceError):
        day_assign_dealers(day=s["day1"], dealers={s["t1"].pk: [theirs]}, by=None)


def test_the_page_proposes_day_ones_dealers_and_saves_every_table(two_days: dict) -> None:
    s = two_days
    day_assign_dealers(
        day=s["day1"], dealers={s["t1"].pk: [s["ann"]], s["t2"].pk: [s["ben"]]}, by=None
    )
    client = Client()
    client.force_login(user_in("organiser"))
    url = f"/organiser/days/{s['day2'].pk}/seating/dealers/"
    page = client.get(url).content.decode()
    later = s["later"]
    assert "these are day 1" in page
    assert f'value="{later[1].pk}-{s["ann"].pk}" checked' in page
    assert f'value="{later[2].pk}-{s["ben"].pk}" checked' in page
    assert page.count(" checked") == 2
    response = client.post(
        url,
        {
            "form": "day",
            "assign": [
                f"{later[1].pk}-{s['ann'].pk}",
                f"{later[2].pk}-{s['ben'].pk}",
                f"{later[3].pk}-{s['cal'].pk}",
            ],
        },
    )
    assert response.status_code == 302
    assert [list(later[n].dealers.values_list("username", flat=True)) for n in (1, 2, 3)] == [
        ["ann"],
        ["ben"],
        ["cal"],
    ]
    page = client.get(url).content.decode()
    assert "these are day 1" not in page
    # A box that is no dealer of this event: 400, nothing saved.
    outsider = User.objects.create_user("outsider")
    bad = client.post(url, {"form": "day", "assign": [f"{later[1].pk}-{outsider.pk}"]})
    assert bad.status_code == 400
    assert list(later[1].dealers.values_list("username", flat=True)) == ["ann"]
