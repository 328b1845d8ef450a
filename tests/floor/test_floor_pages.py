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
from tests.factories import act, assert_audit_ok, disqualify, signed_in, start, user_in, world

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
    disqualify(w.table, w.players[1])
    client = Client()
    page = client.get(player_path(w.players[0]))
    assert b"Warnings and penalties" in page.content and b"showed his cards" in page.content
    standings = client.get(f"/standings/{w.event.pk}/")
    assert b"disqualified" in standings.content


# ---------------------------------------------------------------------------- who may do what
#
# Every floor page and form against every role, as a table (like tests/api/test_permissions.py):
# anonymous visitors go to the login page, players and dealers are refused (403) and change
# nothing; supervisors and organisers rule; only an organiser lifts a disqualification.

ROLES = ("anonymous", "player", "dealer", "supervisor", "organiser")
LOGIN, NO, OK, BACK = "login", 403, 200, 302

PAGE_ROWS: list[tuple[str, str, tuple[Any, ...]]] = [
    # (what, request, expected per role in ROLES order)
    ("the floor's page", "GET board", (LOGIN, NO, NO, OK, OK)),
    ("a call", "GET call", (LOGIN, NO, NO, OK, OK)),
    ("take a call", "POST take", (LOGIN, NO, NO, BACK, BACK)),
    ("record a ruling", "POST ruling", (LOGIN, NO, NO, BACK, BACK)),
    ("declare a misdeal", "POST misdeal", (LOGIN, NO, NO, BACK, BACK)),
    ("lift a disqualification", "POST lift", (LOGIN, NO, NO, BACK, BACK)),
]


def client_for(role: str, w: Any) -> Client:
    client = Client()
    if role == "anonymous":
        return client
    # A player's user is in no staff group: the link to their player row is what they are.
    user = user_in("nobody" if role == "player" else role, f"{role}-user", password="pw")
    if role == "player":
        w.players[0].user = user
        w.players[0].save(update_fields=["user"])
    client.force_login(user)
    return client


def floor_state() -> tuple[Any, ...]:
    return (
        list(FloorCall.objects.values_list("pk", "status")),
        list(Penalty.objects.values_list("pk", "kind", "lifted_at")),
        Misdeal.objects.count(),
        list(Hand.objects.values_list("pk", "status", "next_seq")),
    )


@pytest.mark.parametrize(("what", "request_", "expected"), PAGE_ROWS, ids=[r[0] for r in PAGE_ROWS])
@pytest.mark.parametrize("role", ROLES)
def test_who_may_use_the_floor_pages(
    role: str, what: str, request_: str, expected: tuple[Any, ...]
) -> None:
    w = world(3)
    hand = start(w)
    call = floor_call_open(table=w.table, hand=hand, note="card exposed", by=None)
    out = disqualify(w.table, w.players[2])
    dq = out.penalties.get()
    urls = {
        "board": f"/organiser/events/{w.event.pk}/floor/",
        "call": f"/organiser/floor/calls/{call.pk}/",
        "take": f"/organiser/floor/calls/{call.pk}/",
        "ruling": f"/organiser/floor/calls/{call.pk}/",
        "misdeal": f"/organiser/floor/calls/{call.pk}/",
        "lift": f"/organiser/floor/penalties/{dq.pk}/lift/",
    }
    bodies = {
        "take": {"form": "take"},
        "ruling": {
            "form": "ruling",
            "what_happened": "talked about the hand",
            "decision": "a warning",
            "players": [str(w.players[1].pk)],
            "penalty": "warning",
        },
        "misdeal": {"form": "misdeal", "reason": "a card face up"},
        "lift": {"reason": "appeal upheld"},
    }
    method, name = request_.split()
    client = client_for(role, w)
    before = floor_state()
    url = urls[name]
    answer = client.get(url) if method == "GET" else client.post(url, bodies[name])
    want = expected[ROLES.index(role)]
    if want == LOGIN:
        assert answer.status_code == 302 and "/login" in answer["Location"]
    else:
        assert answer.status_code == want, (role, what, answer.status_code)
    if want in (LOGIN, NO):
        assert floor_state() == before  # a refusal changes nothing
    elif name == "lift":
        dq.refresh_from_db()
        assert (dq.lifted_at is not None) == (role == "organiser")  # a supervisor may not
    elif name == "take":
        assert FloorCall.objects.get(pk=call.pk).status == "taken"
    elif name == "ruling":
        assert Penalty.objects.filter(player=w.players[1], kind="warning").exists()
    elif name == "misdeal":
        assert Misdeal.objects.filter(hand=hand).exists()
    assert_audit_ok(w.event)
