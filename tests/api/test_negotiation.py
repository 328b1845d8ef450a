"""Every answer is JSON: DRF's own negotiation answers JSON to a request that accepts it, and
406 in the error shape to one that does not."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import Api

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "accept", ["", "*/*", "application/json", "application/json, */*", "application/*"]
)
def test_a_request_that_accepts_json_gets_json(api: Api, accept: str) -> None:
    headers: dict[str, Any] = {"HTTP_ACCEPT": accept} if accept else {}
    response = api.client("dealer").get(f"/api/v1/tables/{api.world.table.pk}/", **headers)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"


@pytest.mark.parametrize("accept", ["text/html", "application/xml", "image/png"])
def test_a_request_that_refuses_json_gets_406_in_the_error_shape(api: Api, accept: str) -> None:
    response = api.client("dealer").get(f"/api/v1/tables/{api.world.table.pk}/", HTTP_ACCEPT=accept)
    assert response.status_code == 406
    assert response.json()["error"]["code"] == "not_acceptable"


def test_a_format_override_is_negotiated_as_before(api: Api) -> None:
    url = f"/api/v1/tables/{api.world.table.pk}/"
    assert api.client("dealer").get(url + "?format=json").status_code == 200
    assert api.client("dealer").get(url + "?format=xml").status_code == 404
