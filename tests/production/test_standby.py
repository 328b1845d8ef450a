"""The standby drills (issue 46), each on clusters of its own made by the deploy's scripts:

1. Failover: a primary and a synchronous standby (``deploy/standby-init.sh``, the sync guard),
   gunicorn and a Celery worker on them through a multi-host ``DATABASE_URL`` with
   ``target_session_attrs=read-write``, four tablets entering hands through the API. The
   primary's machine goes away in the middle of play (SIGKILL to its postmaster and every process
   it started); ``deploy/failover.sh`` promotes the standby; nothing is restarted. Every write a
   tablet saw accepted is on the new primary, none twice; the tablets' retries land; the audit
   passes; the day closes on the worker. The time from the kill to the first accepted write is
   printed.
2. Standby down: the standby stops during play. Commits wait for it (the synchronous standby),
   /readyz says why; the sync guard lets the primary go on alone, the tablets go on, /readyz and
   the organisers' dashboard say what is at stake; the standby comes back, catches up, is waited
   for again, and holds every entry.
3. Point in time: a base backup (``deploy/base-backup.sh``), play, the day closed, the moment
   noted, then a wrong import; ``deploy/restore.sh --to`` the moment into a fresh cluster: the
   record there is exactly as it was at the moment, the audit passes, the closed day's root is
   the one published."""

from __future__ import annotations

import json
import os
import secrets
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import psycopg
import pytest

from bench.api import Server
from bench.clusters import (
    STANDBY_NAME,
    Cluster,
    owned_dir,
    primary_with_archive,
    standby_of,
    streaming,
    sync_guard,
    template,
)
from tests.production.client import Browser, ResilientTablet
from tests.production.services import (
    HOST,
    ROOT,
    CeleryWorker,
    PrivateRedis,
    missing,
    suppress_all,
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

HANDS = 2  # hands every tablet plays before the fault, and again after it
WRITES = ("action", "cards", "start", "seat")


@dataclass
class Site:
    root: Path
    primary: Cluster
    archive: Path
    standby: Cluster | None = None
    redis: PrivateRedis | None = None
    env: dict[str, str] = field(default_factory=dict)
    seeded: dict[str, Any] = field(default_factory=dict)
    server: Server | None = None
    worker: CeleryWorker | None = None
    base: str = ""  # the base backup's directory
    tablets: list[ResilientTablet] = field(default_factory=list)
    threads: list[threading.Thread] = field(default_factory=list)
    stop: threading.Event = field(default_factory=threading.Event)

    def manage(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=ROOT, env=self.env, capture_output=True, text=True, timeout=180, check=False,
        )  # fmt: skip

    def logs(self) -> str:
        parts = [self.primary.log] + ([self.standby.log] if self.standby else [])
        parts += [self.server.log] if self.server else []
        parts += [self.worker.log] if self.worker else []
        return "\n".join(tail(p) for p in parts)

    def play(self) -> None:
        assert self.server is not None
        setup: Any = SimpleNamespace(seeded=self.seeded, server=self.server)
        self.browser, tables = organiser_setup(setup)
        self.tablets = [
            ResilientTablet(
                host=HOST, port=self.server.port, table_id=t["id"], token=t["token"],
                seats=SEATS, ante=self.seeded["ante"], buy_in=self.seeded["table_max"],
                seed=4600 + t["number"],
            )
            for t in tables
        ]  # fmt: skip
        self.threads = [
            threading.Thread(target=t.play, kwargs={"at_least": 2 * HANDS, "stop": self.stop})
            for t in self.tablets
        ]
        for th in self.threads:
            th.start()

    def played(self, at_least: list[int] | int) -> bool:
        for t in self.tablets:
            assert not t.stats.failures, f"table {t.table_id}: {t.stats.failures}\n{self.logs()}"
        wanted = at_least if isinstance(at_least, list) else [at_least] * len(self.tablets)
        return all(t.hands_played >= n for t, n in zip(self.tablets, wanted, strict=True))

    def finish_play(self) -> None:
        self.stop.set()
        for th in self.threads:
            th.join(timeout=120)
        for t in self.tablets:
            assert not t.stats.failures, f"table {t.table_id}: {t.stats.failures}\n{self.logs()}"

    def readyz(self) -> dict[str, Any]:
        assert self.server is not None
        status, ready = Browser(HOST, self.server.port).json("GET", "/readyz")
        assert status == 200, ready
        return dict(ready)

    def accepted(self) -> dict[tuple[int, int], str]:
        """(hand, seq) → idempotency key of every action or shown cards a tablet saw accepted,
        none twice."""
        entered: dict[tuple[int, int], str] = {}
        for t in self.tablets:
            for w in t.seen.writes:
                m = ACTION_PATH.match(w.path)
                if m is None or not 200 <= w.status < 300:
                    continue
                spot = (int(m.group(1)), int(w.body["expected_seq"]))
                assert spot not in entered, f"two accepted writes for hand/seq {spot}"
                entered[spot] = w.key
        return entered

    def assert_nothing_lost(self, on: Cluster) -> None:
        entered = self.accepted()
        state = database_state(SimpleNamespace(pg=on), self.seeded["day"])  # type: ignore[arg-type]
        rows = Counter((int(h), int(s)) for h, s in state["actions"])
        assert not {k: n for k, n in rows.items() if n > 1}, "actions entered twice"
        assert set(rows) == set(entered), (
            f"lost: {sorted(set(entered) - set(rows))[:10]}, "
            f"never confirmed: {sorted(set(rows) - set(entered))[:10]}"
        )
        accepted = {key for key, _, code in state["records"] if 200 <= code < 300}
        assert accepted == set(entered.values())
        assert len(state["records"]) == len({key for key, _, _ in state["records"]})

    def assert_answers(self, allowed_5xx: set[tuple[int, str]]) -> None:
        answers: Counter[tuple[str, int, str]] = Counter()
        for t in self.tablets:
            answers.update(t.seen.answers)
        unexpected = {
            k: n
            for k, n in answers.items()
            if (k[1] >= 500 and (k[1], k[2]) not in allowed_5xx)
            or (400 <= k[1] < 500 and k[1] != 409)
        }
        assert not unexpected, f"unexpected answers {unexpected}\n{self.logs()}"
        problems = [p for t in self.tablets for p in t.seen.problems]
        assert not problems, problems[:5]

    def audit(self) -> None:
        done = self.manage("audit_ledger")
        assert done.returncode == 0 and "PASS" in done.stdout, done.stdout + done.stderr


def base_env(url: str) -> dict[str, str]:
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "DJANGO_SETTINGS_MODULE": "brag_event.settings",
        "DJANGO_DEBUG": "false",
        "DJANGO_ALLOWED_HOSTS": HOST,
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(40),
        "BRAG_WRITE_RATE": "",
        "PYTHONUNBUFFERED": "1",
    }
    for name in ("CELERY_RESULT_BACKEND", "BRAG_DB_HEALTH_CHECKS", "BRAG_DB_PREPARED",
                 "CELERY_BROKER_URL", "BRAG_CACHE_URL"):  # fmt: skip
        env.pop(name, None)
    return env


def migrate_and_seed(url: str) -> dict[str, Any]:
    env = base_env(url)
    migrated = subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert migrated.returncode == 0, migrated.stdout + migrated.stderr
    seeded = subprocess.run(
        [sys.executable, "-m", "tests.production.seed", "--tables", str(TABLES),
         "--players", str(SEATS)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert seeded.returncode == 0, seeded.stdout + seeded.stderr
    return dict(json.loads(seeded.stdout.strip().splitlines()[-1]))


@pytest.fixture(scope="module")
def migrated() -> Iterator[tuple[Path, dict[str, Any]]]:
    """One migrated, seeded cluster, stopped: each drill runs on clusters of its own, copies."""
    why = missing()
    if why:
        if os.environ.get("CI"):
            pytest.fail(why + " (CI must run the production tests)")
        pytest.skip(why)
    root = Path(tempfile.mkdtemp(prefix="brag-standby-template-"))
    root.chmod(0o755)
    try:
        yield template(root, migrate_and_seed)
    finally:
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def site(migrated: tuple[Path, dict[str, Any]]) -> Iterator[Site]:
    root = Path(tempfile.mkdtemp(prefix="brag-standby-"))
    root.chmod(0o755)  # the postgres user (as root in CI) must reach its data directories
    primary, archive = primary_with_archive(root, migrated[0])
    s = Site(root=root, primary=primary, archive=archive, seeded=migrated[1])
    try:
        yield s
    finally:
        s.stop.set()
        for th in s.threads:
            th.join(timeout=30)
        for proc in (s.worker, s.server):
            if proc is not None:
                with suppress_all():
                    proc.stop()
        if s.server is not None:
            with suppress_all():
                s.server.cleanup()
        if s.redis is not None:
            with suppress_all():
                s.redis.stop()
        for cluster in (s.standby, s.primary, getattr(s, "restored", None)):
            if cluster is not None:
                with suppress_all():
                    cluster.stop()
        shutil.rmtree(root, ignore_errors=True)


def start_site(s: Site, *, standby: bool, redis: bool, worker: bool) -> None:
    """The base backup of the migrated and seeded database, the standby (if any, waited for by the
    sync guard), Redis, gunicorn and the worker."""
    s.env = base_env(f"postgres://postgres@{HOST}:{s.primary.port}/brag")
    s.env["BRAG_EXPECT_STANDBY"] = "true" if standby else "false"
    t1 = time.perf_counter()
    s.base = s.primary.script(
        "base-backup.sh", str(owned_dir(s.primary, s.root / "base") / "nightly"),
        env={"BRAG_WAL_ARCHIVE": str(s.archive), "BRAG_PG_CONNINFO": s.primary.server()},
    ).strip()  # fmt: skip
    assert Path(s.base, "base.tar.gz").is_file()
    t2 = time.perf_counter()
    if standby:
        s.standby = standby_of(s.primary, s.root)
        wait_until("the standby to stream", lambda: streaming(s.primary), 30)
        assert sync_guard(s.primary) == STANDBY_NAME
        # Both machines; the one taking writes is the primary (core.dburl).
        s.env["DATABASE_URL"] = (
            f"postgres://postgres@{HOST}:{s.primary.port},{HOST}:{s.standby.port}/brag"
            "?target_session_attrs=read-write"
        )
    t3 = time.perf_counter()
    if redis:
        s.redis = PrivateRedis(s.root)
        s.redis.start()
        s.env["BRAG_CACHE_URL"] = s.redis.url.rsplit("/", 1)[0] + "/1"
        if worker:
            s.env["CELERY_BROKER_URL"] = s.redis.url
    # One web worker more than the tablets: while commits wait for a standby that went away,
    # every worker a tablet's write holds is taken, and /readyz and the dashboard need one free.
    s.server = Server(s.env, workers=TABLES + 1, worker_class="sync", threads=1, preload=False)
    s.server.start()
    if worker:
        s.worker = CeleryWorker(s.env, s.root / "celery.log")
        s.worker.start()
    t4 = time.perf_counter()
    print(
        f"\nset-up: base backup {t2 - t1:.1f} s, standby {t3 - t2:.1f} s, servers {t4 - t3:.1f} s"
    )


def close_day(s: Site, on: Cluster) -> tuple[Any, ...]:
    day = s.seeded["day"]
    status, _, body = s.browser.request(
        "POST", f"/organiser/days/{day}/close/", form={"confirm": "yes"}
    )
    assert status == 302, (status, body[:500])

    def done() -> tuple[Any, ...] | None:
        with on.connect() as conn:
            row = conn.execute(
                "SELECT c.status, d.status, d.record_root FROM events_dayclose c "
                "JOIN events_day d ON d.id = c.day_id WHERE c.day_id = %s",
                (day,),
            ).fetchone()
        return row if row is not None and row[0] in ("done", "failed") else None

    final = wait_until("the day to close", done, 60, every=0.2)
    assert final[:2] == ("done", "closed") and final[2], (final, s.logs())
    return tuple(final)


# --------------------------------------------------------------------------------------------


def test_failover_drill_loses_nothing_and_the_day_closes(site: Site) -> None:
    s = site
    start_site(s, standby=True, redis=True, worker=True)
    assert s.standby is not None
    s.play()
    t0 = time.perf_counter()
    wait_until("the first hands", lambda: s.played(HANDS), 120)
    print(f"first hands {time.perf_counter() - t0:.1f} s")
    assert s.readyz()["status"] == "ready", s.readyz()

    # The primary's machine goes away in the middle of play.
    before = [t.hands_played for t in s.tablets]
    killed = time.perf_counter()
    s.primary.kill_machine()
    took = s.standby.script(
        "failover.sh", str(s.standby.data), env={"BRAG_PG_CONNINFO": s.standby.conninfo()}
    )
    promoted = time.perf_counter()
    wait_until(
        "hands on the new primary",
        lambda: s.played([b + HANDS for b in before]),
        120,
    )
    first = min(
        sample.end
        for t in s.tablets
        for sample in t.stats.samples
        # Only the new primary takes writes after the promotion (an answer arriving between the
        # kill and the promotion was committed by the old one before it died).
        if sample.kind in WRITES and 200 <= sample.status < 300 and sample.end > promoted
    )
    print(
        f"\nfailover: kill → promoted {promoted - killed:.2f} s (failover.sh {took.strip()} s), "
        f"kill → first accepted write {first - killed:.2f} s"
    )
    s.finish_play()

    # Nothing but the outage's own answers (503 in words, retried with the same key).
    s.assert_answers({(503, "database_unavailable")})
    assert sum(t.seen.unavailable for t in s.tablets) >= 1  # the outage was met, and retried
    s.assert_nothing_lost(on=s.standby)
    # The new primary has no standby yet: said, and the hall goes on.
    ready = s.readyz()
    assert ready["status"] == "degraded" and ready["degraded"] == ["replication"], ready
    assert any("not connected" in a for a in ready["checks"]["replication"]["alerts"]), ready
    s.audit()
    close_day(s, on=s.standby)


def test_standby_down_holds_writes_in_words_then_the_guard_lets_the_hall_go_on(
    site: Site,
) -> None:
    s = site
    start_site(s, standby=True, redis=True, worker=False)
    assert s.standby is not None
    s.play()
    wait_until("the first hands", lambda: s.played(HANDS), 120)
    assert s.readyz()["status"] == "ready", s.readyz()

    s.standby.pg_ctl("-m", "immediate", "stop")
    stopped = time.perf_counter()
    wait_until("the primary to see the standby gone", lambda: not streaming(s.primary), 30)
    # Commits wait for the standby: the hall is held, and /readyz says why.
    ready = s.readyz()
    assert ready["status"] == "degraded" and "replication" in ready["degraded"], ready
    (alert,) = ready["checks"]["replication"]["alerts"]
    assert "waits for it before it confirms a write" in alert, alert
    time.sleep(1.5)
    held_from = stopped + 1.0
    guard_at = time.perf_counter()
    assert sync_guard(s.primary) == ""
    done_while_held = [
        sample
        for t in s.tablets
        for sample in t.stats.samples
        if sample.kind in WRITES and held_from < sample.end < guard_at
    ]
    assert not done_while_held, done_while_held[:3]

    before = [t.hands_played for t in s.tablets]
    wait_until("hands with the standby down", lambda: s.played([b + HANDS for b in before]), 120)
    ready = s.readyz()
    (alert,) = ready["checks"]["replication"]["alerts"]
    assert "the primary goes on alone" in alert, alert
    status, _, page = s.browser.request("GET", f"/organiser/events/{s.seeded['event']}/live/")
    assert status == 200 and "the primary goes on alone" in page.decode(), page[:3000]

    # The standby is back: it catches up, and commits wait for it again.
    s.standby.pg_ctl("start")
    wait_until("the standby to stream again", lambda: streaming(s.primary), 30)
    wait_until("the guard to wait for it again", lambda: sync_guard(s.primary) == STANDBY_NAME, 30)
    before = [t.hands_played for t in s.tablets]
    wait_until("hands with the standby back", lambda: s.played([b + 1 for b in before]), 120)
    s.finish_play()
    assert s.readyz()["status"] == "ready", s.readyz()
    status, _, page = s.browser.request("GET", f"/organiser/events/{s.seeded['event']}/live/")
    assert status == 200 and "standby" not in page.decode()

    s.assert_answers(set())
    s.assert_nothing_lost(on=s.primary)
    # Every entry is on the standby too, once it has replayed what the primary wrote.
    lsn = s.primary.sql("SELECT pg_current_wal_lsn()::text")
    standby = s.standby
    wait_until(
        "the standby to replay everything",
        lambda: standby.sql("SELECT pg_last_wal_replay_lsn() >= %s::pg_lsn", lsn),
        30,
    )
    s.assert_nothing_lost(on=standby)
    s.audit()


RECORD = {
    # What "the record is exactly as it was" compares: every row of each, in order.
    "players_player": "id",
    "hands_hand": "id",
    "hands_handaction": "id",
    "ledger_transfer": "id",
    "events_day": "id",
    "events_dayclose": "id",
    "audit_auditentry": "id",
}


def record(cluster: Cluster | psycopg.Connection[Any]) -> dict[str, tuple[int, str]]:
    conn = cluster.connect() if isinstance(cluster, Cluster) else cluster
    out = {}
    with conn:
        for table, order in RECORD.items():
            row = conn.execute(
                f"SELECT count(*), md5(coalesce(string_agg(t::text, '|' ORDER BY {order}), '')) "
                f"FROM {table} t"
            ).fetchone()
            assert row is not None
            out[table] = (int(row[0]), str(row[1]))
    return out


def test_point_in_time_restore_rewinds_to_the_moment_before_a_wrong_import(site: Site) -> None:
    s = site
    start_site(s, standby=False, redis=False, worker=False)  # the close runs in the request
    archive_env = {"BRAG_WAL_ARCHIVE": str(s.archive)}
    base = s.base
    s.play()
    wait_until("the hands", lambda: s.played(HANDS), 120)
    s.finish_play()
    _, _, root = close_day(s, on=s.primary)
    s.audit()

    time.sleep(1.1)
    moment = s.primary.sql("SELECT now()::text")
    at_moment = record(s.primary)
    time.sleep(1.1)
    # The wrong import: forty players who should never have been registered.
    wrong = s.manage(
        "shell", "-c",
        "from brag_event.events.models import Event\n"
        "from brag_event.players.services import player_register\n"
        f"e = Event.objects.get(pk={s.seeded['event']})\n"
        "for n in range(40):\n"
        "    player_register(event=e, name=f'Wrong import {n}', starting_money=5000, by=None)\n",
    )  # fmt: skip
    assert wrong.returncode == 0, wrong.stdout + wrong.stderr
    assert record(s.primary) != at_moment
    # Whatever was written is archived (archive_timeout does it within a minute; here at once).
    segment = s.primary.sql("SELECT pg_walfile_name(pg_switch_wal())")
    wait_until(
        "the archive to hold the last segment",
        lambda: (s.archive / segment).exists(),
        30,
    )

    restored = Cluster(s.root, "restored")
    owned_dir(restored, restored.dir)
    s.restored = restored  # type: ignore[attr-defined]  # stopped by the fixture
    env = {k: v for k, v in s.env.items() if k != "DATABASE_URL"}
    # The server's user rewinds (its Python may not be ours: the audit is left to the next step).
    restored.script(
        "restore.sh", "--to", moment, base, str(restored.data),
        env={**archive_env, "BRAG_RESTORE_PORT": str(restored.port),
             "BRAG_RESTORE_AUDIT": "false"},
    )  # fmt: skip
    url = f"postgres://postgres@{str(restored.data).replace('/', '%2F')}:{restored.port}/brag"
    audited = subprocess.run(
        [str(ROOT / "deploy" / "restore.sh"), "--audit", url],
        env={**env, "PYTHON": sys.executable}, capture_output=True, text=True, timeout=180,
        check=False,
    )  # fmt: skip
    assert audited.returncode == 0 and "PASS" in audited.stdout, audited.stdout + audited.stderr
    with psycopg.connect(
        host=str(restored.data), port=restored.port, user="postgres", dbname="brag",
        autocommit=True,
    ) as conn:  # fmt: skip
        assert record(conn) == at_moment
    with psycopg.connect(
        host=str(restored.data), port=restored.port, user="postgres", dbname="brag",
        autocommit=True,
    ) as conn:  # fmt: skip
        row = conn.execute(
            "SELECT record_root FROM events_day WHERE id = %s", (s.seeded["day"],)
        ).fetchone()
        wrong_rows = conn.execute(
            "SELECT count(*) FROM players_player WHERE name LIKE 'Wrong import%%'"
        ).fetchone()
    assert row == (root,)
    assert wrong_rows == (0,)
