"""One truth for who deals where: the day's rota lets the dealer on their turn open their table
(the table's list, its address, the API) without being ticked on the Dealers page, and nobody
else; a dealer signed in stays until relieved or signed out and is told when relieved; the
Dealers page warns of a rota dealer who could not open their table."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from rest_framework.test import APIClient

from brag_event.api.roles import TableAccess, tables_for
from brag_event.core.actors import Actor
from brag_event.tables.models import Table
from brag_event.tables.rota import rota_draw, rota_now, rota_problems, rota_reach
from brag_event.tables.services import table_create
from brag_event.tables.shifts import my_shift_view, shift_sign_in
from brag_event.tables.versions import table_version
from tests.factories import World, user_in, world

pytestmark = pytest.mark.django_db


def client_of(user: User) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def reached(user: User) -> set[int]:
    """The tables the user reaches, checked in both forms (queryset and the hot path's SQL)."""
    rows = set(tables_for(user).values_list("pk", flat=True))
    access = TableAccess(user)
    by_sql = {t.pk for t in Table.objects.all() if table_version(t.pk, access) is not None}
    assert rows == by_sql
    return rows


def rota_of_two_tables(w: World, *, started_minutes_ago: int) -> tuple[Table, list[User]]:
    """A second table and a rota of ann, sam and maria (nobody ticked), every 30 minutes:
    turn 1 puts ann at table 1, sam at table 2, maria on a break."""
    second = table_create(day=w.day, by=None)
    dealers = [user_in("dealer", n) for n in ("ann", "sam", "maria")]
    rota_draw(
        day=w.day,
        starts_at=timezone.now() - timedelta(minutes=started_minutes_ago),
        minutes=30,
        changes=6,
        dealers=dealers,
        by=None,
    )
    return second, dealers


def test_the_rota_dealer_reaches_their_table_at_their_turn_and_nobody_else_does() -> None:
    w = world(3)
    second, (ann, sam, maria) = rota_of_two_tables(w, started_minutes_ago=5)
    assert Table.objects.filter(dealers__isnull=False).count() == 0  # nobody ticked
    assert reached(ann) == {w.table.pk} and reached(sam) == {second.pk}
    assert reached(maria) == set()  # on a break: no table
    stranger = user_in("dealer", "zoe")  # a dealer of the event, not on the rota
    assert reached(stranger) == set()
    # The API as the tablet asks it: the day's tables, the table, signing in to deal.
    answer = client_of(ann).get(f"/api/v1/days/{w.day.pk}/tables/").json()
    assert [t["number"] for t in answer["tables"]] == [1]
    assert client_of(ann).get(f"/api/v1/tables/{w.table.pk}/").status_code == 200
    assert client_of(ann).get(f"/api/v1/tables/{second.pk}/").status_code == 404
    assert client_of(maria).get(f"/api/v1/tables/{w.table.pk}/").status_code == 404
    signed = client_of(ann).post(f"/api/v1/tables/{w.table.pk}/shift/", {}, format="json")
    assert signed.status_code == 200 and signed.json()["dealer_username"] == "ann"


def test_the_next_dealer_may_open_the_table_ten_minutes_before_the_change() -> None:
    w = world(3)
    second, (ann, sam, maria) = rota_of_two_tables(w, started_minutes_ago=25)
    # Turn 2 (in 5 minutes) puts maria at table 1 and ann at table 2: both reach both turns'.
    assert reached(maria) == {w.table.pk}
    assert reached(ann) == {w.table.pk, second.pk}
    assert reached(sam) == {second.pk}  # his break comes next: nothing new


def test_a_dealer_signed_in_keeps_the_table_until_relieved_and_is_told() -> None:
    w = world(3)
    second, (ann, sam, maria) = rota_of_two_tables(w, started_minutes_ago=5)
    shift_sign_in(table=w.table, by=Actor(user=ann))
    # Opening another table's page (she reaches it through a tick) moves nobody.
    second.dealers.add(ann)
    answer = client_of(ann).post(f"/api/v1/tables/{second.pk}/shift/", {}, format="json")
    assert answer.status_code == 409
    assert answer.json()["error"]["code"] == "dealing_elsewhere"
    assert my_shift_view(ann, w.table.pk)["dealing_here"] is True
    second.dealers.clear()
    # The rota moves on: ann's turn at table 1 is over, her open shift keeps it hers.
    # (The rota drawn again, 30 minutes earlier: its second turn now.)
    rota_draw(
        day=w.day,
        starts_at=timezone.now() - timedelta(minutes=35),
        minutes=30,
        changes=6,
        dealers=[ann, sam, maria],
        by=None,
    )
    assert rota_reach(maria.pk, None) == {w.table.pk}
    assert w.table.pk in reached(ann)
    # Maria relieves her: ann is told in words, and no longer reaches table 1.
    maria.first_name, maria.last_name = "Maria", "Lopez"
    maria.save()
    shift_sign_in(table=w.table, by=Actor(user=maria))
    mine = client_of(ann).get(f"/api/v1/tables/{w.table.pk}/my-shift/").json()
    assert mine["dealing_here"] is False and mine["table"] is None
    at = timezone.localtime(timezone.now()).strftime("%H")
    assert mine["relieved"]["message"].startswith("Maria Lopez took over this table at " + at)
    assert mine["relieved"]["message"].endswith(": you no longer deal here.")
    assert reached(ann) == {second.pk}  # the rota's table for her now, not table 1
    assert my_shift_view(maria, w.table.pk)["relieved"] is None


def test_the_rota_page_warnings_name_the_dealer_their_table_and_when() -> None:
    w = world(3)
    _second, (ann, sam, maria) = rota_of_two_tables(w, started_minutes_ago=5)
    assert rota_problems(w.day, signs_in=set()) == []
    now = rota_now(w.day)
    assert now is not None and now.tables == {1: ann, 2: sam} and now.breaks == [maria]
    sam.is_active = False
    sam.save()
    maria.set_unusable_password()
    maria.save()
    third = table_create(day=w.day, by=None)
    problems = rota_problems(w.day, signs_in=set())
    assert len(problems) == 3
    assert problems[0].startswith("sam is on the rota but is no longer a dealer of this event")
    assert "they cannot open table 2 at " in problems[0]
    assert problems[1].startswith("maria has neither a password nor a tablet token")
    assert problems[2].startswith(f"Table {third.number} is not on the rota")
    # A tablet token is a way to sign in.
    assert len(rota_problems(w.day, signs_in={maria.pk})) == 2
