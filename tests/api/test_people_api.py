"""Registering through the API asks what the console asks: a returning person (by name, until
chosen or said to be someone new) and a look-alike name (until confirmed as another person)."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from brag_event.audit.models import AuditEntry, Verb
from brag_event.events.services import event_create_flash
from brag_event.players.models import Player
from brag_event.players.services import player_register
from tests.factories import assert_audit_ok, user_in, world

from .conftest import assert_error, post

pytestmark = pytest.mark.django_db


def test_the_api_asks_about_returning_people_and_look_alikes() -> None:
    old = world(1, name="Old")
    priya = player_register(event=old.event, name="Priya Shah", by=None)
    event = event_create_flash(name="New", starting_money=500, by=None)
    player_register(event=event, name="Harvey Price", by=None)
    client = APIClient()
    client.force_authenticate(user_in("organiser"))
    url = f"/api/v1/events/{event.pk}/players/"

    asked = assert_error(post(client, url, {"name": "PRIYA SHAH"}, key="a1"), 400, "person_matches")
    assert f"Priya Shah (no. {priya.person.number})" in asked["message"]
    assert asked["details"]["people"] == [priya.person_id]
    same = post(client, url, {"name": "Priya Shah", "person": priya.person_id}, key="a2")
    assert same.status_code == 201, same.json()
    assert same.json()["person"] == {
        "id": priya.person_id,
        "number": priya.person.number,
        "club": "",
    }

    alike = post(client, url, {"name": "H\u0430rvey Price"}, key="a3")
    said = assert_error(alike, 400, "player_exists")
    assert "looks the same as Harvey Price, already registered" in said["message"]
    confirmed = post(
        client, url, {"name": "H\u0430rvey Price", "look_alike_confirmed": True}, key="a4"
    )
    assert confirmed.status_code == 201 and confirmed.json()["look_alike_confirmed"]
    assert AuditEntry.objects.filter(verb=Verb.PLAYER_LOOK_ALIKE).count() == 1
    assert Player.objects.filter(event=event).count() == 3
    assert_audit_ok(event)

    page = client.get(f"/api/v1/people/{priya.person_id}/").json()
    assert sorted(e["event_name"] for e in page["events"]) == ["New", "Old"]
