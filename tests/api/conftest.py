from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth.models import Group, User
from django.core.cache import cache
from rest_framework.test import APIClient

from brag_event.api.models import DeviceToken, token_hash
from tests.factories import World, world


@dataclass
class Api:
    world: World
    users: dict[str, User]
    clients: dict[str, APIClient]

    def client(self, role: str) -> APIClient:
        return self.clients[role]


def token_client(user: User, name: str) -> APIClient:
    key = DeviceToken.new_key()
    DeviceToken.objects.create(user=user, name=name, key_hash=token_hash(key), prefix=key[:6])
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


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


@pytest.fixture
def api(db: Any) -> Api:
    w = world(3)
    users: dict[str, User] = {}
    for role in ("organiser", "supervisor", "dealer", "other_dealer", "player"):
        user = User.objects.create_user(role, password=f"{role}-pw")
        group = {"other_dealer": "dealer"}.get(role, role)
        if group != "player":
            user.groups.add(Group.objects.get_or_create(name=group)[0])
        users[role] = user
    w.table.dealers.add(users["dealer"])
    w.players[0].user = users["player"]
    w.players[0].save()
    clients = {role: token_client(user, f"{role} tablet") for role, user in users.items()}
    clients["anonymous"] = APIClient()
    return Api(w, users, clients)


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
    """No login throttle carried between tests (the throttle counts in the cache)."""
    cache.clear()
    yield
    cache.clear()


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
