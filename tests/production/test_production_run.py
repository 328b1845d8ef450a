"""A production-like run with faults: private PostgreSQL, Redis, gunicorn (3 sync workers) and a
Celery worker on the loopback; a whole scripted day over HTTP; and, during it, the faults a real
event meets. Nothing may be lost or entered twice, and the ledger audit must pass at the end.

1. Organiser setup: the seed script (``tests/production/seed.py``) registers the players and
   creates the accounts; the organiser then logs in and, over HTTP, draws and applies the seating,
   assigns a dealer to each table (the organiser's pages) and issues each tablet its device token
   (``POST /api/v1/tokens/``).
2. Four tablets, one per table, play whole hands at once through the API.
3. Fault 1: PostgreSQL restarts (``pg_ctl restart -m fast``) while they play. Answers must stay
   clean (``503 database_unavailable`` with ``Retry-After``, never a 500); retries with the same
   ``Idempotency-Key`` succeed.
4. Fault 2: a gunicorn worker is SIGKILLed while it serves a tablet's action (held on the hand's
   row lock, so it is mid-request for certain); the arbiter replaces it, the tablet sees its
   connection cut and sends the same request again.
5. The day close on the real worker, Fault 3: while the close returns stacks (held on one seat's
   row lock), the Celery worker is SIGKILLed and a new one started; Redis delivers the task again
   after the visibility timeout (5 s) and the close finishes exactly once.
6. Checks: every action the tablets were told was entered is in the database once, and nothing
   else is; one idempotency record per accepted action; the close's snapshot, qualifications and
   returned stacks; ``manage.py audit_ledger`` passes.

Then the pages (console, public, API) through two more restarts of PostgreSQL: one while every
gunicorn worker holds a connection and nobody asks anything (afterwards every request answers
200: each worker checks its kept connection before using it), one while the pages are asked for
from four threads (every answer is 200 or a 503 in words with ``Retry-After``, never a 500).
"""

from __future__ import annotations

import json
import os
import re
import secrets
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg
import pytest

from bench.api import Server
from tests.production.client import Browser, ResilientTablet
from tests.production.services import (
    DB_NAME,
    HOST,
    ROOT,
    CeleryWorker,
    PrivatePostgres,
    PrivateRedis,
    children,
    holder,
    missing,
    socket_inode,
    stop_everything,
    tail,
)

TABLES = 4
SEATS = 6
WORKERS = 3
VISIBILITY_TIMEOUT = 5
WARM_UP_HANDS = 2  # hands every tablet plays before a fault, and again after it
UNAVAILABLE = "database_unavailable"
ACTION_PATH = re.compile(r"^/hands/(\d+)/(actions|cards)/$")


def wait_until(what: str, check: Callable[[], Any], timeout: float, every: float = 0.05) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(every)
    pytest.fail(f"timed out after {timeout:g} s waiting for {what}")


@dataclass
class Run:
    root: Path
    pg: PrivatePostgres
    redis: PrivateRedis
    env: dict[str, str]
    server: Server
    worker: CeleryWorker
    seeded: dict[str, Any]

    def manage(self, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=ROOT,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )

    def logs(self) -> str:
        return "\n".join(
            tail(p) for p in (self.server.log, self.worker.log, self.pg.log, self.redis.log)
        )


@pytest.fixture(scope="module")
def run() -> Iterator[Run]:
    why = missing()
    if why:
        if os.environ.get("CI"):
            pytest.fail(why + " (CI must run the production run)")
        pytest.skip(why)
    root = Path(tempfile.mkdtemp(prefix="brag-production-run-"))
    root.chmod(0o755)  # the postgres user (as root in CI) must reach its data directory
    pg = PrivatePostgres(root)
    redis = PrivateRedis(root)
    server: Server | None = None
    worker: CeleryWorker | None = None
    try:
        pg.init()
        pg.start()
        redis.start()
        env = {
            **os.environ,
            "DATABASE_URL": pg.url,
            "CELERY_BROKER_URL": redis.url,
            # The cached reads shared by the three gunicorn workers, in a database of their own.
            "BRAG_CACHE_URL": redis.url.rsplit("/", 1)[0] + "/1",
            "BRAG_CELERY_VISIBILITY_TIMEOUT": str(VISIBILITY_TIMEOUT),
            "DJANGO_SETTINGS_MODULE": "brag_event.settings",
            "DJANGO_DEBUG": "false",
            "DJANGO_ALLOWED_HOSTS": HOST,
            "DJANGO_SECRET_KEY": secrets.token_urlsafe(40),
            # Four tablets entering as fast as they can, far above a dealer's pace.
            "BRAG_WRITE_RATE": "",
            "PYTHONUNBUFFERED": "1",
        }
        for name in ("CELERY_RESULT_BACKEND", "BRAG_DB_HEALTH_CHECKS", "BRAG_DB_PREPARED"):
            env.pop(name, None)
        migrated = subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
            cwd=ROOT, env=env, capture_output=True, text=True, timeout=180, check=False,
        )  # fmt: skip
        assert migrated.returncode == 0, migrated.stdout + migrated.stderr
        seeded_out = subprocess.run(
            [sys.executable, "-m", "tests.production.seed", "--tables", str(TABLES),
             "--players", str(SEATS)],
            cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=False,
        )  # fmt: skip
        assert seeded_out.returncode == 0, seeded_out.stdout + seeded_out.stderr
        seeded = json.loads(seeded_out.stdout.strip().splitlines()[-1])
        server = Server(env, workers=WORKERS, worker_class="sync", threads=1, preload=False)
        server.start()
        worker = CeleryWorker(env, root / "celery.log")
        worker.start()
        yield Run(root, pg, redis, env, server, worker, seeded)
    finally:
        stop_everything(worker=worker, server=server, redis=redis, pg=pg, root=root)


# --------------------------------------------------------------------------------------------
# Steps


def organiser_setup(run: Run) -> tuple[Browser, list[dict[str, Any]]]:
    """Seating draw and apply, dealers, tokens: all over HTTP as the organiser."""
    seeded = run.seeded
    day = seeded["day"]
    browser = Browser(HOST, run.server.port)
    browser.login(seeded["organiser"]["username"], seeded["organiser"]["password"])

    page = f"/organiser/days/{day}/seating/"
    status, headers, body = browser.request(
        "POST", page, form={"form": "draw", "seed": "production-run"}
    )
    assert status == 302, (status, body[:500])
    match = re.search(r"[?&]draw=(\d+)", headers["location"])
    assert match, headers["location"]
    draw = match.group(1)
    status, headers, body = browser.request(
        "POST", page, form={"form": "apply", "draw": draw, "confirm": "yes"}
    )
    assert status == 302, (status, body[:500])

    status, listed = browser.json("GET", f"/api/v1/days/{day}/tables/")
    assert status == 200, listed
    tables = sorted(listed["tables"], key=lambda t: t["number"])
    assert len(tables) == TABLES and all(t["seated"] == SEATS for t in tables), tables

    out = []
    for table, dealer in zip(tables, seeded["dealers"], strict=True):
        status, _, body = browser.request(
            "POST",
            f"/organiser/days/{day}/seating/dealers/",
            form={"form": "table", "table": table["id"], "dealers": [dealer]},
        )
        assert status == 302, (status, body[:500])
        key = f"token-table-{table['number']}"
        request = {"user": dealer, "name": f"Table {table['number']} tablet"}
        status, token = browser.json("POST", "/api/v1/tokens/", request, **{"Idempotency-Key": key})
        assert status == 201 and token["key"], token
        out.append({"id": table["id"], "number": table["number"], "token": token["key"]})
    return browser, out


def kill_worker_mid_request(run: Run, table_id: int) -> tuple[int, float]:
    """SIGKILL the gunicorn worker that is serving an action at ``table_id``: lock the table's
    hand in play, wait for a worker's transaction to queue behind the lock, find that worker by
    its database connection, kill it, then let go of the lock. Returns (pid, when)."""
    for _ in range(200):
        with run.pg.connect(autocommit=False) as conn:
            try:
                row = conn.execute(
                    "SELECT id FROM hands_hand WHERE table_id = %s AND status = 'in_progress' "
                    "FOR UPDATE NOWAIT",
                    (table_id,),
                ).fetchone()
            except psycopg.errors.LockNotAvailable:
                row = None
            if row is None:
                conn.rollback()
                time.sleep(0.02)
                continue
            me = conn.info.backend_pid
            with run.pg.connect() as watch:
                deadline = time.monotonic() + 3
                blocked = None
                while blocked is None and time.monotonic() < deadline:
                    blocked = watch.execute(
                        "SELECT client_port FROM pg_stat_activity "
                        "WHERE %s = ANY(pg_blocking_pids(pid))",
                        (me,),
                    ).fetchone()
                    if blocked is None:
                        time.sleep(0.02)
            if blocked is None:  # the tablet was between requests for too long: again
                conn.rollback()
                continue
            inode = socket_inode(int(blocked[0]), run.pg.port)
            workers = children(run.server.pid)
            pid = holder(workers, inode) if inode is not None else None
            assert pid is not None, f"no gunicorn worker holds the connection ({workers})"
            os.kill(pid, signal.SIGKILL)
            when = time.monotonic()
            time.sleep(0.3)
            conn.rollback()  # the lock goes; the retry can now go through
            return pid, when
    pytest.fail("could not catch a gunicorn worker in the middle of an action")


def database_state(run: Run, day: int) -> dict[str, Any]:
    with run.pg.connect() as conn:
        actions = conn.execute(
            "SELECT a.hand_id, a.seq FROM hands_handaction a JOIN hands_hand h ON h.id = a.hand_id "
            "JOIN tables_table t ON t.id = h.table_id WHERE t.day_id = %s",
            (day,),
        ).fetchall()
        records = conn.execute(
            "SELECT key, path, status_code FROM api_idempotencyrecord WHERE path ~ %s",
            (r"/hands/\d+/(actions|cards)/$",),
        ).fetchall()
        live = conn.execute(
            "SELECT count(*) FROM hands_hand h JOIN tables_table t ON t.id = h.table_id "
            "WHERE t.day_id = %s AND h.status = 'in_progress'",
            (day,),
        ).fetchone()
    return {"actions": actions, "records": records, "live": live[0] if live else None}


# --------------------------------------------------------------------------------------------
# The run


def test_a_day_with_faults_loses_nothing_and_doubles_nothing(run: Run) -> None:
    seeded = run.seeded
    day = seeded["day"]
    began = time.monotonic()

    # 1. Organiser setup over HTTP.
    browser, tables = organiser_setup(run)
    status, ready = browser.json("GET", "/readyz")
    assert status == 200, ready

    # 2. Four tablets at once.
    tablets = [
        ResilientTablet(
            host=HOST,
            port=run.server.port,
            table_id=t["id"],
            token=t["token"],
            seats=SEATS,
            ante=seeded["ante"],
            buy_in=seeded["table_max"],
            seed=2026 + t["number"],
        )
        for t in tables
    ]
    stop = threading.Event()
    threads = [
        threading.Thread(
            target=t.play, kwargs={"at_least": 3 * WARM_UP_HANDS, "stop": stop}, daemon=True
        )
        for t in tablets
    ]
    for th in threads:
        th.start()

    def all_played(n: int) -> bool:
        for t in tablets:
            assert not t.stats.failures, f"table {t.table_id}: {t.stats.failures}\n{run.logs()}"
        return all(t.hands_played >= n for t in tablets)

    try:
        wait_until("the tablets' first hands", lambda: all_played(WARM_UP_HANDS), 60)

        # 3. Fault 1: PostgreSQL restarts under the tablets.
        before = [t.hands_played for t in tablets]
        run.pg.restart()
        wait_until(
            "hands after the PostgreSQL restart",
            lambda: (
                all(
                    t.hands_played >= b + WARM_UP_HANDS
                    for t, b in zip(tablets, before, strict=True)
                )
                and all_played(0)
            ),
            60,
        )
        unavailable = sum(t.seen.unavailable for t in tablets)
        assert unavailable > 0, "the restart went unnoticed: no 503 at all"

        # 4. Fault 2: a gunicorn worker killed in the middle of an action.
        victim = tablets[0]
        resets_before = len(victim.seen.resets)
        workers_before = children(run.server.pid)
        killed, killed_at = kill_worker_mid_request(run, victim.table_id)
        assert killed in workers_before

        def replacement() -> set[int] | None:
            now = children(run.server.pid)
            return now if len(now) == WORKERS and killed not in now else None

        replaced = wait_until("the arbiter to replace the worker", replacement, 30)
        assert len(replaced - workers_before) == 1
        before = [t.hands_played for t in tablets]
        wait_until(
            "hands after the gunicorn worker was killed",
            lambda: (
                all(t.hands_played >= b + 1 for t, b in zip(tablets, before, strict=True))
                and all_played(0)
            ),
            60,
        )
        assert len(victim.seen.resets) > resets_before, "the killed request was not cut"
    finally:
        stop.set()
        for th in threads:
            th.join(timeout=90)

    for t in tablets:
        assert not t.stats.failures, f"table {t.table_id}: {t.stats.failures}\n{run.logs()}"
        assert not t.seen.problems, f"table {t.table_id}: {t.seen.problems}\n{run.logs()}"
    # Only clean answers: 2xx, a 409 stale (none expected: one tablet per table) and the 503s.
    answers: Counter[tuple[str, int, str]] = Counter()
    for t in tablets:
        answers.update(t.seen.answers)

    def clean(status: int, code: str) -> bool:
        return 200 <= status < 300 or status == 409 or (status, code) == (503, UNAVAILABLE)

    unexpected = {k: n for k, n in answers.items() if not clean(k[1], k[2])}
    assert not unexpected, f"unexpected answers {unexpected}\n{run.logs()}"
    # Connection cuts only around the killed worker.
    for t in tablets:
        for when, err in t.seen.resets:
            assert killed_at - 1 <= when <= killed_at + 10, f"table {t.table_id}: {err}"

    # 5. No action lost or doubled.
    entered: dict[tuple[int, int], str] = {}
    for t in tablets:
        for w in t.seen.writes:
            m = ACTION_PATH.match(w.path)
            if m is None or not 200 <= w.status < 300:
                continue
            spot = (int(m.group(1)), int(w.body["expected_seq"]))
            assert spot not in entered, f"two accepted writes for hand/seq {spot}"
            entered[spot] = w.key
    state = database_state(run, day)
    assert state["live"] == 0
    rows = Counter((int(h), int(s)) for h, s in state["actions"])
    doubled = {k: n for k, n in rows.items() if n > 1}
    assert not doubled, f"actions entered twice: {doubled}"
    assert set(rows) == set(entered), (
        f"lost: {sorted(set(entered) - set(rows))[:10]}, "
        f"never confirmed: {sorted(set(rows) - set(entered))[:10]}"
    )
    accepted = {key for key, _, code in state["records"] if 200 <= code < 300}
    assert accepted == set(entered.values())
    assert len(state["records"]) == len({key for key, _, _ in state["records"]})
    retried = sum(1 for t in tablets for w in t.seen.writes if w.attempts > 1)
    assert retried > 0

    # 6. The day close on the real worker; Fault 3: the worker killed half-way.
    with run.pg.connect() as conn:
        held = dict(
            conn.execute(
                "SELECT p.id, p.balance + coalesce(sum(s.stack), 0) FROM players_player p "
                "LEFT JOIN tables_seat s ON s.player_id = p.id AND s.left_at IS NULL "
                "WHERE p.event_id = %s GROUP BY p.id",
                (seeded["event"],),
            ).fetchall()
        )
    assert len(held) == seeded["players"]
    with run.pg.connect(autocommit=False) as lock:
        last_seat = lock.execute(
            "SELECT s.id FROM tables_seat s JOIN tables_table t ON t.id = s.table_id "
            "WHERE t.day_id = %s AND s.left_at IS NULL ORDER BY s.id DESC LIMIT 1 "
            "FOR UPDATE OF s",
            (day,),
        ).fetchone()
        assert last_seat is not None
        me = lock.info.backend_pid
        status, _, body = browser.request(
            "POST", f"/organiser/days/{day}/close/", form={"confirm": "yes"}
        )
        assert status == 302, (status, body[:500])
        with run.pg.connect() as watch:

            def close_blocked() -> bool:
                row = watch.execute(
                    "SELECT count(*) FROM pg_stat_activity WHERE %s = ANY(pg_blocking_pids(pid))",
                    (me,),
                ).fetchone()
                return bool(row and row[0])

            wait_until("the close to reach the locked seat", close_blocked, 60)
            row = watch.execute(
                "SELECT status, runs, progress FROM events_dayclose WHERE day_id = %s", (day,)
            ).fetchone()
        assert row is not None and row[0] == "running" and row[1] == 1, row
        assert 10 < row[2] < 75, row  # half-way through returning stacks
        run.worker.kill()
        lock.rollback()
    # Restarted at once, as systemd would: Redis hands the unacknowledged task out again once it
    # is older than the visibility timeout, and the settings make kombu look for such tasks at
    # least every min(10 s, timeout) (by default only every 10 x 10 s).
    run.worker.start()
    restarted = time.monotonic()

    def close_finished() -> tuple[Any, ...] | None:
        with run.pg.connect() as conn:
            row = conn.execute(
                "SELECT status, runs, progress, report FROM events_dayclose WHERE day_id = %s",
                (day,),
            ).fetchone()
        return row if row is not None and row[0] in ("done", "failed") else None

    final = wait_until("the close to finish on the new worker", close_finished, 60, every=0.2)
    # Redelivered within the timeout plus one sweep, not kombu's default 100 s.
    assert time.monotonic() - restarted < VISIBILITY_TIMEOUT + 2 * VISIBILITY_TIMEOUT + 15
    status_, runs, progress, report = final
    assert status_ == "done", f"{final}\n{run.logs()}"
    assert runs == 2 and progress == 100, final
    status, page = browser.json("GET", f"/organiser/days/{day}/close/status/")
    assert status == 200 and page["status"] == "done" and page["runs"] == 2, page

    with run.pg.connect() as conn:
        one = conn.execute
        open_seats = one(
            "SELECT count(*) FROM tables_seat s JOIN tables_table t ON t.id = s.table_id "
            "WHERE t.day_id = %s AND s.left_at IS NULL",
            (day,),
        ).fetchone()
        assert open_seats == (0,)
        balances = dict(
            one(
                "SELECT id, balance FROM players_player WHERE event_id = %s", (seeded["event"],)
            ).fetchall()
        )
        # A pot still carried at the close is shared by the players of the hand that left it
        # (RULES §4b), once per table: their balances grow by their shares.
        for (shares,) in one(
            "SELECT shares FROM floor_carriedsplit WHERE day_id = %s", (day,)
        ).fetchall():
            for share in shares:
                held[share["player_id"]] += share["amount"]
        assert balances == held, "a stack was not returned exactly once"
        snapshot = one(
            "SELECT count(*), count(*) FILTER (WHERE qualified) FROM players_standingsnapshot "
            "WHERE day_id = %s",
            (day,),
        ).fetchone()
        qualified = one(
            "SELECT count(*), count(DISTINCT q.player_id) FROM players_qualification q "
            "JOIN events_day d ON d.id = q.day_id WHERE d.event_id = %s AND d.number = 2",
            (seeded["event"],),
        ).fetchone()
        closed = one(
            "SELECT count(*) FROM audit_auditentry WHERE verb = 'day.closed'",
        ).fetchone()
    assert snapshot is not None and snapshot[0] == seeded["players"], snapshot
    assert qualified is not None and qualified[0] == qualified[1] == snapshot[1], qualified
    assert report["qualified"] == qualified[0] and report["players"] == seeded["players"]
    assert closed == (1,), closed

    # 7. The ledger audit.
    audit = run.manage("audit_ledger")
    assert audit.returncode == 0 and "PASS" in audit.stdout, audit.stdout + audit.stderr

    # Ready again after everything: the database (restarted), its migrations and the broker.
    wait_until("/readyz", lambda: browser.json("GET", "/readyz")[0] == 200, 15, every=0.2)

    # Nothing went wrong on the server side that the clients did not see either.
    log = run.server.log.read_text(encoding="utf-8", errors="replace")
    assert "Traceback" not in log, tail(run.server.log, 120)
    print(
        f"production run: {time.monotonic() - began:.1f} s, "
        f"{sum(t.hands_played for t in tablets)} hands, {len(entered)} actions, "
        f"{unavailable} × 503, {retried} writes retried, worker {killed} replaced, "
        f"close runs {runs}"
    )


# --------------------------------------------------------------------------------------------
# Pages through PostgreSQL restarts


def workers_connected(run: Run) -> set[int]:
    """The gunicorn workers that hold a connection to the private PostgreSQL."""
    workers = children(run.server.pid)
    with run.pg.connect() as conn:
        ports = conn.execute(
            "SELECT client_port FROM pg_stat_activity WHERE datname = %s AND client_port > 0 "
            "AND pid <> pg_backend_pid()",
            (DB_NAME,),
        ).fetchall()
    held = set()
    for (port,) in ports:
        inode = socket_inode(int(port), run.pg.port)
        pid = holder(workers, inode) if inode is not None else None
        if pid is not None:
            held.add(pid)
    return held


def test_pages_through_postgresql_restarts_answer_200_or_503_in_words_never_500(
    run: Run,
) -> None:
    seeded = run.seeded
    event, day = seeded["event"], seeded["day"]
    organiser = Browser(HOST, run.server.port)
    organiser.login(seeded["organiser"]["username"], seeded["organiser"]["password"])
    visitor = Browser(HOST, run.server.port)
    pages = [
        (organiser, f"/organiser/events/{event}/"),
        (organiser, f"/organiser/events/{event}/players/"),
        (organiser, f"/organiser/days/{day}/setup/"),
        (organiser, f"/api/v1/days/{day}/tables/"),
        (visitor, f"/standings/{event}/"),
        (visitor, "/"),
    ]
    logged_from = run.server.log.stat().st_size

    def ask(who: Browser, path: str) -> tuple[str, int, str, str]:
        status, headers, body = who.request("GET", path)
        return path, status, headers.get("retry-after", ""), body.decode(errors="replace")

    def every_page() -> list[tuple[str, int, str, str]]:
        """Every page, three times, three at a time: the requests reach every worker."""
        with ThreadPoolExecutor(WORKERS) as pool:
            return list(pool.map(lambda page: ask(*page), pages * 3))

    # 1. Every worker holds a connection to the PostgreSQL that is about to restart; nobody asks
    # anything while it restarts; then the pages again until every worker has connected anew.
    # Each worker's kept connection is dead, and is checked before use.
    before: list[tuple[str, int, str, str]] = []
    after: list[tuple[str, int, str, str]] = []

    def all_connected(answers: list[tuple[str, int, str, str]]) -> bool:
        answers += every_page()
        return len(workers_connected(run)) == WORKERS

    wait_until("every gunicorn worker to connect", lambda: all_connected(before), 60, every=0)
    run.pg.restart()
    wait_until("every gunicorn worker to connect again", lambda: all_connected(after), 60, every=0)
    assert [a[:2] for a in before + after if a[1] != 200] == [], "a dead connection was used"

    # 2. PostgreSQL restarts while the pages are asked for, four at a time.
    answers: list[tuple[str, int, str, str]] = []
    stop = threading.Event()

    def keep_asking(n: int) -> None:
        while not stop.is_set():
            who, path = pages[n % len(pages)]
            answers.append(ask(who, path))
            n += 1

    with ThreadPoolExecutor(4) as pool:
        asking = [pool.submit(keep_asking, n) for n in range(4)]
        try:
            wait_until("the pages' first answers", lambda: len(answers) >= 2 * len(pages), 60)
            run.pg.restart()
            restarted = len(answers)

            def all_well_again() -> bool:
                return len({a[0] for a in answers[restarted:] if a[1] == 200}) == len(pages)

            wait_until("every page to answer again", all_well_again, 60)
        finally:
            stop.set()
        for f in asking:
            f.result()
    statuses = Counter(status for _, status, _, _ in answers)
    assert set(statuses) <= {200, 503}, statuses
    unavailable = [a for a in answers if a[1] == 503]
    assert unavailable, f"the restart went unnoticed: {statuses}"
    for path, _, retry_after, body in unavailable:
        assert retry_after == "1", path
        if path.startswith("/api/"):
            assert json.loads(body)["error"]["code"] == UNAVAILABLE, body
        else:
            assert "Back in a moment" in body and "Nothing you sent was saved" in body, body

    with run.server.log.open("rb") as log:
        log.seek(logged_from)
        written = log.read().decode(errors="replace")
    assert "Traceback" not in written and "Internal Server Error" not in written, written[-4000:]
    assert "database unavailable" in written  # one line a refused request, as a warning
    print(f"pages through restarts: {len(after)} answers after a quiet restart, {statuses}")
