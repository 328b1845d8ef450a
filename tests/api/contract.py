"""Checking a real answer against the published OpenAPI schema, with schemathesis' own
response checks (status code documented, content type, body against the response schema)."""

from __future__ import annotations

import re
from functools import cache
from typing import Any
from urllib.parse import urlsplit

import requests
import schemathesis
import yaml
from django.core.management import call_command
from schemathesis.core.transport import Response


@cache
def api_schema() -> Any:
    """The schema as ``make schema`` writes it (generated, not read from docs/openapi.yaml,
    whose freshness ``test_schema`` checks)."""
    from io import StringIO

    out = StringIO()
    call_command("spectacular", "--format", "openapi", stdout=out)
    return schemathesis.openapi.from_dict(yaml.safe_load(out.getvalue()))


@cache
def _templates() -> list[tuple[re.Pattern[str], str]]:
    paths: list[str] = [op.path for op in _operations()]
    return [
        (re.compile("^" + re.sub(r"\\\{\w+\\\}", r"[^/]+", re.escape(p)) + "$"), p)
        for p in sorted(set(paths))
    ]


def _operations() -> list[Any]:
    return [result.ok() for result in api_schema().get_all_operations()]


def template_of(path: str) -> str:
    for pattern, template in _templates():
        if pattern.match(path):
            return template
    raise AssertionError(f"{path} is no documented path")


def conforms(response: Any, method: str | None = None, path: str | None = None) -> Any:
    """Fail unless ``response`` (Django's test client's) is what the schema documents for its
    request; returns it. ``method`` and ``path`` default to the request's own."""
    request = response.wsgi_request
    method = (method or request.method).upper()
    path = path or request.path
    template = template_of(urlsplit(path).path)
    operation = api_schema()[template][method]
    prepared = requests.Request(method, "http://testserver" + path).prepare()
    headers: dict[str, list[str]] = {k: [v] for k, v in response.headers.items()}
    operation.validate_response(
        Response(
            status_code=response.status_code,
            headers=headers,
            content=response.content,
            request=prepared,
            elapsed=0.0,
            verify=True,
        )
    )
    return response
