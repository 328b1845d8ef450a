"""Hostile requests to every operation of the API schema: bodies nested far too deep and bodies
too large, logged in or not, get 400 or 413 in the error shape (never a 500, never a
``RecursionError``); every path under ``/api/`` that names nothing answers 404 in the error
shape, whatever the method; a wrong method 405; ``?day=`` takes the digits 0–9 only."""

from __future__ import annotations

import json
from typing import Any, cast

import pytest
from django.conf import settings
from django.core.cache import cache
from django.test import Client
from django.urls import resolve
from rest_framework.test import APIClient

from brag_event.api.parsers import json_depth

from .conftest import Api, assert_error
from .test_schemathesis import schema

pytestmark = pytest.mark.django_db


@pytest.fixture
def api(shared_api: Api) -> Api:
    """The module's world, built once and rolled back after each test (tests/api/conftest.py)."""
    return shared_api


DEEP = b"[" * 30_000 + b"]" * 30_000  # json.loads: RecursionError (a 500 before this change)
DEEP_OBJECT = b'{"a":' * 3000 + b"1" + b"}" * 3000


def post_operations() -> list[Any]:
    ops = [cast(Any, op).ok() for op in schema.get_all_operations()]
    return [op for op in ops if op.method.upper() == "POST"]


OPERATIONS = post_operations()


def body_limit(path: str) -> int:
    """The largest body the operation's view takes: its parser's limit (the API's 64 KB, or a
    results file's own)."""
    view = resolve(path).func.cls  # type: ignore[attr-defined]
    return max(parser().limit() for parser in view.parser_classes)


def real_path(op: Any, api: Api) -> str:
    w = api.world
    ids = {
        "event_id": w.event.pk,
        "day_id": w.day.pk,
        "table_id": w.table.pk,
        "seat_id": w.seat(1).pk,
        "token_id": 1,
        "hand_id": 1,
        "call_id": 1,
        "penalty_id": 1,
        "player_id": 1,
    }
    return str(op.path).format(**ids)


def callers(api: Api) -> dict[str, Any]:
    anonymous = APIClient(enforce_csrf_checks=True)
    token = anonymous.get("/api/v1/auth/csrf/").cookies["csrftoken"].value
    anonymous.credentials(HTTP_X_CSRFTOKEN=token)
    return {"organiser": api.client("organiser"), "anonymous": anonymous}


@pytest.fixture(autouse=True)
def _fresh_cache() -> Any:
    cache.clear()  # the login throttle
    yield
    cache.clear()


def test_every_post_operation_of_the_schema_is_here() -> None:
    assert len(OPERATIONS) >= 12, [op.label for op in OPERATIONS]


@pytest.mark.parametrize("op", OPERATIONS, ids=lambda op: op.label)
def test_deep_and_large_bodies_get_400_or_413_in_the_error_shape(op: Any, api: Api) -> None:
    path = real_path(op, api)
    has_body = op.body is not None and len(list(op.body)) > 0
    large = json.dumps({"reason": "x" * (body_limit(path) + 10)}).encode()
    nested = json.dumps({"consenting": [[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]}).encode()
    for role, client in callers(api).items():
        for body, code in (
            (DEEP, "json_too_deep"),
            (DEEP_OBJECT, "json_too_deep"),
            (nested, "json_too_deep"),
            (large, "request_too_large"),
        ):
            for key in (None, f"hostile-{role}-{len(body)}"):
                headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
                response = client.generic(
                    "POST", path, body, content_type="application/json", **headers
                )
                what = f"{op.label} as {role}, {len(body)} bytes, key {key}"
                assert response.status_code < 500, (what, response.content[:300])
                if response.status_code >= 400:
                    assert_error(response, response.status_code, response.json()["error"]["code"])
                if role == "organiser" and has_body:
                    status = 413 if code == "request_too_large" else 400
                    assert_error(response, status, code)


def test_the_depth_is_measured_without_recursion() -> None:
    deep: Any = 1
    for _ in range(50_000):
        deep = [deep]
    assert json_depth(deep) == 50_000
    assert json_depth({"a": [1, {"b": []}]}) == 4
    assert json_depth(7) == 0


def test_a_body_at_the_limits_is_still_accepted(api: Api) -> None:
    """The limits refuse only the hostile: a void reason of nearly the whole size goes through
    validation (refused for its length by the serializer, not by the parser)."""
    body = json.dumps({"reason": "x" * (settings.BRAG_JSON_MAX_BYTES - 100)}).encode()
    client: Any = api.client("organiser")
    response = client.generic(
        "POST", "/api/v1/hands/999999/void/", body, content_type="application/json"
    )
    assert_error(response, 400, "invalid_input")


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/nope/",
        "/api/v1/hands/abc/",
        "/api/v1/events/1/standings",
        "/api/nothing",
        "/api/v2/events/",
        "/api/v1/hands/1/actions/extra/",
    ],
)
@pytest.mark.parametrize("method", ["GET", "POST", "PUT", "PATCH", "DELETE"])
def test_every_path_under_api_that_names_nothing_is_a_404_in_the_error_shape(
    api: Api, path: str, method: str, settings: Any
) -> None:
    settings.DEBUG = True  # as under `make run`: still the API's shape, not Django's page
    clients: list[Any] = [api.client("dealer"), APIClient()]
    for client in clients:
        response = client.generic(method, path, b"{}", content_type="application/json")
        error = assert_error(response, 404, "not_found")
        assert "slash" in error["message"]


def test_a_wrong_method_is_a_405_in_the_error_shape(api: Api) -> None:
    response = api.client("organiser").delete(f"/api/v1/events/{api.world.event.pk}/")
    assert_error(response, 405, "method_not_allowed")
    response = api.client("organiser").put("/api/v1/auth/csrf/", {}, format="json")
    assert_error(response, 405, "method_not_allowed")


@pytest.mark.parametrize("day", ["²", "١", "1.0", "0x1", "1e3", "-1", "abc", "9" * 30, " "])
def test_the_standings_day_is_digits_only(api: Api, day: str) -> None:
    response = APIClient().get(f"/api/v1/events/{api.world.event.pk}/standings/", {"day": day})
    error = assert_error(response, 400, "invalid_day")
    assert error["details"]["field"] == "day"


@pytest.mark.parametrize(
    ("field", "value"),
    [("amount", "²"), ("amount", "١٢"), ("amount", 7.5), ("amount", "1_000"), ("amount", True)],
)
def test_api_whole_numbers_are_digits_only(api: Api, field: str, value: Any) -> None:
    body = {"seat": 4, "player": api.world.players[0].pk, field: value}
    response = api.client("organiser").post(
        f"/api/v1/tables/{api.world.table.pk}/seats/", body, format="json"
    )
    error = assert_error(response, 400, "invalid_input")
    assert field in error["details"]["fields"]


@pytest.mark.parametrize(
    "query", ["day=%00", "x=a%00b", "attempt_time__year=999999999999999999999"]
)
def test_a_query_no_page_can_use_is_refused_in_the_error_shape(api: Api, query: str) -> None:
    path = f"/api/v1/events/{api.world.event.pk}/standings/?{query}"
    assert_error(APIClient().get(path), 400, "invalid_query")
    assert Client().get(f"/admin/?{query}").status_code == 400
