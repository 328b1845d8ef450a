from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth.models import Group, User
from django.core.cache import cache, caches
from rest_framework.test import APIClient

from brag_event.access.models import StaffRole
from brag_event.access.roles import STAFF_GROUPS
from brag_event.api.models import DeviceToken, token_hash
from brag_event.events.models import Day, Event
from brag_event.events.services import event_create_flash
from brag_event.players.models import Player
from brag_event.tables.models import Seat, Table
from tests.factories import World, world
from tests.once import built_once


@dataclass
class Api:
    world: World
    users: dict[str, User]
    clients: dict[str, APIClient]

    def client(self, role: str) -> APIClient:
        return self.clients[role]


def token_key(user: User, name: str) -> str:
    """A new device token of ``user``'s; its key (the database keeps only its hash)."""
    key = DeviceToken.new_key()
    DeviceToken.objects.create(user=user, name=name, key_hash=token_hash(key), prefix=key[:6])
    return key


def key_client(key: str | None) -> APIClient:
    """A client that sends ``key`` as its token (none: anonymous)."""
    client = APIClient()
    if key is not None:
        client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def token_client(user: User, name: str) -> APIClient:
    return key_client(token_key(user, name))


def post(client: Any, url: str, body: Any = None, key: str | None = None) -> Any:
    """A JSON POST, with an ``Idempotency-Key`` if ``key`` is given."""
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    return client.post(url, body, format="json", **headers)


def start_hand(api: Api, key: str | None = None) -> dict[str, Any]:
    """The dealer starts the next hand at the world's table."""
    response = post(api.client("dealer"), f"/api/v1/tables/{api.world.table.pk}/hands/", key=key)
    assert response.status_code == 201, response.json()
    hand: dict[str, Any] = response.json()
    return hand


STAFF = ("organiser", "supervisor", "dealer", "other_dealer", "player")
# Staff of one event (``access.StaffRole``): "here_*" of the world's event, "away_*" of another
# event. Both dealers are on the world's table's list: only the event's role counts.
SCOPED = tuple(f"{where}_{role}" for where in ("here", "away") for role in STAFF_GROUPS)


def build_api() -> tuple[Api, dict[str, str | None]]:
    """Three players seated at a table of an open day, a user of every role (the ``player`` is
    Andy, seat 1; the ``dealer`` deals the table, the ``other_dealer`` none) and a token client
    each; with the clients' keys."""
    w = world(3)
    users: dict[str, User] = {}
    for role in STAFF:
        user = User.objects.create_user(role, password=f"{role}-pw")
        group = {"other_dealer": "dealer"}.get(role, role)
        if group != "player":
            user.groups.add(Group.objects.get_or_create(name=group)[0])
        users[role] = user
    w.table.dealers.add(users["dealer"])
    other = event_create_flash(name="Elsewhere Open", by=None)
    for name in SCOPED:
        where, role = name.split("_", 1)
        users[name] = User.objects.create_user(name, password=f"{name}-pw")
        StaffRole.objects.create(
            user=users[name], event=w.event if where == "here" else other, role=role
        )
    w.table.dealers.add(users["here_dealer"], users["away_dealer"])
    w.players[0].user = users["player"]
    w.players[0].save()
    keys: dict[str, str | None] = {
        role: token_key(user, f"{role} tablet") for role, user in users.items()
    }
    keys["anonymous"] = None
    return Api(w, users, {role: key_client(key) for role, key in keys.items()}), keys


@pytest.fixture
def api(db: Any) -> Api:
    return build_api()[0]


@dataclass(frozen=True)
class Built:
    """What ``build_api`` made, by id: a test reads it again from its own transaction."""

    event: int
    day: int
    table: int
    players: list[int]
    seats: list[int]
    users: dict[str, int]
    keys: dict[str, str | None]


@pytest.fixture(scope="module")
def built_api(django_db_setup: None, django_db_blocker: Any) -> Iterator[Built]:
    """``build_api()`` once for a module (``tests.once.built_once``): the permission matrix's
    ~200 cells each built their own, about 80 ms and 200 statements apiece."""

    def build() -> Built:
        api, keys = build_api()
        w = api.world
        return Built(
            event=w.event.pk,
            day=w.day.pk,
            table=w.table.pk,
            players=[p.pk for p in w.players],
            seats=[s.pk for s in w.seats],
            users={role: user.pk for role, user in api.users.items()},
            keys=keys,
        )

    yield from built_once(django_db_blocker, build)


@pytest.fixture
def shared_api(built_api: Built, db: Any) -> Api:
    """The module's ``built_api``, read afresh for this test (no object carries over)."""
    b = built_api
    players = Player.objects.in_bulk(b.players)
    seats = Seat.objects.in_bulk(b.seats)
    users = User.objects.in_bulk(list(b.users.values()))
    w = World(
        event=Event.objects.get(pk=b.event),
        day=Day.objects.get(pk=b.day),
        table=Table.objects.get(pk=b.table),
        players=[players[pk] for pk in b.players],
        seats=[seats[pk] for pk in b.seats],
    )
    return Api(
        w,
        {role: users[pk] for role, pk in b.users.items()},
        {role: key_client(key) for role, key in b.keys.items()},
    )


# The actions of a hand that was seen: seats 1 and 2 must show their cards.
SEEN_HAND = (
    {"seat": 2, "action": "look"},
    {"seat": 2, "action": "bet", "amount": 10},
    {"seat": 3, "action": "fold"},
    {"seat": 1, "action": "look"},
    {"seat": 1, "action": "bet", "amount": 10},
    {"seat": 2, "action": "see", "amount": 20},
)


@pytest.fixture
def unthrottled() -> Any:
    """No throttle's counts carried between tests (the throttles count in the caches)."""
    cache.clear()
    caches["throttle"].clear()
    yield
    cache.clear()
    caches["throttle"].clear()


def assert_error(response: Any, status: int, code: str) -> dict[str, Any]:
    """The API's one error shape, with ``status`` and ``code``; the error object returned."""
    assert response.status_code == status, (response.status_code, response.content[:300])
    assert response["Content-Type"].startswith("application/json"), response["Content-Type"]
    body = response.json()
    assert set(body) == {"error"}, body
    error: dict[str, Any] = body["error"]
    assert set(error) == {"code", "message", "details"}, body
    assert error["code"] == code, body
    assert isinstance(error["message"], str) and error["message"]
    assert isinstance(error["details"], dict)
    return error
