"""The pages of who deals where: the Dealers page says what the rota decides and warns of a rota
dealer who could not open their table; the floor's "Who deals where" lists the dealer signed in
at each table (only dealers with a table), for supervisors and organisers."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from brag_event.core.actors import Actor
from brag_event.tables.rota import rota_draw
from brag_event.tables.services import table_create
from brag_event.tables.shifts import shift_sign_in
from tests.factories import signed_in, user_in, world

pytestmark = pytest.mark.django_db


def text(response: object) -> str:
    import re

    html = response.content.decode()  # type: ignore[attr-defined]
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_the_dealers_page_shows_the_rota_and_warns_of_a_dealer_who_cannot_open_a_table() -> None:
    w = world(3)
    table_create(day=w.day, by=None)
    ann, sam, maria = (user_in("dealer", n) for n in ("ann", "sam", "maria"))
    ann.first_name, ann.last_name = "Ann", "Lee"
    ann.save()
    organiser = signed_in("organiser")
    page = text(organiser.get(f"/organiser/days/{w.day.pk}/seating/dealers/"))
    assert "No rota for day 1: only the dealers ticked below open their tables." in page
    rota_draw(
        day=w.day,
        starts_at=timezone.now() - timedelta(minutes=5),
        minutes=30,
        changes=4,
        dealers=[ann, sam, maria],
        by=None,
    )
    sam.is_active = False
    sam.save()
    response = organiser.get(f"/organiser/days/{w.day.pk}/seating/dealers/")
    assert response.status_code == 200
    page = text(response)
    assert "table 1, Ann Lee ; table 2, sam ; on a break: maria." in page
    assert "opens their table on the tablet at their turn" in page
    assert (
        "sam is on the rota but is no longer a dealer of this event (or their account is "
        "switched off): they cannot open table 2 at " in page
    )
    assert 'id="rota-problems"' in response.content.decode()


def test_who_deals_where_lists_the_tables_and_their_dealers_for_the_floor_only() -> None:
    w = world(3)
    second = table_create(day=w.day, by=None)
    ann, sam, maria = (user_in("dealer", n) for n in ("ann", "sam", "maria"))
    rota_draw(
        day=w.day,
        starts_at=timezone.now() - timedelta(minutes=5),
        minutes=30,
        changes=4,
        dealers=[ann, sam, maria],
        by=None,
    )
    shift_sign_in(table=w.table, by=Actor(user=ann))
    # A dealer signed in with no table, and any number of other sessions: not listed.
    Client().force_login(maria)
    url = f"/organiser/events/{w.event.pk}/floor/dealing/"
    response = signed_in("supervisor", "boss").get(url)
    assert response.status_code == 200
    page = text(response)
    assert "Table 1 ann since" in page
    assert f"Table {second.number} Nobody sam not yet here" in page
    assert "On a break by the rota: maria." in page
    assert page.count(" since ") == 1
    assert signed_in("dealer", "dee").get(url).status_code == 403
    assert signed_in("organiser").get(url).status_code == 200
