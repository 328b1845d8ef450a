"""Production settings: `check --deploy` is clean, and a missing secret, a non-PostgreSQL
database or a broker other than Redis stop the start instead of running half-configured."""

from __future__ import annotations

import os
import secrets
import subprocess
from pathlib import Path

import pytest

from tests.processes import check_deploy

ROOT = Path(__file__).resolve().parents[2]
GOOD = {
    "DJANGO_SETTINGS_MODULE": "brag_event.settings_production",
    "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
    "DJANGO_ALLOWED_HOSTS": "brag.example.org",
    "DATABASE_URL": "postgres://brag:secret@127.0.0.1:5432/brag",
    "CELERY_BROKER_URL": "redis://127.0.0.1:6379/0",
    "BRAG_CACHE_URL": "redis://127.0.0.1:6379/1",
}


def check(**changes: str) -> subprocess.CompletedProcess[str]:
    # Not the browser tests' DJANGO_ALLOW_ASYNC_UNSAFE: production never sets it.
    env = {
        k: v for k, v in os.environ.items() if k not in GOOD and k != "DJANGO_ALLOW_ASYNC_UNSAFE"
    }
    env.update(GOOD)
    for key, value in changes.items():
        if value:
            env[key] = value
        else:
            env.pop(key, None)
    return check_deploy(env)


@pytest.mark.slow  # a Django start in a process of its own
def test_check_deploy_is_clean() -> None:
    done = check()
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no issues" in done.stdout


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"CELERY_BROKER_URL": ""}, "CELERY_BROKER_URL must be set"),
        ({"CELERY_BROKER_URL": "amqp://guest@localhost//"}, "Redis"),
        ({"BRAG_CACHE_URL": ""}, "BRAG_CACHE_URL must be set"),
        ({"BRAG_CACHE_URL": "locmem://"}, "cache in Redis"),
        ({"BRAG_CACHE_URL": "redis://127.0.0.1:6379/0"}, "of its own"),
        ({"DJANGO_SECRET_KEY": ""}, "DJANGO_SECRET_KEY must be set"),
        ({"DATABASE_URL": "sqlite:///tmp/x.db"}, "PostgreSQL"),
    ],
)
def test_a_half_configured_production_refuses_to_start(
    change: dict[str, str], message: str
) -> None:
    done = check(**change)
    assert done.returncode != 0 and message in done.stderr
