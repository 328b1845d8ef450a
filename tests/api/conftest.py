from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth.models import Group, User
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
