"""The day close on a real Celery worker, with Redis as the broker and PostgreSQL underneath:
the request queues the task on commit, a worker process (``celery worker``) runs it, and asking
again changes nothing."""

from __future__ import annotations

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
from brag_event.closing.services import day_close_request
from brag_event.events.models import DayClose
from brag_event.players.models import Qualification
from tests.factories import act, assert_audit_ok, start, world

ROOT = Path(__file__).resolve().parents[2]
REDIS = os.environ.get("BRAG_TEST_REDIS", "redis://127.0.0.1:6379/15")

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


def redis_up() -> bool:
    host, port = REDIS.split("//", 1)[1].split("/", 1)[0].split(":")
    try:
        with socket.create_connection((host, int(port)), timeout=1) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def require(ok: bool, why: str) -> None:
    if not ok:
        if os.environ.get("CI"):
            pytest.fail(why + " (CI must run it)")
        pytest.skip(why)


def database_url() -> str:
    s = connection.settings_dict
    auth = s["USER"] + (f":{s['PASSWORD']}" if s["PASSWORD"] else "")
    return f"postgres://{auth}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"


def reset_connections() -> None:
    """Forget pooled broker connections (kombu keeps them in a registry of its own)."""
    pools.reset()
    app._pool = None
    app.amqp._producer_pool = None


@pytest.fixture
def worker() -> Iterator[subprocess.Popen[bytes]]:
    require(connection.vendor == "postgresql", "a worker process needs a shared database")
    require(redis_up(), f"no Redis at {REDIS}")
    env = {
        **os.environ,
        "DATABASE_URL": database_url(),
        "CELERY_BROKER_URL": REDIS,
        "DJANGO_DEBUG": "false",
    }
    queue = f"test-{os.getpid()}"
    command = [sys.executable, "-m", "celery", "-A", "brag_event.celery", "worker", "-P", "solo"]
    command += ["-Q", queue, "--without-heartbeat", "--without-mingle", "--without-gossip"]
    proc = subprocess.Popen(
        [*command, "-l", "warning"],
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
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        close.refresh_from_db()
        if close.status in (DayClose.Status.DONE, DayClose.Status.FAILED):
            return close
        if proc.poll() is not None:
            pytest.fail("the worker died:\n" + proc.stdout.read().decode(errors="replace"))
        time.sleep(0.2)
    pytest.fail(f"the close did not finish: {close.status} {close.step}")


def test_the_day_close_runs_on_a_real_worker_and_twice_is_once(worker: Any) -> None:
    w = world(3, money=1000, buy_in=200)
    hand = start(w)
    act(hand, seat=2, action="look")
    act(hand, seat=2, action="bet", amount=10)
    act(hand, seat=3, action="fold")
    act(hand, seat=1, action="fold")
    close = day_close_request(day=w.day, by=None)  # queued when this commits
    close = wait_for(close, worker)
    assert close.status == DayClose.Status.DONE, close.report
    assert close.runs == 1 and close.progress == 100
    assert Qualification.objects.filter(day__number=2).count() == 3
    again = day_close_request(day=w.day, by=None)
    assert again.pk == close.pk
    time.sleep(1)
    close.refresh_from_db()
    assert close.runs == 1
    assert_audit_ok(w.event)
