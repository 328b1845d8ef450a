"""gunicorn's arbiter warms the app up before it forks (``brag_event.core.warmup``, called from
``deploy/gunicorn.conf.py``): after ``warm_up()`` the site's pages and API reads import no
module and compile no template on their first request, and nothing was connected to.

It runs in a fresh interpreter — in this one, the other tests have imported everything."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = r"""
import json, os, sys
import django
django.setup()
from django.core.management import call_command
call_command("migrate", verbosity=0)
from brag_event.events.services import event_create_flash
event = event_create_flash(name="FLASH", by=None)
from django.db import connections
connections.close_all()

from brag_event.wsgi import application  # as gunicorn preloads it
from django.test import Client
from django.template import engines
from brag_event.core.warmup import warm_up

compiled = warm_up()
connected = [a for a in connections if connections[a].connection is not None]
loader = engines["django"].engine.template_loaders[0]
templates = len(loader.get_template_cache)
before = set(sys.modules)
client = Client(SERVER_NAME="localhost")
statuses = {}
for path in (
    f"/api/v1/events/{event.pk}/standings/",
    f"/standings/{event.pk}/",
    f"/standings/{event.pk}/?big=1",
    "/tablet/",
    "/tablet/login/",
    "/organiser/login/",
    f"/api/v1/tables/1/",
    "/api/v1/me/",
    "/healthz",
):
    statuses[path] = client.get(path).status_code
ours = ("brag_event", "django", "rest_framework")
new = sorted(m for m in set(sys.modules) - before if m.split(".")[0] in ours)
print(json.dumps({
    "compiled": compiled,
    "connected": connected,
    "statuses": statuses,
    "imported": new,
    "templates_compiled_by_requests": len(loader.get_template_cache) - templates,
}))
"""


@pytest.mark.slow
def test_after_the_warm_up_a_first_request_imports_and_compiles_nothing(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "brag_event.settings",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'warm.sqlite3'}",
        "DJANGO_ALLOWED_HOSTS": "localhost",
    }
    env.pop("BRAG_CACHE_URL", None)
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert found["compiled"] > 50, found  # the project's templates and the admin's
    assert found["connected"] == [], "the warm-up opened a connection the workers would share"
    assert all(status < 500 for status in found["statuses"].values()), found["statuses"]
    assert found["statuses"][f"/api/v1/events/{1}/standings/"] == 200, found["statuses"]
    assert found["imported"] == [], "imported on a first request after the warm-up"
    assert found["templates_compiled_by_requests"] == 0
