"""Redis stopped and started again under the production settings (issue 29): private
PostgreSQL, Redis (the cache and Celery's broker), gunicorn and a Celery worker with beat, all
on the loopback (``tests/production/services.py``).

While Redis is down: the console's and the tablet's sign-in work (their throttles count nothing
and let the attempt through, with a warning in the log; lockouts are in the database), a write
and the standings answer, ``/readyz`` stays ready and names what is missing, and a day close
asked now answers as always — the day leaves play, and the close's page says in words that it
waits for the job queue. Once Redis is back, nobody presses anything: Celery beat's sweep sends
the close again and it finishes, once."""

from __future__ import annotations

import json
import os
import re
import secrets
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from html import unescape
from pathlib import Path
from typing import Any

import pytest

from bench.api import Server
from brag_event.organiser.closing_report import WAITING_WORDS
from tests.production.client import Browser
from tests.production.services import (
    HOST,
    ROOT,
    CeleryWorker,
    PrivatePostgres,
    PrivateRedis,
    missing,
    stop_everything,
    tail,
)

SWEEP_SECONDS = 2  # Celery beat's sweep of the closes' outbox, here (30 s in production)


def wait_until(what: str, check: Callable[[], Any], timeout: float, every: float = 0.2) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(every)
    pytest.fail(f"timed out after {timeout:g} s waiting for {what}")


class SecureBrowser(Browser):
    """A browser behind the TLS-terminating proxy: the forwarded scheme and the page's origin
    on every request, as nginx and a browser send them."""

    def request(self, method: str, path: str, **kwargs: Any) -> tuple[int, dict[str, str], bytes]:
        headers = {
            "X-Forwarded-Proto": "https",
            "Origin": f"https://{self.host}:{self.port}",
            **(kwargs.pop("headers", None) or {}),
        }
        return super().request(method, path, headers=headers, **kwargs)


@dataclass
class Site:
    root: Path
    pg: PrivatePostgres
    redis: PrivateRedis
    server: Server
    worker: CeleryWorker
    seeded: dict[str, Any]

    def browser(self) -> SecureBrowser:
        return SecureBrowser(HOST, self.server.port)

    def one(self, sql: str, *params: Any) -> Any:
        with self.pg.connect() as conn:
            return conn.execute(sql, params).fetchone()

    def logs(self) -> str:
        return "\n".join(tail(p) for p in (self.server.log, self.worker.log, self.redis.log))


@pytest.fixture(scope="module")
def site() -> Iterator[Site]:
    why = missing()
    if why:
        if os.environ.get("CI"):
            pytest.fail(why + " (CI must run the Redis outage)")
        pytest.skip(why)
    root = Path(tempfile.mkdtemp(prefix="brag-redis-outage-"))
    root.chmod(0o755)  # the postgres user (as root in CI) must reach its data directory
    pg, redis = PrivatePostgres(root), PrivateRedis(root)
    server: Server | None = None
    worker: CeleryWorker | None = None
    try:
        pg.init()
        pg.start()
        redis.start()
        base = redis.url.rsplit("/", 1)[0]
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "brag_event.settings_production",
            "DATABASE_URL": pg.url,
            "CELERY_BROKER_URL": base + "/0",
            "BRAG_CACHE_URL": base + "/1",
            "DJANGO_ALLOWED_HOSTS": HOST,
            "DJANGO_SECRET_KEY": secrets.token_urlsafe(40),
            "BRAG_SSL_REDIRECT": "false",
            "BRAG_STATIC_ROOT": str(root / "static"),
            "BRAG_CLOSE_REQUEUE_SECONDS": str(SWEEP_SECONDS),
            "PYTHONUNBUFFERED": "1",
        }
        for name in ("CELERY_RESULT_BACKEND", "BRAG_DB_HEALTH_CHECKS", "BRAG_DB_PREPARED"):
            env.pop(name, None)
        for step in (
            [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
            [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
        ):
            done = subprocess.run(
                step, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300, check=False
            )
            assert done.returncode == 0, done.stdout + done.stderr
        seeded_out = subprocess.run(
            [sys.executable, "-m", "tests.production.seed", "--tables", "1", "--players", "3"],
            cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=False,
        )  # fmt: skip
        assert seeded_out.returncode == 0, seeded_out.stdout + seeded_out.stderr
        seeded = json.loads(seeded_out.stdout.strip().splitlines()[-1])
        server = Server(
            env,
            workers=2,
            worker_class="sync",
            threads=1,
            preload=False,
            ready=("/healthz", (200,)),
        )
        server.start()
        worker = CeleryWorker(env, root / "celery.log", beat=root / "beat-schedule")
        worker.start()
        yield Site(root, pg, redis, server, worker, seeded)
    finally:
        stop_everything(worker=worker, server=server, redis=redis, pg=pg, root=root)


def console_sign_in(site: Site) -> SecureBrowser:
    """The console's login page, as an organiser types it."""
    browser = site.browser()
    organiser = site.seeded["organiser"]
    status, _, _ = browser.request("GET", "/organiser/login/")
    assert status == 200, status
    status, _, body = browser.request(
        "POST",
        "/organiser/login/",
        form={
            "username": organiser["username"],
            "password": organiser["password"],
            "csrfmiddlewaretoken": browser.cookies["csrftoken"],
        },
    )
    assert status == 302, (status, body[:800])
    assert "sessionid" in browser.cookies
    return browser


def tablet_sign_in(site: Site) -> SecureBrowser:
    """The tablet's sign-in (the API's session login)."""
    browser = site.browser()
    organiser = site.seeded["organiser"]
    status, _ = browser.json("GET", "/api/v1/auth/csrf/")
    assert status == 200
    status, data = browser.json(
        "POST",
        "/api/v1/auth/login/",
        {"username": organiser["username"], "password": organiser["password"]},
    )
    assert status == 200 and data["role"] == "organiser", (status, data)
    return browser


def test_redis_stopped_and_started_again_costs_nothing_but_speed(site: Site) -> None:
    day, event = site.seeded["day"], site.seeded["event"]
    site.redis.stop()
    assert not site.redis.ping()

    # Sign-in, both ways; a write (a tablet's token issued); the standings; readiness.
    console = console_sign_in(site)
    tablet = tablet_sign_in(site)
    status, issued = tablet.json(
        "POST", "/api/v1/tokens/", {"user": site.seeded["dealers"][0], "name": "Table 1"}
    )
    assert status == 201 and issued["key"], (status, issued)
    status, _, _ = site.browser().request("GET", f"/standings/{event}/")
    assert status == 200
    status, ready = site.browser().json("GET", "/readyz")
    assert status == 200 and ready["status"] == "degraded", ready
    assert set(ready["degraded"]) == {"cache", "broker"}, ready

    # The day close: asked, committed, out of play; its page says it waits for the queue.
    status, _, body = console.request(
        "POST", f"/organiser/days/{day}/close/", form={"confirm": "yes"}
    )
    assert status == 302, (status, body[:800], site.logs())
    assert site.one("SELECT status FROM events_day WHERE id = %s", day) == ("closing",)
    close = site.one("SELECT status, runs, queue_error FROM events_dayclose WHERE day_id = %s", day)
    assert close[0] == "queued" and close[1] == 0 and close[2], close
    status, _, page = console.request("GET", f"/organiser/days/{day}/close/")
    assert status == 200
    assert WAITING_WORDS in unescape(page.decode()), page[:2000]
    assert not re.search(r"Error \d+|redis|kombu", page.decode(), re.IGNORECASE)

    # Redis is back. Nobody presses anything, nobody looks at the page: beat's sweep sends the
    # close and the worker runs it.
    site.redis.start()

    def done() -> Any:
        row = site.one("SELECT status, runs FROM events_dayclose WHERE day_id = %s", day)
        return row if row[0] == "done" else None

    final = wait_until("the close to finish once Redis is back", done, 120)
    assert final == ("done", 1), final
    assert site.one("SELECT status FROM events_day WHERE id = %s", day) == ("closed",)
    assert site.one(
        "SELECT queue_error, dispatched_at IS NOT NULL FROM events_dayclose WHERE day_id = %s", day
    ) == ("", True)
    status, ready = site.browser().json("GET", "/readyz")
    assert status == 200 and ready["status"] == "ready", ready
    # The throttles said so in the log while the cache was away.
    assert "cache unavailable" in site.server.log.read_text(errors="replace")
