"""Production settings: `check --deploy` is clean, and a missing secret, a non-PostgreSQL
database or a broker other than Redis stop the start instead of running half-configured."""

from __future__ import annotations

import os
import secrets
import subprocess
from pathlib import Path

import pytest

from tests.processes import check_deploy, python_code

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
        ({"DJANGO_ALLOWED_HOSTS": ".example.org"}, "BRAG_PUBLIC_BASE_URL must be set"),
        ({"BRAG_PUBLIC_BASE_URL": "brag.example.org"}, "http:// or https://"),
        ({"BRAG_PUBLIC_BASE_URL": "https://brag.example.org/p/"}, "without a path"),
    ],
)
def test_a_half_configured_production_refuses_to_start(
    change: dict[str, str], message: str
) -> None:
    done = check(**change)
    assert done.returncode != 0 and message in done.stderr


PRINT_BASE_URL = "from django.conf import settings; print(settings.BRAG_PUBLIC_BASE_URL)"


def test_the_public_base_url_defaults_to_the_first_host_over_https() -> None:
    env = {k: v for k, v in os.environ.items() if k not in GOOD and k != "BRAG_PUBLIC_BASE_URL"}
    env.update(GOOD)
    done = python_code(
        "from django.conf import settings; print(settings.BRAG_PUBLIC_BASE_URL)", env
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "https://brag.example.org"
    env["BRAG_PUBLIC_BASE_URL"] = "http://10.0.0.5:8080/"
    done = python_code(
        "from django.conf import settings; print(settings.BRAG_PUBLIC_BASE_URL)", env
    )
    assert done.stdout.strip() == "http://10.0.0.5:8080"


BOOM = """
import django
django.setup()
from django.test import Client
from django.test.utils import override_settings
# No collectstatic here: the pages name the stylesheet without the manifest's hashed name.
plain = {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}
storages = {"default": {"BACKEND": "django.core.files.storage.FileSystemStorage"}}
with override_settings(
    ROOT_URLCONF="tests.core.error_urls", STORAGES={**storages, "staticfiles": plain}
):
    client = Client(raise_request_exception=False)
    answer = client.get("/test-errors/boom/", secure=True, HTTP_HOST="brag.example.org")
print(answer.status_code)
"""


def test_a_500_reaches_stderr_with_its_traceback() -> None:
    """Production's logging, as configured by its settings in a process of its own: a page that
    fails answers our 500 page and writes the failure, with its traceback, to stderr (the
    journal, docker logs) — not only to mail_admins, which has nobody to mail."""
    env = {k: v for k, v in os.environ.items() if k not in GOOD}
    env.update(GOOD)
    done = python_code(BOOM, env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "500"
    log = done.stderr
    assert "ERROR django.request: Internal Server Error: /test-errors/boom/" in log
    assert "Traceback (most recent call last):" in log
    assert 'raise RuntimeError("the error page test\'s own failure")' in log
    assert "RuntimeError: the error page test's own failure" in log


PRINT_HSTS = (
    "from django.conf import settings as s; "
    "print(s.SECURE_HSTS_SECONDS, s.SECURE_HSTS_INCLUDE_SUBDOMAINS, s.SECURE_HSTS_PRELOAD)"
)


@pytest.mark.parametrize(
    ("chosen", "said"),
    [
        ({}, "31536000 False False"),
        ({"BRAG_HSTS_INCLUDE_SUBDOMAINS": "true"}, "31536000 True False"),
        (
            {"BRAG_HSTS_INCLUDE_SUBDOMAINS": "true", "BRAG_HSTS_PRELOAD": "true"},
            "31536000 True True",
        ),
    ],
)
def test_hsts_covers_this_host_unless_the_deploy_chooses_more(
    chosen: dict[str, str], said: str
) -> None:
    """includeSubDomains and preload are the domain owner's choice: off unless asked for."""
    names = ("BRAG_HSTS_SECONDS", "BRAG_HSTS_INCLUDE_SUBDOMAINS", "BRAG_HSTS_PRELOAD")
    env = {k: v for k, v in os.environ.items() if k not in GOOD and k not in names}
    env.update(GOOD)
    env.update(chosen)
    done = python_code(PRINT_HSTS, env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == said
