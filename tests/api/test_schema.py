"""The OpenAPI schema: generated without warnings, valid, complete, every answer typed and every
error in the one shape; published as docs/openapi.yaml (current); its docs served locally."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from django.conf import settings
from django.contrib.staticfiles import finders
from django.core.management import call_command
from django.test import Client
from django.urls import URLPattern

from brag_event.api.urls import v1

METHODS = ("get", "post", "put", "patch", "delete")


def documented_route(pattern: URLPattern) -> str:
    """``events/<int:event_id>/`` → ``/api/v1/events/{event_id}/``."""
    return "/api/v1/" + re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", str(pattern.pattern))


def view_methods(pattern: URLPattern) -> set[str]:
    view_class: Any = getattr(pattern.callback, "view_class", None)
    assert view_class is not None, f"{pattern.pattern} is not a class-based view"
    return {m for m in METHODS if hasattr(view_class, m)}


@pytest.fixture(scope="module")
def schema_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out: Path = tmp_path_factory.mktemp("openapi") / "schema.yml"
    # Raises (SchemaGenerationError / SchemaValidationError) on any warning or invalid schema;
    # the command make schema runs.
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(out))
    return out


@pytest.fixture(scope="module")
def schema(schema_file: Path) -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load(schema_file.read_text(encoding="utf-8"))
    return loaded


def test_the_schema_generates_without_warnings_and_validates(schema: dict[str, Any]) -> None:
    assert schema["openapi"].startswith("3.")
    assert schema["info"]["title"] == "Brag Event API"
    assert "deviceToken" in schema["components"]["securitySchemes"]


@pytest.mark.parametrize("pattern", v1, ids=lambda p: str(p.pattern))
def test_every_v1_route_and_method_is_in_the_schema(
    schema: dict[str, Any], pattern: URLPattern
) -> None:
    path = documented_route(pattern)
    assert path in schema["paths"], f"{path} is missing from the schema"
    documented = {m for m in schema["paths"][path] if m in METHODS}
    assert documented == view_methods(pattern)


def test_the_schema_has_no_paths_beyond_the_routes(schema: dict[str, Any]) -> None:
    assert set(schema["paths"]) == {documented_route(p) for p in v1}


def test_the_published_schema_is_the_generated_one(schema_file: Path) -> None:
    published = Path(settings.BASE_DIR) / "docs" / "openapi.yaml"
    assert published.read_text(encoding="utf-8") == schema_file.read_text(encoding="utf-8"), (
        "docs/openapi.yaml is out of date: run make schema"
    )


def test_every_answer_is_described_and_every_error_has_the_one_shape(
    schema: dict[str, Any],
) -> None:
    error = {"$ref": "#/components/schemas/ErrorOut"}
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            for status, answer in operation["responses"].items():
                where = f"{method.upper()} {path} {status}"
                if status == "304":
                    assert "content" not in answer, where
                    continue
                body = answer["content"]["application/json"]["schema"]
                assert body.get("$ref", "").startswith("#/components/schemas/"), where
                if int(status) >= 400:
                    assert body == error, where
                else:
                    assert body != error, where
            assert {"400", "401", "403", "404", "500", "503"} <= set(operation["responses"])


def test_the_live_schema_is_the_generated_one(schema: dict[str, Any]) -> None:
    response = Client().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi")
    assert response.status_code == 200
    assert set(yaml.safe_load(response.content)["paths"]) == set(schema["paths"])


def test_the_docs_are_served_with_local_assets_not_a_cdn() -> None:
    response = Client().get("/api/docs/")
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="swagger-ui"' in html
    assert "<style" not in html  # the Content-Security-Policy allows no inline style
    assets = re.findall(r'<(?:script|link)\b[^>]*?\b(?:src|href)="([^"]+)"', html)
    # Its own script is served apart (the policy allows no inline script), naming the schema.
    [own] = [a for a in assets if a.startswith("/api/docs/")]
    script = Client().get(own.replace("&amp;", "&"))
    assert script.status_code == 200 and script["Content-Type"].startswith("application/javascript")
    assert 'url: "/api/schema/"' in script.content.decode()
    assets.remove(own)
    assert any(a.endswith("swagger-ui-bundle.js") for a in assets)
    assert any(a.endswith("swagger-ui.css") for a in assets)
    for asset in assets:
        assert asset.startswith("/static/"), asset  # drf-spectacular-sidecar's, and our CSS
        assert finders.find(asset.removeprefix("/static/")), f"{asset} is not a static file"
    assert "cdn" not in html.lower()
    assert not re.search(r"""(?:src|href)=["']?(?:https?:)?//""", html)
