"""The API login's throttle counts in the shared cache, not per process: gunicorn with three
workers, the cache on Redis (as production configures it), and wrong logins sent at once from
six clients — exactly the allowance gets through, whichever worker answers. Before, each worker
counted in its own memory, so three workers let three times the allowance through.

PostgreSQL and Redis (``BRAG_TEST_REDIS``) are needed; without them the test is skipped locally
and fails under CI."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from django.db import connection

from tests.processes import gunicorn, python_code, stop
from tests.worker import REDIS, database_url, redis_up, require

ROOT = Path(__file__).resolve().parents[2]
RATE = 6

# slow: gunicorn, and Django started in processes of their own
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def call(
    url: str, body: dict[str, Any] | None = None, headers: dict[str, str] | None = None
) -> Any:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, headers=headers or {})
    if data is not None:
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as err:
        return err.code, err.headers, err.read()


def test_three_gunicorn_workers_share_one_login_allowance(tmp_path: Path) -> None:
    require(connection.vendor == "postgresql", "needs PostgreSQL (DATABASE_URL)")
    require(redis_up(), f"no Redis at {REDIS}")
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("BRAG_", "DJANGO_"))}
    env.update(
        DJANGO_SETTINGS_MODULE="brag_event.settings",
        DATABASE_URL=database_url(),
        BRAG_CACHE_URL=REDIS,
        BRAG_LOGIN_RATE=f"{RATE}/min",
        # The count is exact only while Redis answers: on a loaded machine a one-second timeout
        # can expire, and the throttle then fails open (by design) and lets one more through.
        BRAG_CACHE_TIMEOUT="10",
        DJANGO_DEBUG="false",
    )
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    # A clean slate in the cache's Redis database for this run's keys.
    subprocess.run(
        [
            sys.executable,
            "-c",
            "import redis,sys; redis.Redis.from_url(sys.argv[1]).flushdb()",
            REDIS,
        ],
        check=True,
        timeout=30,
    )
    log = tmp_path / "gunicorn.log"
    with log.open("wb") as out:
        proc = gunicorn(
            ["--workers", "3", "--bind", f"127.0.0.1:{port}", "brag_event.wsgi:application"],
            env,
            out,
        )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                status, headers, _ = call(f"{base}/api/v1/auth/csrf/")
                if status == 200:
                    break
            except OSError:
                pass
            assert time.monotonic() < deadline and proc.poll() is None, log.read_text()
            time.sleep(0.3)
        token = next(
            c.split("=", 1)[1].split(";", 1)[0]
            for c in headers.get_all("Set-Cookie")
            if c.startswith("csrftoken=")
        )
        auth = {"Cookie": f"csrftoken={token}", "X-CSRFToken": token}

        def attempt(i: int) -> int:
            # A different user name each time: django-axes (per user name) never locks, so
            # every 429 here is the shared throttle's.
            body = {"username": f"nobody{i}", "password": "wrong"}
            status, _, content = call(f"{base}/api/v1/auth/login/", body, auth)
            code = json.loads(content)["error"]["code"]
            assert (status, code) in {(401, "bad_credentials"), (429, "throttled")}, content
            return int(status)

        with ThreadPoolExecutor(max_workers=6) as pool:
            answers = Counter(pool.map(attempt, range(5 * RATE)))
    finally:
        stop(proc)
    assert answers == {401: RATE, 429: 4 * RATE}, answers


@pytest.mark.parametrize(
    ("cache_url", "expected"),
    [("redis://cache.internal:6379/1", "redis://cache.internal:6379/1")],
)
def test_production_caches_in_redis(cache_url: str, expected: str) -> None:
    from tests.core.test_production_settings import GOOD

    env = {k: v for k, v in os.environ.items() if not k.startswith(("BRAG_", "DJANGO_"))}
    env.update(GOOD, BRAG_CACHE_URL=cache_url)
    code = (
        "from django.conf import settings as s; c = s.CACHES['default']; "
        "print(c['BACKEND'], c['LOCATION'])"
    )
    done = python_code(f"import django; django.setup(); {code}", env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["brag_event.core.cache.RedisCache", expected]


def test_production_refuses_a_cache_that_is_not_redis() -> None:
    from tests.core.test_production_settings import GOOD

    env = {k: v for k, v in os.environ.items() if not k.startswith(("BRAG_", "DJANGO_"))}
    env.update(GOOD, BRAG_CACHE_URL="memcached://127.0.0.1:11211")
    done = python_code("import django; django.setup()", env)
    assert done.returncode != 0 and "BRAG_CACHE_URL" in done.stderr
