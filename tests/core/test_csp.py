"""The Content-Security-Policy header: enforced (not report-only) on the answer of every route of
the URL configuration — read from it, so a new page cannot be left out — and on the error pages,
the admin's and the API's docs; strict everywhere (no inline script or style, nothing from
another origin, no framing), the tablet's pages widened only for the offline engine's worker;
and the same under the production settings. That browsers obey it on every page is the browser
tests' part (tests/conftest.py, ``csp_violations``)."""

from __future__ import annotations

import json
import os
import re
import secrets
from typing import Any

import pytest
from django.contrib import admin
from django.contrib.auth.models import User
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from django.urls.resolvers import RoutePattern

from brag_event.api.models import DeviceToken, token_hash
from brag_event.floor.services import floor_call_open
from brag_event.players.imports import players_import_preview
from brag_event.players.links import player_link_reissue, player_token
from brag_event.series.services import series_create
from brag_event.tablet.offline import engine_zip
from tests.factories import disqualify, start, user_in, world
from tests.processes import python_code

HEADER = "Content-Security-Policy"
STRICT = {
    "default-src": {"'self'"},
    "script-src": {"'self'"},
    "style-src": {"'self'"},
    "img-src": {"'self'"},
    "font-src": {"'self'"},
    "connect-src": {"'self'"},
    "worker-src": {"'self'"},
    "manifest-src": {"'self'"},
    "object-src": {"'none'"},
    "base-uri": {"'self'"},
    "form-action": {"'self'"},
    "frame-ancestors": {"'none'"},
}
# The tablet's pages: the offline engine (Pyodide, WebAssembly) in a worker started from blob:.
TABLET = {
    **STRICT,
    "script-src": {"'self'", "blob:", "'wasm-unsafe-eval'"},
    "worker-src": {"'self'", "blob:"},
}
# The API's docs: Swagger UI draws its icons as data: images.
API_DOCS = {**STRICT, "img-src": {"'self'", "data:"}}


def policy(response: Any) -> dict[str, set[str]]:
    assert HEADER in response, f"no {HEADER} header"
    assert "Content-Security-Policy-Report-Only" not in response
    out: dict[str, set[str]] = {}
    for part in response[HEADER].split(";"):
        name, *sources = part.split()
        assert name not in out, f"{name} twice"
        out[name] = set(sources)
    return out


def routes() -> list[tuple[str, str]]:
    """Every route of the URL configuration outside the admin: (its path pattern, its name)."""
    found: list[tuple[str, str]] = []

    def walk(patterns: Any, prefix: str, namespace: str) -> None:
        for p in patterns:
            if isinstance(p, URLResolver):
                if p.app_name == "admin":
                    continue  # the admin's own pages: test_the_admin_sends_it
                walk(p.url_patterns, prefix + str(p.pattern), p.namespace or namespace)
            elif isinstance(p, URLPattern):
                assert isinstance(p.pattern, RoutePattern) or str(p.pattern) == "", p
                name = f"{namespace}:{p.name}" if namespace else str(p.name)
                found.append((prefix + str(p.pattern), name))

    walk(get_resolver().url_patterns, "", "")
    return found


@pytest.fixture
def values() -> dict[str, Any]:
    """A value for every keyword any route takes."""
    w = world(3)
    hand = start(w)
    call = floor_call_open(table=w.table, hand=hand, note="dispute", by=None)
    penalty = disqualify(w.table, w.players[2]).penalties.get()
    organiser = user_in("organiser")
    key = DeviceToken.new_key()
    token = DeviceToken.objects.create(
        user=organiser, name="Table 1 tablet", key_hash=token_hash(key), prefix=key[:6]
    )
    return {
        "event_id": w.event.pk,
        "day_id": w.day.pk,
        "table_id": w.table.pk,
        "seat_id": w.seats[0].pk,
        "hand_id": hand.pk,
        "player_id": w.players[0].pk,
        "token_id": token.pk,
        "call_id": call.pk,
        "penalty_id": penalty.pk,
        "batch_id": players_import_preview(event=w.event, data=b"name\nZed\n", by=None).pk,
        "person_id": w.players[0].person_id,
        "series_id": series_create(name="League", points=[3, 2, 1], by=None).pk,
        "token": player_token(w.players[0]),
        "version": engine_zip()[1],
    }


def filled(pattern: str, values: dict[str, Any]) -> str:
    def one(match: re.Match[str]) -> str:
        name = match.group(2)
        assert name in values, f"no value for <{match.group(0)}> in {pattern}: add one"
        return str(values[name])

    return "/" + re.sub(r"<(?:(\w+):)?(\w+)>", one, pattern)


@pytest.mark.django_db
def test_every_route_answers_with_the_policy(values: dict[str, Any]) -> None:
    organiser = Client()
    organiser.force_login(User.objects.get(username="organiser"))
    anonymous = Client()
    seen = 0
    for pattern, name in routes():
        url = filled(pattern, values)
        expected = (
            TABLET if name.startswith("tablet:") else API_DOCS if name == "api-docs" else STRICT
        )
        for who, client in (("organiser", organiser), ("anonymous", anonymous)):
            response = client.get(url)
            assert policy(response) == expected, (name, url, who, response.status_code)
            seen += 1
    assert seen == 2 * len(routes()) and len(routes()) > 60


@pytest.mark.django_db
def test_the_admin_sends_it() -> None:
    """The admin's index, sign-in, app pages, and every model's list, add and change pages."""
    superuser = User.objects.create_superuser("root", password="x")
    w = world(1)
    client = Client()
    assert policy(client.get("/admin/login/")) == STRICT
    client.force_login(superuser)
    urls = ["/admin/", "/admin/players/", "/admin/password_change/"]
    for model in admin.site._registry:
        base = f"/admin/{model._meta.app_label}/{model._meta.model_name}/"
        first = model._default_manager.order_by("pk").values_list("pk", flat=True).first()
        urls += [base, base + "add/"] + ([f"{base}{first}/change/"] if first else [])
    for url in urls:
        response = client.get(url)
        assert response.status_code in (200, 302, 403), (url, response.status_code)
        assert policy(response) == STRICT, url
    assert f"/admin/players/player/{w.players[0].pk}/change/" in urls


@pytest.mark.django_db
@pytest.mark.urls("tests.core.error_urls")
def test_the_error_pages_send_it(settings: Any) -> None:
    settings.DEBUG = False
    w = world(1)
    old = player_token(w.players[0])
    player_link_reissue(player=w.players[0], by=None)
    client = Client(raise_request_exception=False)
    for url, status in (
        ("/no/such/page/", 404),
        ("/test-errors/forbidden/", 403),
        ("/test-errors/bad/", 400),
        ("/test-errors/boom/", 500),
        (f"/standings/{w.event.pk}/?day=x", 400),
        (f"/p/{old}/", 410),
        ("/organiser/", 302),
    ):
        response = client.get(url)
        assert response.status_code == status, url
        assert policy(response) == STRICT, url


def test_the_policy_allows_nothing_inline_and_is_enforced(settings: Any) -> None:
    directives = settings.CONTENT_SECURITY_POLICY["DIRECTIVES"]
    assert {k: set(v) for k, v in directives.items()} == STRICT
    assert not getattr(settings, "CONTENT_SECURITY_POLICY_REPORT_ONLY", None)
    said = json.dumps(directives)
    assert "unsafe-inline" not in said and "unsafe-eval" not in said and "*" not in said


@pytest.mark.slow  # a Django start in a process of its own
def test_the_production_settings_send_the_same_policy() -> None:
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    env.update(
        DJANGO_SETTINGS_MODULE="brag_event.settings_production",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(50),
        DJANGO_ALLOWED_HOSTS="brag.example.org",
        DATABASE_URL="postgres://brag:secret@127.0.0.1:5432/brag",
        CELERY_BROKER_URL="redis://127.0.0.1:6379/0",
        BRAG_CACHE_URL="redis://127.0.0.1:6379/1",
    )
    code = (
        "import django, json; django.setup()\n"
        "from django.conf import settings\n"
        "from csp.utils import build_policy\n"
        "print(json.dumps({'middleware': settings.MIDDLEWARE, 'header': build_policy(),"
        " 'report_only': build_policy(report_only=True)}))\n"
    )
    done = python_code(code, env, timeout=60)
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert "brag_event.core.csp.ContentSecurityPolicyMiddleware" in found["middleware"]
    assert found["report_only"] == ""
    header = {p.split()[0]: set(p.split()[1:]) for p in found["header"].split(";")}
    assert header == STRICT
