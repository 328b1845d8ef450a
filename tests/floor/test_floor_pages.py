"""The floor's pages: the dashboard shows an open call, a supervisor takes it, declares a
misdeal and records a ruling with a warning; the player's page shows it; the standings show
a disqualified player outside the ranking. Other roles are refused."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from brag_event.floor.models import FloorCall, Misdeal, Penalty
from brag_event.floor.services import floor_call_open, ruling_record
from brag_event.hands.models import Hand
from brag_event.players.links import player_path
from tests.factories import act, assert_audit_ok, signed_in, start, world

pytestmark = pytest.mark.django_db


def login(role: str) -> Client:
    return signed_in(role, password="pw")


def test_call_take_misdeal_and_ruling_through_the_pages(settings: Any) -> None:
    w = world(3)
    hand = start(w)
    act(hand, seat=2, action="look")
    act(hand, seat=2, action="bet", amount=10)
    call = floor_call_open(table=w.table, hand=hand, note="card exposed", by=None)
    organiser = login("organiser")
    page = organiser.get(f"/organiser/events/{w.event.pk}/live/")
    assert b"Floor called: 1 open call" in page.content and b"card exposed" in page.content
    supervisor = login("supervisor")
    url = f"/organiser/floor/calls/{call.pk}/"
    assert b"Take this call" in supervisor.get(url).content
    assert supervisor.post(url, {"form": "take"}).status_code == 302
    assert FloorCall.objects.get().status == "taken"
    assert supervisor.post(url, {"form": "misdeal", "reason": "card exposed"}).status_code == 302
    assert Misdeal.objects.filter(hand=hand).exists()
    assert Hand.objects.get(pk=hand.pk).status == "settled"
    answer = supervisor.post(
        url,
        {
            "form": "ruling",
            "what_happened": "the dealer exposed a card",
            "decision": "misdeal; a warning for talking",
            "players": [str(w.players[1].pk)],
            "penalty": "warning",
        },
    )
    assert answer.status_code == 302, answer.content[:500]
    assert FloorCall.objects.get().status == "resolved"
    assert Penalty.objects.get().player_id == w.players[1].pk
    board = supervisor.get(f"/organiser/events/{w.event.pk}/floor/")
    assert b"the dealer exposed a card" in board.content
    assert_audit_ok(w.event)


def test_the_floor_pages_refuse_dealers_and_players() -> None:
    w = world(2)
    call = floor_call_open(table=w.table, by=None)
    dealer = login("dealer")
    assert dealer.get(f"/organiser/floor/calls/{call.pk}/").status_code == 403
    assert dealer.post(f"/organiser/floor/calls/{call.pk}/", {"form": "take"}).status_code == 403
    assert FloorCall.objects.get().status == "open"


def test_a_warning_on_the_players_page_and_a_disqualified_player_in_the_standings() -> None:
    w = world(3)
    ruling_record(
        table=w.table,
        what_happened="showed his cards",
        decision="a warning",
        players=[w.players[0].pk],
        penalty="warning",
        by=None,
    )
    ruling_record(
        table=w.table,
        what_happened="abuse",
        decision="out",
        players=[w.players[1].pk],
        penalty="disqualified",
        by=None,
    )
    client = Client()
    page = client.get(player_path(w.players[0]))
    assert b"Warnings and penalties" in page.content and b"showed his cards" in page.content
    standings = client.get(f"/standings/{w.event.pk}/")
    assert b"disqualified" in standings.content
