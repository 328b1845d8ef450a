"""/healthz answers without touching anything; /readyz checks the database, its migrations and
the broker."""

from __future__ import annotations

from typing import Any

import pytest
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
def test_readyz_is_503_when_the_broker_is_away(client: Client, settings: Any) -> None:
    settings.CELERY_TASK_ALWAYS_EAGER = False
    saved = app.conf.broker_url
    app.conf.broker_url = "redis://127.0.0.1:1/0"  # nothing listens on port 1
    try:
        response = client.get("/readyz")
    finally:
        app.conf.broker_url = saved
    assert response.status_code == 503
    assert response.json()["checks"]["broker"]["ok"] is False
