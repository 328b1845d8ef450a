"""Two web nodes, as two machines would run them (issue 33): two gunicorn processes, each with
its own environment (its own control socket, as on its own machine), behind nginx's upstream as
``deploy/nginx/brag-event.conf`` configures it, sharing a private PostgreSQL and Redis. Four
tablets play through nginx; one node is killed (SIGKILL, arbiter and workers: the machine goes
away) in the middle of play. Nothing is lost or doubled — every action the tablets saw accepted
is in the database once, every idempotency record once — every tablet carries on through the
other node, the hall's standings are still served, and the ledger audit passes."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import re
import secrets
import signal
import ssl
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from bench.api import Server
from bench.nginx import Nginx, nginx_binary
from tests.production.client import ResilientTablet
from tests.production.services import (
    HOST,
    ROOT,
    PrivatePostgres,
    PrivateRedis,
    missing,
    stop_everything,
    tail,
)
from tests.production.test_production_run import (
    ACTION_PATH,
    SEATS,
    TABLES,
    database_state,
    organiser_setup,
    wait_until,
)

pytestmark = pytest.mark.slow

HANDS = 2  # hands every tablet plays before the kill, and again after it


class TabletThroughNginx(ResilientTablet):
    """The production run's tablet, over HTTPS to nginx (its throw-away certificate)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE  # the test's own certificate
        self.conn = http.client.HTTPSConnection(self.host, self.port, timeout=60, context=context)


def test_a_web_node_killed_in_play_loses_nothing(tmp_path: Path) -> None:
    why = missing() or ("" if nginx_binary() else "nginx is not installed")
    if why:
        if os.environ.get("CI"):
            pytest.fail(why + " (CI must run the production tests)")
        pytest.skip(why)
    root = Path(tempfile.mkdtemp(prefix="brag-two-nodes-"))
    root.chmod(0o755)  # the postgres user (as root in CI) must reach its data directory
    pg = PrivatePostgres(root)
    redis = PrivateRedis(root)
    nodes: list[Server] = []
    nginx: Nginx | None = None
    try:
        pg.init()
        pg.start()
        redis.start()
        shared = {
            **os.environ,
            "DATABASE_URL": pg.url,
            "BRAG_CACHE_URL": redis.url.rsplit("/", 1)[0] + "/1",
            "DJANGO_SETTINGS_MODULE": "brag_event.settings",
            "DJANGO_DEBUG": "false",
            "DJANGO_ALLOWED_HOSTS": HOST,
            "DJANGO_SECRET_KEY": secrets.token_urlsafe(40),  # one site: one key on every node
            "BRAG_NUM_PROXIES": "1",
            "BRAG_WRITE_RATE": "",
            "PYTHONUNBUFFERED": "1",
        }
        for name in ("CELERY_RESULT_BACKEND", "BRAG_DB_HEALTH_CHECKS", "BRAG_DB_PREPARED"):
            shared.pop(name, None)
        migrated = subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
            cwd=ROOT, env=shared, capture_output=True, text=True, timeout=180, check=False,
        )  # fmt: skip
        assert migrated.returncode == 0, migrated.stdout + migrated.stderr
        seeded_out = subprocess.run(
            [sys.executable, "-m", "tests.production.seed", "--tables", str(TABLES),
             "--players", str(SEATS)],
            cwd=ROOT, env=shared, capture_output=True, text=True, timeout=120, check=False,
        )  # fmt: skip
        assert seeded_out.returncode == 0, seeded_out.stdout + seeded_out.stderr
        seeded = json.loads(seeded_out.stdout.strip().splitlines()[-1])
        for name in ("a", "b"):
            # Each node's own environment, as its own machine has: here its runtime directory
            # (gunicorn's control socket, which two arbiters of one user would otherwise share).
            home = root / f"node-{name}"
            home.mkdir(mode=0o700)
            env = {**shared, "XDG_RUNTIME_DIR": str(home)}
            node = Server(env, workers=2, worker_class="sync", threads=1, preload=False)
            node.start()
            nodes.append(node)
        nginx = Nginx(root / "nginx", [n.port for n in nodes])
        nginx.start()
        # The organiser sets the day up on node a directly (what it needs of a run: these two).
        setup: Any = SimpleNamespace(seeded=seeded, server=nodes[0])
        _, tables = organiser_setup(setup)
        tablets = [
            TabletThroughNginx(
                host=HOST,
                port=nginx.port,
                table_id=t["id"],
                token=t["token"],
                seats=SEATS,
                ante=seeded["ante"],
                buy_in=seeded["table_max"],
                seed=4040 + t["number"],
            )
            for t in tables
        ]
        stop = threading.Event()
        threads = [
            threading.Thread(target=t.play, kwargs={"at_least": 2 * HANDS, "stop": stop})
            for t in tablets
        ]
        for th in threads:
            th.start()

        def logs() -> str:
            return "\n".join(tail(n.log) for n in nodes) + tail(nginx.root / "error.log")

        def all_played(n: int) -> bool:
            for t in tablets:
                assert not t.stats.failures, f"table {t.table_id}: {t.stats.failures}\n{logs()}"
            return all(t.hands_played >= n for t in tablets)

        standings = f"/api/v1/events/{seeded['event']}/standings/"
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE

        def standings_served() -> bool:
            conn = http.client.HTTPSConnection(HOST, nginx.port, timeout=10, context=context)
            try:
                conn.request("GET", standings, headers={"Accept": "application/json"})
                answer = conn.getresponse()
                return answer.status == 200 and bool(json.loads(answer.read())["standings"])
            finally:
                conn.close()

        try:
            wait_until("the tablets' first hands", lambda: all_played(HANDS), 120)
            assert standings_served()
            # The machine of node b goes away, whatever it was doing.
            killed_at = time.monotonic()
            assert nodes[1].proc is not None
            os.killpg(nodes[1].proc.pid, signal.SIGKILL)
            nodes[1].proc.wait(timeout=30)
            before = [t.hands_played for t in tablets]
            for _ in range(5):
                assert standings_served()
            wait_until(
                "hands after node b went away",
                lambda: (
                    all(t.hands_played >= b + HANDS for t, b in zip(tablets, before, strict=True))
                    and all_played(0)
                ),
                120,
            )
            assert standings_served()
        finally:
            stop.set()
            for th in threads:
                th.join(timeout=90)

        for t in tablets:
            assert not t.stats.failures, f"table {t.table_id}: {t.stats.failures}\n{logs()}"
        # What went wrong for a tablet: only nginx's 502 for a request that node b held when it
        # died (nginx does not send a write again by itself), retried by the tablet with the
        # same key — and nothing after the kill's moment.
        answers: Counter[tuple[str, int, str]] = Counter()
        for t in tablets:
            answers.update(t.seen.answers)
        unexpected = {k: n for k, n in answers.items() if k[1] >= 500 and k[1] != 502}
        unexpected |= {k: n for k, n in answers.items() if 400 <= k[1] < 500 and k[1] != 409}
        assert not unexpected, f"unexpected answers {unexpected}\n{logs()}"
        # At most the one write each tablet had in flight at the kill.
        assert sum(n for k, n in answers.items() if k[1] == 502) <= len(tablets), answers
        for t in tablets:
            for problem in t.seen.problems:
                assert re.search(r": 502\b", problem), problem
            for when, err in t.seen.resets:
                assert when >= killed_at - 1, f"table {t.table_id}: {err}"

        # Nothing lost or doubled.
        entered: dict[tuple[int, int], str] = {}
        for t in tablets:
            for w in t.seen.writes:
                m = ACTION_PATH.match(w.path)
                if m is None or not 200 <= w.status < 300:
                    continue
                spot = (int(m.group(1)), int(w.body["expected_seq"]))
                assert spot not in entered, f"two accepted writes for hand/seq {spot}"
                entered[spot] = w.key
        run = SimpleNamespace(pg=pg)
        state = database_state(run, seeded["day"])  # type: ignore[arg-type]
        assert state["live"] == 0
        rows = Counter((int(h), int(s)) for h, s in state["actions"])
        assert not {k: n for k, n in rows.items() if n > 1}, "actions entered twice"
        assert set(rows) == set(entered), (
            f"lost: {sorted(set(entered) - set(rows))[:10]}, "
            f"never confirmed: {sorted(set(rows) - set(entered))[:10]}"
        )
        accepted = {key for key, _, code in state["records"] if 200 <= code < 300}
        assert accepted == set(entered.values())
        assert len(state["records"]) == len({key for key, _, _ in state["records"]})
        audit = subprocess.run(
            [sys.executable, "manage.py", "audit_ledger"],
            cwd=ROOT, env=shared, capture_output=True, text=True, timeout=120, check=False,
        )  # fmt: skip
        assert audit.returncode == 0 and "PASS" in audit.stdout, audit.stdout + audit.stderr
    finally:
        if nginx is not None:
            nginx.stop()
        for node in nodes[1:]:
            with contextlib.suppress(Exception):
                node.stop()
            with contextlib.suppress(Exception):
                node.cleanup()
        first = nodes[0] if nodes else None
        stop_everything(worker=None, server=first, redis=redis, pg=pg, root=root)
