"""/healthz answers without touching anything; /readyz checks the database and its migrations,
and reports the cache and the broker (Redis) without failing on them."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache.backends.base import BaseCache
from django.test import Client

from brag_event.celery import app


def test_healthz_needs_nothing(client: Client) -> None:
    response = client.get("/healthz")  # no database access allowed in this test
    assert response.status_code == 200 and response.json() == {"status": "ok"}


@pytest.mark.django_db
def test_readyz_checks_the_database_and_the_broker(client: Client) -> None:
    response = client.get("/readyz")
    assert response.status_code == 200, response.json()
    assert response.json()["checks"]["database"] == {"ok": True}


@pytest.mark.django_db
def test_readyz_reports_a_broker_away_and_stays_ready(client: Client, settings: Any) -> None:
    """Without the broker the day goes on (closes wait in their outbox): the server stays in
    rotation, and says what is missing."""
    settings.CELERY_TASK_ALWAYS_EAGER = False
    saved = app.conf.broker_url
    app.conf.broker_url = "redis://127.0.0.1:1/0"  # nothing listens on port 1
    try:
        response = client.get("/readyz")
    finally:
        app.conf.broker_url = saved
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "degraded" and body["degraded"] == ["broker"], body
    assert body["checks"]["broker"]["ok"] is False


@pytest.mark.django_db
def test_readyz_reports_a_cache_away_and_stays_ready(client: Client, settings: Any) -> None:
    settings.CACHES = {
        "default": {
            "BACKEND": "brag_event.core.cache.RedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",  # nothing listens on port 1
            "OPTIONS": {"socket_connect_timeout": 1},
        }
    }
    response = client.get("/readyz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "degraded" and "cache" in body["degraded"], body
    assert body["checks"]["cache"] == {"ok": False, "backend": "redis", "error": "ConnectionError"}


class DictCache(BaseCache):
    """A cache backend of its own, on Django's base class only (as a third-party one would be)."""

    def __init__(self, location: str, params: dict[str, Any]) -> None:
        super().__init__(params)
        self.kept: dict[str, Any] = {}

    def set(self, key: str, value: Any, timeout: Any = None, version: Any = None) -> None:
        self.kept[key] = value

    def get(self, key: str, default: Any = None, version: Any = None) -> Any:
        return self.kept.get(key, default)


@pytest.mark.django_db
def test_readyz_names_a_cache_that_is_not_djangos_other(client: Client, settings: Any) -> None:
    """Not "base": the name is that of the Django backend it extends, and there is none."""
    settings.CACHES = {"default": {"BACKEND": "tests.core.test_health.DictCache"}}
    response = client.get("/readyz")
    assert response.status_code == 200
    assert response.json()["checks"]["cache"] == {"ok": True, "backend": "other"}
