"""API load benchmark: ``python -m bench.api`` (``make bench-api``).

Serves the API with gunicorn on PostgreSQL and drives it with concurrent simulated tablets, one
per table, each playing random legal hands through HTTP with no pause between requests (a
closed loop, like pgbench's clients). In the same run, PostgreSQL's own ``pgbench`` (TPC-B, the
same number of clients, the same duration) measures the yardstick on this machine. Printed:

* actions per second (2xx answers to ``POST /hands/{id}/actions/`` and ``/cards/``) and the
  ratio to pgbench's transactions per second — target ≥ 15%;
* the latency of those requests (``time.perf_counter`` from sending to the last byte of the
  answer): p50, p95, p99, max — target p99 < 100 ms with 24 tablets;
* a reference measured in the same run, to read the ratio against: the same gunicorn and the
  same number of clients on two endpoints of ``bench.reference_urls`` served with the
  project's settings — a DRF view that only parses the body and answers a recorded action
  answer, and the same view running one pgbench TPC-B transaction — in requests per second and
  as a share of pgbench's rate. How many times the actions/s the TPC-B endpoint serves, against
  how many times the target allows, says how far an action is from the least it could cost.

Steps: a fresh database ``brag_bench`` (migrated, then seeded through the services by
``bench.api_seed``), gunicorn on a free port of 127.0.0.1, a warm-up, the timed load, then
``pgbench -i -s 10`` and ``pgbench -c <tablets> -j 2 -T <seconds>`` on a database of its own,
then the reference (``--reference-seconds`` each, ``--no-reference`` to skip). Both databases
are dropped and gunicorn is stopped at the end. The figures are also written as JSON to
``bench-results/api.json``. The exit code is 0 whether the targets pass or fail.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import math
import os
import platform
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

from bench.common import pg_arguments, print_result, spawn_logged, write_figures

from .api_tablet import RETRYABLE, Sample, Tablet

ROOT = Path(__file__).resolve().parent.parent
RESULTS = Path("bench-results") / "api.json"
BENCH_DB = "brag_bench"
PGBENCH_DB = "brag_pgbench"
HOST = "127.0.0.1"

RATIO_TARGET = 0.15  # actions/s ÷ pgbench TPC-B tps
P99_TARGET_MS = 100.0
ACTION_KINDS = ("action", "cards")


def say(line: str = "") -> None:
    """Progress, on stderr: stdout is kept for the report."""
    print(line, file=sys.stderr, flush=True)


# --------------------------------------------------------------------------------------------
# PostgreSQL


class Postgres:
    def __init__(self, host: str, port: int, user: str) -> None:
        self.host, self.port, self.user = host, port, user

    def url(self, db: str) -> str:
        return f"postgres://{self.user}@{self.host}:{self.port}/{db}"

    def env(self) -> dict[str, str]:
        return {**os.environ, "PGHOST": self.host, "PGPORT": str(self.port), "PGUSER": self.user}

    @contextlib.contextmanager
    def admin(self) -> Iterator[Any]:
        import psycopg

        with psycopg.connect(
            host=self.host, port=self.port, user=self.user, dbname="postgres", autocommit=True
        ) as conn:
            yield conn

    def recreate(self, db: str) -> None:
        with self.admin() as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{db}" WITH (FORCE)')
            conn.execute(f'CREATE DATABASE "{db}"')

    def drop(self, db: str) -> None:
        with self.admin() as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{db}" WITH (FORCE)')

    def backends(self, db: str) -> list[int]:
        """Process ids of the server processes serving connections to ``db``."""
        with self.admin() as conn:
            rows = conn.execute(
                "SELECT pid FROM pg_stat_activity WHERE datname = %s", (db,)
            ).fetchall()
        return [int(r[0]) for r in rows]

    def info(self) -> dict[str, str]:
        names = (
            "server_version",
            "max_connections",
            "shared_buffers",
            "fsync",
            "synchronous_commit",
        )
        with self.admin() as conn:
            return {n: str(conn.execute(f"SHOW {n}").fetchone()[0]) for n in names}


# --------------------------------------------------------------------------------------------
# The application: migrate, seed, serve


def django_env(pg: Postgres) -> dict[str, str]:
    return {
        **os.environ,
        "DATABASE_URL": pg.url(BENCH_DB),
        "DJANGO_SETTINGS_MODULE": "brag_event.settings",
        "DJANGO_DEBUG": "false",
        "DJANGO_ALLOWED_HOSTS": HOST,
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(40),
        # The server's speed flat out, not the write throttle's (a dealer's pace is far below).
        "BRAG_WRITE_RATE": "",
        "PYTHONUNBUFFERED": "1",
    }


def run_checked(cmd: list[str], env: dict[str, str], what: str) -> str:
    done = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        sys.stderr.write(done.stdout[-4000:] + done.stderr[-4000:])
        raise SystemExit(f"bench.api: {what} failed (exit {done.returncode})")
    return done.stdout


def settings_check(env: dict[str, str]) -> dict[str, Any]:
    code = (
        "import json; from django.conf import settings as s; d = s.DATABASES['default']; "
        "print(json.dumps({'engine': d['ENGINE'], 'conn_max_age': d.get('CONN_MAX_AGE'), "
        "'conn_health_checks': d.get('CONN_HEALTH_CHECKS'), 'debug': s.DEBUG}))"
    )
    out = run_checked(
        [sys.executable, "manage.py", "shell", "-c", code], env, "reading the settings"
    )
    return dict(json.loads(out.strip().splitlines()[-1]))


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


TICK = os.sysconf("SC_CLK_TCK")


def proc_stat(pid: int) -> tuple[int, float] | None:
    """(process group, CPU seconds user + system) of a process, from /proc."""
    try:
        raw = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = raw[raw.rindex(")") + 2 :].split()
    return int(fields[2]), (int(fields[11]) + int(fields[12])) / TICK


def group_cpu(pgid: int) -> dict[int, float]:
    """CPU seconds of every live process in a process group."""
    out: dict[int, float] = {}
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            stat = proc_stat(int(entry.name))
            if stat is not None and stat[0] == pgid:
                out[int(entry.name)] = stat[1]
    return out


def pids_cpu(pids: list[int]) -> dict[int, float]:
    out: dict[int, float] = {}
    for pid in pids:
        stat = proc_stat(pid)
        if stat is not None:
            out[pid] = stat[1]
    return out


def machine_ticks() -> tuple[int, int]:
    """(busy, total) CPU ticks of the whole machine since boot, from /proc/stat."""
    with contextlib.suppress(OSError):
        values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
        idle = values[3] + (values[4] if len(values) > 4 else 0)
        return sum(values[:8]) - idle, sum(values[:8])
    return 0, 0


def cpu_delta(before: dict[int, float], after: dict[int, float]) -> float:
    return sum(v - before.get(pid, 0.0) for pid, v in after.items())


class Server:
    """gunicorn in a process group of its own, so that stopping it leaves nothing behind."""

    def __init__(
        self,
        env: dict[str, str],
        *,
        workers: int,
        worker_class: str,
        threads: int,
        preload: bool,
        ready: tuple[str, tuple[int, ...]] = ("/api/v1/me/", (401, 403)),
        config: Path | None = None,
    ) -> None:
        self.port = free_port()
        self.ready = ready  # a path to GET and the statuses that mean the app is up
        self.logdir = Path(tempfile.mkdtemp(prefix="bench-api-"))
        self.log = self.logdir / "gunicorn.log"
        self.cmd = [
            sys.executable,
            "-m",
            "gunicorn",
            "brag_event.wsgi:application",
            "--bind",
            f"{HOST}:{self.port}",
            "--workers",
            str(workers),
            "--worker-class",
            worker_class,
            "--error-logfile",
            str(self.log),
            "--log-level",
            "warning",
        ]
        if worker_class == "gthread":
            self.cmd += ["--threads", str(threads)]
        if preload:
            self.cmd.append("--preload")
        if config is not None:  # deploy's configuration; the options above override it
            self.cmd += ["-c", str(config)]
        self.env = env
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 60.0) -> float:
        began = time.perf_counter()
        # The workers' stderr (Python's last-resort logging of unexpected errors) joins the log.
        self.proc = spawn_logged(self.cmd, self.log, cwd=ROOT, env=self.env)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                self.dump_log()
                raise SystemExit(f"bench.api: gunicorn exited with {self.proc.returncode}")
            try:
                conn = http.client.HTTPConnection(HOST, self.port, timeout=5)
                conn.request("GET", self.ready[0])
                status = conn.getresponse().status
                conn.close()
                if status in self.ready[1]:
                    return time.perf_counter() - began
            except OSError:
                pass
            time.sleep(0.1)
        self.dump_log()
        raise SystemExit("bench.api: gunicorn did not answer in time")

    def dump_log(self, lines: int = 40) -> None:
        if self.log.exists():
            tail = self.log.read_text(encoding="utf-8", errors="replace").splitlines()[-lines:]
            sys.stderr.write("gunicorn log:\n" + "\n".join(tail) + "\n")

    def log_errors(self) -> list[str]:
        if not self.log.exists():
            return []
        text = self.log.read_text(encoding="utf-8", errors="replace")
        return [
            line
            for line in text.splitlines()
            if "ERROR" in line or "Traceback" in line or "Error" in line
        ]

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def stop(self) -> bool:
        """SIGTERM to the whole group, SIGKILL after 15 s; True when no process is left."""
        if self.proc is None:
            return True
        pgid = self.proc.pid
        with contextlib.suppress(ProcessLookupError):
            os.killpg(pgid, signal.SIGTERM)
        try:
            self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(pgid, signal.SIGKILL)
            self.proc.wait(timeout=5)
        for _ in range(50):  # workers may outlive the arbiter by a moment
            try:
                os.killpg(pgid, 0)
            except ProcessLookupError:
                return True
            time.sleep(0.1)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(pgid, signal.SIGKILL)
        time.sleep(0.2)
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return True
        return False

    def cleanup(self) -> None:
        shutil.rmtree(self.logdir, ignore_errors=True)


# --------------------------------------------------------------------------------------------
# Load


def drive(
    port: int,
    seeded: dict[str, Any],
    *,
    seconds: float,
    warmup: float,
    think: float,
    seed: int,
    probe: Callable[[], Any],
) -> tuple[list[Tablet], float, float, Any, Any]:
    """Every tablet plays at its table for ``warmup + seconds``; returns the tablets, the timed
    window (perf_counter values) and what ``probe()`` answered at its start and its end."""
    tablets = [
        Tablet(
            host=HOST,
            port=port,
            table_id=t["id"],
            token=t["token"],
            seats=seeded["players"],
            ante=seeded["ante"],
            buy_in=seeded["table_max"],
            seed=seed * 1000 + t["number"],
            think=think,
        )
        for t in seeded["tables"]
    ]
    stop = threading.Event()
    threads = [
        threading.Thread(target=t.run, args=(stop,), name=f"tablet-{i}", daemon=True)
        for i, t in enumerate(tablets, start=1)
    ]
    for th in threads:
        th.start()
    time.sleep(warmup)
    first = probe()
    t0 = time.perf_counter()
    time.sleep(seconds)
    t1 = time.perf_counter()
    last = probe()
    stop.set()
    for th in threads:
        th.join(timeout=90)
    return tablets, t0, t1, first, last


# --------------------------------------------------------------------------------------------
# Reference: the least a request costs on this stack, measured in the same run


REFERENCE_ENDPOINTS = (
    ("noop", "DRF, no database"),
    ("tpcb", "DRF + one TPC-B transaction"),
)


def representative_answer(tablets: list[Tablet]) -> bytes:
    """The median-sized last action answer of the tablets: what the reference endpoints send."""
    answers = sorted((t.last_answer for t in tablets if t.last_answer), key=len)
    return answers[len(answers) // 2] if answers else b"{}"


def hammer(port: int, path: str, *, clients: int, seconds: float, warmup: float) -> dict[str, Any]:
    """``clients`` threads POST to ``path`` in a closed loop, the way the tablets do (a JSON body,
    a fresh Idempotency-Key, the answer read and parsed); returns the rate and latency of the 2xx
    answers in the timed window and the number of other answers."""
    body = json.dumps({"expected_seq": 7, "action": "bet", "seat": 3, "amount": 40}).encode()
    stop = threading.Event()
    done: list[list[Sample]] = [[] for _ in range(clients)]
    failed = [0] * clients

    def run(i: int) -> None:
        conn = http.client.HTTPConnection(HOST, port, timeout=60)
        headers = {
            "Content-Type": "application/json",
            "Accept": "application/json",
            "User-Agent": f"bench-api reference {i}",
        }
        while not stop.is_set():
            headers["Idempotency-Key"] = uuid.uuid4().hex
            t0 = time.perf_counter()
            try:
                conn.request("POST", path, body=body, headers=headers)
                response = conn.getresponse()
                raw = response.read()
            except (TimeoutError, *RETRYABLE):
                conn.close()
                failed[i] += 1
                continue
            end = time.perf_counter()
            if 200 <= response.status < 300:
                json.loads(raw)
                done[i].append(Sample("reference", end, end - t0, response.status))
            else:  # e.g. an HTML 500 page: counted and reported, never parsed
                failed[i] += 1
        conn.close()

    threads = [threading.Thread(target=run, args=(i,), daemon=True) for i in range(clients)]
    for th in threads:
        th.start()
    time.sleep(warmup)
    t0 = time.perf_counter()
    time.sleep(seconds)
    t1 = time.perf_counter()
    stop.set()
    for th in threads:
        th.join(timeout=90)
    timed = [s for samples in done for s in samples if t0 <= s.end <= t1]
    return {
        "path": path,
        "requests": len(timed),
        "requests_per_s": len(timed) / (t1 - t0),
        "latency_ms": latency_ms(timed),
        "failed": sum(failed),
    }


def percentile(sorted_values: list[float], q: float) -> float:
    """Nearest-rank percentile of an ascending list."""
    if not sorted_values:
        return math.nan
    rank = max(1, math.ceil(q * len(sorted_values)))
    return sorted_values[rank - 1]


def latency_ms(samples: list[Sample]) -> dict[str, float]:
    return summary([s.seconds * 1000 for s in samples])


def summary(values_ms: list[float]) -> dict[str, float]:
    """Count, mean, p50, p95, p99 and max of times in milliseconds."""
    values = sorted(values_ms)
    return {
        "count": len(values),
        "mean": sum(values) / len(values) if values else math.nan,
        "p50": percentile(values, 0.50),
        "p95": percentile(values, 0.95),
        "p99": percentile(values, 0.99),
        "max": values[-1] if values else math.nan,
    }


# --------------------------------------------------------------------------------------------
# pgbench


TPS = re.compile(r"^tps = ([0-9.]+) \((?:without initial connection time|excluding conn)")
TPS_ANY = re.compile(r"^tps = ([0-9.]+)")
LAT = re.compile(r"^latency average = ([0-9.]+) ms")


def pgbench(pg: Postgres, *, clients: int, seconds: int, scale: int) -> dict[str, Any]:
    pg.recreate(PGBENCH_DB)
    env = pg.env()
    t = time.perf_counter()
    run_checked(["pgbench", "-i", "-q", "-s", str(scale), PGBENCH_DB], env, "pgbench -i")
    init_s = time.perf_counter() - t
    cmd = ["pgbench", "-c", str(clients), "-j", "2", "-T", str(seconds), PGBENCH_DB]
    out = run_checked(cmd, env, "pgbench")
    lines = out.splitlines()
    # Older pgbench printed "including" and "excluding connections establishing": the latter.
    precise = [float(m.group(1)) for x in lines if (m := TPS.match(x))]
    plain = [float(m.group(1)) for x in lines if (m := TPS_ANY.match(x))]
    tps = (precise or plain)[0] if precise or plain else None
    latencies = [float(m.group(1)) for x in lines if (m := LAT.match(x))]
    latency = latencies[0] if latencies else None
    if tps is None:
        sys.stderr.write(out)
        raise SystemExit("bench.api: could not read pgbench's tps")
    return {
        "command": " ".join(cmd),
        "scale": scale,
        "clients": clients,
        "threads": 2,
        "seconds": seconds,
        "init_seconds": init_s,
        "tps": tps,
        "latency_avg_ms": latency,
    }


# --------------------------------------------------------------------------------------------
# Report


def verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL  <<<"


def package_version(name: str) -> str:
    try:
        return version(name)
    except PackageNotFoundError:
        return "?"


def cpu_model() -> str:
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return platform.processor() or platform.machine()


def machine() -> dict[str, Any]:
    return {
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpu": cpu_model(),
        "cpu_count": os.cpu_count(),
        "loadavg": list(os.getloadavg()),
        "django": package_version("Django"),
        "djangorestframework": package_version("djangorestframework"),
        "gunicorn": package_version("gunicorn"),
        "psycopg": package_version("psycopg"),
    }


def line(label: str, value: str) -> str:
    return f"  {label:<34}{value}"


def main(argv: list[str] | None = None) -> int:
    cores = os.cpu_count() or 1
    parser = argparse.ArgumentParser(prog="python -m bench.api", description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=24, help="tables, one tablet each")
    parser.add_argument("--seconds", type=int, default=30, help="timed load (and pgbench -T)")
    parser.add_argument("--warmup", type=float, default=3.0, help="untimed load first (s)")
    parser.add_argument("--quick", action="store_true", help="a ~10 s smoke run")
    parser.add_argument(
        "--workers", type=int, default=cores + 1, help="gunicorn workers (deploy's default)"
    )
    parser.add_argument(
        "--worker-class", choices=("sync", "gthread"), default="sync", help="gunicorn workers"
    )
    parser.add_argument("--threads", type=int, default=4, help="threads per gthread worker")
    parser.add_argument("--no-preload", action="store_true", help="no gunicorn --preload")
    parser.add_argument("--think-ms", type=float, default=0.0, help="mean pause per action")
    parser.add_argument("--scale", type=int, default=10, help="pgbench -i -s")
    parser.add_argument("--no-pgbench", action="store_true", help="skip the yardstick")
    parser.add_argument(
        "--reference-seconds", type=float, default=10.0, help="timed load of each reference"
    )
    parser.add_argument("--no-reference", action="store_true", help="skip the reference endpoints")
    parser.add_argument("--keep-db", action="store_true", help="keep brag_bench afterwards")
    parser.add_argument("--seed", type=int, default=2026)
    pg_arguments(parser, HOST)
    parser.add_argument("--json", type=Path, default=RESULTS, help="where to write the figures")
    args = parser.parse_args(argv)
    if args.quick:
        args.seconds, args.warmup, args.reference_seconds = 8, 2.0, 4.0
    preload = not args.no_preload

    pg = Postgres(args.pg_host, args.pg_port, args.pg_user)
    env = django_env(pg)
    server: Server | None = None
    stray = False
    reference: dict[str, Any] = {}
    try:
        # 1. Database.
        say(f"bench.api: creating {BENCH_DB}, migrating, seeding {args.tables} tables …")
        t = time.perf_counter()
        pg.recreate(BENCH_DB)
        run_checked(
            [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], env, "migrate"
        )
        seed_cmd = [sys.executable, "-m", "bench.api_seed", "--tables", str(args.tables)]
        seeded = json.loads(run_checked(seed_cmd, env, "seeding").strip().splitlines()[-1])
        setup_s = time.perf_counter() - t
        conf = settings_check(env)
        say(f"bench.api: {len(seeded['tables'])} tables seeded in {setup_s:.1f} s")

        # 2. Server.
        server = Server(
            env,
            workers=args.workers,
            worker_class=args.worker_class,
            threads=args.threads,
            preload=preload,
        )
        boot_s = server.start()
        say(f"bench.api: gunicorn answers on port {server.port} after {boot_s:.1f} s")

        # 3. Load.
        say(f"bench.api: {args.tables} tablets, {args.warmup:g} s warm-up + {args.seconds} s …")
        load_before = os.getloadavg()
        pgid = server.pid

        def probe() -> dict[str, Any]:
            return {
                "gunicorn": group_cpu(pgid),
                "postgres": pids_cpu(pg.backends(BENCH_DB)),
                "client": time.process_time(),
                "machine": machine_ticks(),
            }

        tablets, t0, t1, first, last = drive(
            server.port,
            seeded,
            seconds=args.seconds,
            warmup=args.warmup,
            think=args.think_ms / 1000,
            seed=args.seed,
            probe=probe,
        )
        load_after = os.getloadavg()
        errors_logged = server.log_errors()
        stray = not server.stop()
        server.cleanup()
        server_cmd = " ".join(["gunicorn", *server.cmd[3:]]).replace(str(server.log), "<log>")
        server = None

        # 4. Yardstick.
        pgb: dict[str, Any] | None = None
        if not args.no_pgbench:
            say(f"bench.api: pgbench -i -s {args.scale}, then {args.seconds} s of TPC-B …")
            pgb = pgbench(pg, clients=args.tables, seconds=args.seconds, scale=args.scale)

        # 5. Reference: the same gunicorn and clients on endpoints that do (almost) nothing.
        if not args.no_reference:
            handle, name = tempfile.mkstemp(prefix="bench-api-answer-", suffix=".json")
            os.close(handle)
            answer = Path(name)
            answer.write_bytes(representative_answer(tablets))
            server = Server(
                {
                    **env,
                    "DJANGO_SETTINGS_MODULE": "bench.reference_settings",
                    "BENCH_REFERENCE_ANSWER": str(answer),
                    "BENCH_PGBENCH_DB": PGBENCH_DB,
                    "BENCH_PGBENCH_SCALE": str(args.scale),
                },
                workers=args.workers,
                worker_class=args.worker_class,
                threads=args.threads,
                preload=preload,
                ready=("/reference/noop/", (405,)),
            )
            try:
                server.start()
                for name, label in REFERENCE_ENDPOINTS:
                    if name == "tpcb" and pgb is None:
                        continue
                    say(f"bench.api: reference, {label}: {args.reference_seconds:g} s …")
                    reference[name] = {
                        "label": label,
                        **hammer(
                            server.port,
                            f"/reference/{name}/",
                            clients=args.tables,
                            seconds=args.reference_seconds,
                            warmup=1.0,
                        ),
                    }
                reference["answer_bytes"] = answer.stat().st_size
                reference["server_errors"] = server.log_errors()
            finally:
                answer.unlink(missing_ok=True)
                stray = not server.stop() or stray
                server.cleanup()
                server = None
        pg_info = pg.info()
    finally:
        if server is not None:
            stray = not server.stop() or stray
            server.cleanup()
        with contextlib.suppress(Exception):
            pg.drop(PGBENCH_DB)
        if not args.keep_db:
            with contextlib.suppress(Exception):
                pg.drop(BENCH_DB)

    # 5. Figures.
    window = t1 - t0
    samples = [s for tab in tablets for s in tab.stats.samples]
    timed = [s for s in samples if t0 <= s.end <= t1]
    ok_actions = [s for s in timed if s.kind in ACTION_KINDS and 200 <= s.status < 300]
    others = [s for s in timed if s.kind not in ACTION_KINDS and 200 <= s.status < 300]
    bad = Counter((s.kind, s.status, s.code) for s in samples if not 200 <= s.status < 300)
    lat = latency_ms(ok_actions)
    rate = len(ok_actions) / window
    lengths = [n for t in tablets for when, n in t.stats.settled if t0 <= when <= t1]
    hands = len(lengths)
    mean_len = sum(lengths) / len(lengths) if lengths else math.nan
    failures = [f"table {t.table_id}: {f}" for t in tablets for f in t.stats.failures]
    ratio = rate / pgb["tps"] if pgb else math.nan
    ratio_ok = bool(pgb) and ratio >= RATIO_TARGET
    p99_ok = lat["p99"] < P99_TARGET_MS
    busy = last["machine"][0] - first["machine"][0]
    total = last["machine"][1] - first["machine"][1]
    cpu = {
        "gunicorn_s": cpu_delta(first["gunicorn"], last["gunicorn"]),
        "postgres_backends_s": cpu_delta(first["postgres"], last["postgres"]),
        "client_s": last["client"] - first["client"],
        "machine_busy_s": busy / TICK if total else math.nan,
        "machine_busy_fraction": busy / total if total else math.nan,
    }
    cpu["others_s"] = cpu["machine_busy_s"] - (
        cpu["gunicorn_s"] + cpu["postgres_backends_s"] + cpu["client_s"]
    )
    n_act = max(1, len(ok_actions))
    per_action = {
        k: cpu[f"{k}_s"] * 1000 / n_act for k in ("gunicorn", "postgres_backends", "client")
    }
    server_ms = per_action["gunicorn"] + per_action["postgres_backends"]
    info = machine()
    gunicorn_desc = (
        f"{args.workers} {args.worker_class} workers"
        + (f" × {args.threads} threads" if args.worker_class == "gthread" else "")
        + (", --preload" if preload else "")
    )

    print("Brag Event API load benchmark")
    print(
        f"  {info['cpu']}, {info['cpu_count']} CPUs; Python {info['python']}, Django "
        f"{info['django']}, DRF {info['djangorestframework']}, gunicorn {info['gunicorn']}, "
        f"PostgreSQL {pg_info['server_version']}"
    )
    print(
        f"  PostgreSQL: shared_buffers {pg_info['shared_buffers']}, fsync {pg_info['fsync']}, "
        f"synchronous_commit {pg_info['synchronous_commit']}; CONN_MAX_AGE "
        f"{conf['conn_max_age']}, DEBUG {conf['debug']}"
    )
    print(f"  gunicorn: {gunicorn_desc} on {HOST} (DJANGO_DEBUG=false)")
    print(
        f"  load average before/after the load: {load_before[0]:.2f} / {load_after[0]:.2f} (1 min)"
    )
    print()
    print(
        f"Load: {args.tables} tablets (threads, one persistent http.client connection each), "
        f"one per table of 6 players, think time {args.think_ms:g} ms"
    )
    print(line("timed window", f"{window:.1f} s after {args.warmup:g} s of warm-up"))
    print(line("actions (2xx actions + cards)", f"{len(ok_actions):,}"))
    print(
        line(
            "hands settled",
            f"{hands:,} ({hands / window:.1f}/s; {mean_len:.1f} actions per hand)",
        )
    )
    print(line("actions/s", f"{rate:,.1f}"))
    print(
        line(
            "latency ms p50 / p95 / p99 / max",
            f"{lat['p50']:.1f} / {lat['p95']:.1f} / {lat['p99']:.1f} / {lat['max']:.1f}"
            f"   (mean {lat['mean']:.1f})",
        )
    )
    if others:
        olat = latency_ms(others)
        kinds = Counter(s.kind for s in others)
        print(
            line(
                "other requests (not counted)",
                ", ".join(f"{k} {n}" for k, n in sorted(kinds.items()))
                + f"; p50 {olat['p50']:.1f} ms, p99 {olat['p99']:.1f} ms",
            )
        )
    if pgb:
        print(
            line(
                "pgbench TPC-B tps",
                f"{pgb['tps']:,.1f}   (-s {pgb['scale']} -c {pgb['clients']} -j 2 "
                f"-T {pgb['seconds']}; latency avg {pgb['latency_avg_ms']} ms)",
            )
        )
        print(
            line(
                "ratio actions/s ÷ pgbench tps",
                f"{ratio:.1%}   target ≥ {RATIO_TARGET:.0%}   {verdict(ratio_ok)}",
            )
        )
    else:
        print(line("pgbench", "skipped (--no-pgbench)"))
    print(
        line(
            "p99 latency",
            f"{lat['p99']:.1f} ms   target < {P99_TARGET_MS:g} ms   {verdict(p99_ok)}",
        )
    )
    if reference:
        print(
            f"  reference, same gunicorn and clients, {args.reference_seconds:g} s each "
            f"(answer {reference['answer_bytes']:,} bytes):"
        )
        for name, _label in REFERENCE_ENDPOINTS:
            if name in reference:
                ref = reference[name]
                share = f" = {ref['requests_per_s'] / pgb['tps']:.1%} of pgbench" if pgb else ""
                print(
                    line(
                        f"  {ref['label']}",
                        f"{ref['requests_per_s']:,.0f} req/s{share}; p99 "
                        f"{ref['latency_ms']['p99']:.1f} ms"
                        + (f"; {ref['failed']} failed" if ref["failed"] else ""),
                    )
                )
        if pgb and "tpcb" in reference:
            tpcb = reference["tpcb"]["requests_per_s"]
            allowed = tpcb / (RATIO_TARGET * pgb["tps"])
            reference["tpcb_rate_over_actions_rate"] = tpcb / rate if rate else math.nan
            reference["tpcb_rate_over_actions_rate_target_max"] = allowed
            print(
                line(
                    "  TPC-B endpoint ÷ actions/s",
                    f"{reference['tpcb_rate_over_actions_rate']:.2f}; the {RATIO_TARGET:.0%} "
                    f"target needs at most {allowed:.2f}",
                )
            )
        if reference["server_errors"]:
            print(
                f"  the reference server logged {len(reference['server_errors'])} error line(s), "
                f"e.g. {reference['server_errors'][0]}"
            )
    print(
        line(
            "CPU ms per action",
            f"gunicorn {per_action['gunicorn']:.1f} + PostgreSQL backends "
            f"{per_action['postgres_backends']:.1f} = {server_ms:.1f}; tablets "
            f"{per_action['client']:.1f}",
        )
    )
    print(
        line(
            "machine CPU in the window",
            f"{cpu['machine_busy_fraction']:.0%} busy of {cores} cores; other processes "
            f"{cpu['others_s'] / window:.2f} cores",
        )
    )
    ceiling = cores * 1000 / server_ms if server_ms else math.nan
    print("  for context (derived from the figures above):")
    print(
        line(
            "  CPU-bound ceiling",
            f"{cores} cores ÷ {server_ms:.1f} ms ≈ {ceiling:,.0f} actions/s"
            + (f" = {ceiling / pgb['tps']:.1%} of pgbench" if pgb else "")
            + " if the machine were ours alone",
        )
    )
    print(
        line(
            "  closed loop (Little's law)",
            f"mean latency ≈ {args.tables} tablets ÷ rate; p99 < {P99_TARGET_MS:g} ms needs > "
            f"{args.tables * 1000 / P99_TARGET_MS:,.0f} actions/s",
        )
    )
    print()
    if bad:
        print("Non-2xx answers (whole run, warm-up included):")
        for (kind, status, code), n in sorted(bad.items()):
            print(f"  {kind:<8}{status}  {code or '-':<28}{n:>6}")
    else:
        print("Non-2xx answers: none")
    retries = sum(t.stats.retries for t in tablets)
    rebuys = sum(t.stats.rebuys for t in tablets)
    forced = sum(t.forced for t in tablets)
    redraws = sum(t.stats.resyncs for t in tablets)
    print(
        f"Reconnect retries {retries}, redraws after an unexpected answer {redraws}, "
        f"leave-and-buy-in of players run out {rebuys}, hands forced to an end {forced}"
    )
    for f in failures:
        print(f"  tablet stopped: {f}")
    if errors_logged:
        print(f"gunicorn logged {len(errors_logged)} error line(s), e.g. {errors_logged[0]}")
    if stray:
        print("WARNING: some gunicorn processes could not be stopped")
    print()
    print_result({"throughput": ratio_ok, "p99": p99_ok})

    results = {
        "machine": info,
        "postgres": pg_info,
        "django": conf,
        "quick": args.quick,
        "gunicorn": {
            "command": server_cmd,
            "workers": args.workers,
            "worker_class": args.worker_class,
            "threads": args.threads if args.worker_class == "gthread" else 1,
            "preload": preload,
            "boot_seconds": boot_s,
        },
        "load": {
            "tablets": args.tables,
            "think_ms": args.think_ms,
            "warmup_seconds": args.warmup,
            "window_seconds": window,
            "actions": len(ok_actions),
            "actions_per_s": rate,
            "hands_settled": hands,
            "actions_per_hand_mean": mean_len,
            "latency_ms": lat,
            "other_requests": len(others),
            "loadavg_before": list(load_before),
            "loadavg_after": list(load_after),
            "non_2xx": [
                {"kind": k, "status": s, "code": c, "count": n} for (k, s, c), n in bad.items()
            ],
            "reconnect_retries": retries,
            "redraws": redraws,
            "rebuys": rebuys,
            "forced_folds": forced,
            "tablet_failures": failures,
            "server_error_lines": len(errors_logged),
            "cpu_seconds": cpu,
            "cpu_ms_per_action": {**per_action, "server": server_ms},
            "cpu_bound_ceiling_actions_per_s": ceiling,
        },
        "pgbench": pgb,
        "reference": reference or None,
        "targets": {
            "ratio": ratio if pgb else None,
            "ratio_target": RATIO_TARGET,
            "ratio_pass": ratio_ok,
            "p99_ms": lat["p99"],
            "p99_target_ms": P99_TARGET_MS,
            "p99_pass": p99_ok,
        },
        "setup_seconds": setup_s,
    }
    return write_figures(args.json, results)


if __name__ == "__main__":
    sys.exit(main())
