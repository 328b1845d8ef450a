"""A real Celery worker for the tests that need one (the day close, the integrity monitor after
it), with Redis as the broker and the test's PostgreSQL database underneath; and the services
those tests and others need (Redis up, the database's URL for another process)."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import connection
from kombu import pools

from brag_event.celery import app
from brag_event.events.models import DayClose

ROOT = Path(__file__).resolve().parents[1]


def worker_redis(url: str, worker: str) -> str:
    """The Redis database of this pytest process: ``url``'s own for a run on one process; under
    pytest-xdist, worker ``gwN`` takes the N-th database after it (wrapping after Redis' 16), so
    that two workers never flush the other's cache nor take the other's Celery tasks."""
    if not worker.startswith("gw"):
        return url
    base, _, db = url.rpartition("/")
    return f"{base}/{(int(db or 0) + int(worker[2:])) % 16}"


REDIS = worker_redis(
    os.environ.get("BRAG_TEST_REDIS", "redis://127.0.0.1:6379/13"),
    os.environ.get("PYTEST_XDIST_WORKER", ""),
)


def redis_up() -> bool:
    host, port = REDIS.split("//", 1)[1].split("/", 1)[0].split(":")
    try:
        with socket.create_connection((host, int(port)), timeout=1) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def require(ok: bool, why: str) -> None:
    """Skip the test unless ``ok`` (fail it under CI, which must run it)."""
    if not ok:
        if os.environ.get("CI"):
            pytest.fail(why + " (CI must run it)")
        pytest.skip(why)


def database_url() -> str:
    """The test database's URL, for another process (a worker, gunicorn)."""
    s = connection.settings_dict
    auth = s["USER"] + (f":{s['PASSWORD']}" if s["PASSWORD"] else "")
    return f"postgres://{auth}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"


def reset_connections() -> None:
    """Forget pooled broker connections (kombu keeps them in a registry of its own)."""
    pools.reset()
    app._pool = None
    app.amqp._producer_pool = None


@contextlib.contextmanager
def celery_worker(queue: str, *also: str) -> Iterator[subprocess.Popen[bytes]]:
    """A ``celery worker`` process (solo pool) taking tasks from ``queue`` (and the queues
    ``also``), this process sending its tasks there through Redis until the block ends."""
    require(connection.vendor == "postgresql", "a worker process needs a shared database")
    require(redis_up(), f"no Redis at {REDIS}")
    env = {
        **os.environ,
        "DATABASE_URL": database_url(),
        "CELERY_BROKER_URL": REDIS,
        "DJANGO_DEBUG": "false",
    }
    command = [sys.executable, "-m", "celery", "-A", "brag_event.celery", "worker", "-P", "solo"]
    command += ["-Q", ",".join((queue, *also)), "--without-heartbeat", "--without-mingle"]
    proc = subprocess.Popen(
        [*command, "--without-gossip", "-l", "warning"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    saved = {k: app.conf.get(k) for k in ("task_always_eager", "broker_url", "task_default_queue")}
    app.conf.update(task_always_eager=False, broker_url=REDIS, task_default_queue=queue)
    reset_connections()  # connections made earlier in this process went to the old broker
    try:
        yield proc
    finally:
        app.conf.update(saved)
        reset_connections()
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:  # pragma: no cover - a stuck worker
            proc.kill()


def wait_for(close: DayClose, proc: Any, seconds: float = 60) -> DayClose:
    """The close once it is done or failed, as the worker left it."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        close.refresh_from_db()
        if close.status in (DayClose.Status.DONE, DayClose.Status.FAILED):
            return close
        if proc.poll() is not None:
            pytest.fail("the worker died:\n" + proc.stdout.read().decode(errors="replace"))
        time.sleep(0.2)
    pytest.fail(f"the close did not finish: {close.status} {close.step}")
