"""Ledger audit benchmark: ``python -m bench.audit`` (``make bench-audit``).

Measures the full ledger audit (``ledger_audit(event=…)``, what the day close and ``manage.py
audit_ledger`` run) on a big event, against a reference measured in the same run on the same
hands: **the bare replay** — reading every hand and its live actions (the same streamed queries
the audit uses) and replaying each through the engine, with nothing compared and nothing else
checked. That is the least any audit that replays every hand must do; the audit adds the
transfers of every hand, the comparison and the five set-based checks.

Steps: a fresh database ``brag_bench_audit`` (created and migrated like ``bench.standings``');
two events seeded by ``bench.ledger_seed`` (the services play a cycle of hands at every table,
bulk SQL copies it; every hand's transfers are written, so the ledger is right): a small one
(``--small-hands``, default 20,000) and a big one (``--hands``, default 100,000). The audit must
PASS on both before anything is timed. Then, for each event, ``--repeat`` rounds of: the bare
replay, the full audit — each in its own consistent snapshot, each timed (wall clock) and its
peak memory taken as the process's peak resident set (VmHWM, reset before each step through
/proc/self/clear_refs) above the resident set when the step started. Last, on the big event,
the periodic check (``ledger_check_run``) twice: the first replays every hand and records them,
the second replays only what changed since.

Printed: per event, the best time of each and the ratio audit ÷ bare replay (target ≤ 1.5×),
the peak memory of each and the ratio of the audit's peak on the big event to its peak on the
small one (memory must not grow with the number of hands: target ≤ 1.25× for 5× the hands).
The figures are also written as JSON to ``bench-results/audit.json``. The database is dropped at
the end (unless ``--keep-db``). The exit code is 0 whether the targets pass or fail.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .api import Postgres, machine, say
from .common import bench_database, pg_arguments, print_result, write_figures
from .standings import ROOT, migrate, setup_django

RESULTS = Path("bench-results") / "audit.json"
BENCH_DB = "brag_bench_audit"
HOST = "127.0.0.1"
TIME_TARGET = 1.5  # audit ÷ bare replay
MEMORY_TARGET = 1.25  # audit's peak on the big event ÷ on the small one


def _status_kib(key: str) -> int:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    raise RuntimeError(f"no {key} in /proc/self/status")


def measured(step: Callable[[], Any]) -> tuple[float, float, Any]:
    """(seconds, peak MiB above the resident set at the start, result) of ``step()``."""
    gc.collect()
    with open("/proc/self/clear_refs", "w", encoding="ascii") as refs:
        refs.write("5")  # resets VmHWM (the peak resident set) to the current resident set
    base = _status_kib("VmRSS")
    t = time.perf_counter()
    result = step()
    seconds = time.perf_counter() - t
    peak = _status_kib("VmHWM")
    return seconds, (peak - base) / 1024, result


def bare_replay(event_id: int) -> int:
    """Every hand of the event and its live actions, streamed, replayed through the engine."""
    from brag_event.hands.audit import ByHand, hand_rows, live_action_rows
    from brag_event.hands.models import Hand
    from brag_event.hands.money import log_action, replay_actions
    from brag_event.ledger.checks import consistent_snapshot

    n = 0
    with consistent_snapshot():
        hands = Hand.objects.filter(table__day__event_id=event_id)
        actions = ByHand(live_action_rows(hands))
        for hand in hand_rows(hands):
            replay_actions(hand, (log_action(row) for _id, row in actions.take(hand.id)))
            n += 1
    return n


def full_audit(event_id: int) -> Any:
    from brag_event.events.models import Event
    from brag_event.ledger.audit import ledger_audit
    from brag_event.ledger.checks import consistent_snapshot

    with consistent_snapshot():
        return ledger_audit(event=Event.objects.get(pk=event_id))


STEPS: dict[str, Callable[[int], Any]] = {
    "bare": bare_replay,
    "audit": lambda event_id: full_audit(event_id).ok,
    "periodic": lambda event_id: periodic_check(event_id),
}


def periodic_check(event_id: int) -> str:
    from brag_event.events.models import Event
    from brag_event.ledger.checks import ledger_check_run

    check = ledger_check_run(event=Event.objects.get(pk=event_id))
    assert check.ok, check.lines
    return next(ln for ln in check.lines if "hands replayed" in ln).strip()


def run_step(url: str, step: str, event_id: int) -> dict[str, Any]:
    """One step in a fresh process (``--step``): its time and its own peak memory, with nothing
    left on the heap by the steps before it."""
    cmd = [sys.executable, "-m", "bench.audit", "--step", step, "--event", str(event_id)]
    env = {**os.environ, "DATABASE_URL": url, "DJANGO_SETTINGS_MODULE": "brag_event.settings"}
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False, cwd=ROOT)
    if done.returncode != 0:
        sys.stderr.write(done.stdout[-4000:] + done.stderr[-4000:])
        raise SystemExit(f"bench.audit: step {step} failed (exit {done.returncode})")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def step_main(step: str, event_id: int) -> int:
    import django

    django.setup()
    from django.db import connection

    connection.ensure_connection()
    # Imported first, so that the step's peak is what it reads and keeps, not the code it loads.
    import brag_event.events.models
    import brag_event.hands.money
    import brag_event.ledger.audit
    import brag_event.ledger.checks  # noqa: F401

    seconds, mib, result = measured(lambda: STEPS[step](event_id))
    print(json.dumps({"seconds": seconds, "peak_mib": mib, "result": result}))
    return 0


def line(label: str, value: str) -> str:
    return f"  {label:<40}{value}"


def main(argv: list[str] | None = None) -> int:
    doc = __doc__ or ""
    parser = argparse.ArgumentParser(prog="python -m bench.audit", description=doc[:60])
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--small-hands", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=2, help="rounds of replay + audit")
    parser.add_argument("--keep-db", action="store_true", help=f"keep {BENCH_DB} afterwards")
    pg_arguments(parser, HOST)
    parser.add_argument("--json", type=Path, default=RESULTS, help="where to write the figures")
    parser.add_argument("--step", choices=sorted(STEPS), help=argparse.SUPPRESS)
    parser.add_argument("--event", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.step:
        return step_main(args.step, args.event)

    pg = Postgres(args.pg_host, args.pg_port, args.pg_user)
    url = pg.url(BENCH_DB)
    sizes = {"small": args.small_hands, "big": args.hands}
    seeded: dict[str, dict[str, Any]] = {}
    runs: dict[str, dict[str, list[tuple[float, float]]]] = {}
    periodic: dict[str, Any] = {}
    with bench_database(pg, BENCH_DB, keep=args.keep_db):
        say(f"bench.audit: creating {BENCH_DB} and migrating …")
        pg.recreate(BENCH_DB)
        migrate(
            {**os.environ, "DATABASE_URL": url, "DJANGO_SETTINGS_MODULE": "brag_event.settings"}
        )
        setup_django(url)
        from bench.ledger_seed import seed_event

        for size, hands in sizes.items():
            say(f"bench.audit: seeding {args.players} players and {hands:,} hands ({size}) …")
            seeded[size] = seed_event(f"Audit bench {hands}", args.players, hands)
            say(
                f"bench.audit: seeded {seeded[size]['hands']:,} hands in "
                f"{seeded[size]['services_seconds']:.1f} s (services) + "
                f"{seeded[size]['bulk_sql_seconds']:.1f} s (bulk SQL)"
            )
        for size in sizes:
            event_id = seeded[size]["event"]
            say(f"bench.audit: checking that the {size} event passes the audit …")
            report = full_audit(event_id)
            if not report.ok:
                print("\n".join(report.lines()))
                raise SystemExit("bench.audit: the seeded ledger fails the audit")
        from django.db import connections

        connections.close_all()
        for size in sizes:
            event_id = seeded[size]["event"]
            runs[size] = {"bare": [], "audit": []}
            for i in range(args.repeat):
                for kind, label in (("bare", "bare replay"), ("audit", "full audit")):
                    say(f"bench.audit: {size}, round {i + 1}/{args.repeat}: {label} …")
                    done = run_step(url, kind, event_id)
                    if kind == "bare":
                        assert done["result"] == seeded[size]["hands"], done
                    else:
                        assert done["result"] is True, done
                    runs[size][kind].append((done["seconds"], done["peak_mib"]))
        say("bench.audit: the periodic check on the big event, twice …")
        for name in ("first", "next"):
            done = run_step(url, "periodic", seeded["big"]["event"])
            periodic[name] = {
                "seconds": done["seconds"],
                "peak_mib": done["peak_mib"],
                "line": done["result"],
            }
        from django.db import connection

        connection.close()
        pg_info = pg.info()

    info = machine()
    best = {
        size: {
            kind: (min(s for s, _m in values), max(m for _s, m in values))
            for kind, values in by_kind.items()
        }
        for size, by_kind in runs.items()
    }
    print("Brag Event ledger audit benchmark")
    print(
        f"  {info['cpu']}, {info['cpu_count']} CPUs; Python {info['python']}, Django "
        f"{info['django']}, PostgreSQL {pg_info['server_version']} "
        f"(shared_buffers {pg_info['shared_buffers']}); load average {os.getloadavg()[0]:.2f}"
    )
    print(
        f"  data: {args.players} players at {seeded['big']['tables']} tables per event; "
        + ", ".join(f"{seeded[s]['hands']:,} hands ({s})" for s in sizes)
        + "; every hand's actions and transfers written (about 7 and 8 a hand)"
    )
    print(f"  best of {args.repeat}; memory = peak resident set above the step's start")
    print()
    ratios: dict[str, float] = {}
    for size in sizes:
        hands = seeded[size]["hands"]
        (bare_s, bare_mib), (audit_s, audit_mib) = best[size]["bare"], best[size]["audit"]
        ratios[size] = audit_s / bare_s
        print(f"{hands:,} hands ({size} event):")
        print(
            line(
                "bare replay (hands + actions + engine)",
                f"{bare_s:7.2f} s  {bare_s / hands * 1e6:6.1f} µs/hand  peak {bare_mib:6.1f} MiB",
            )
        )
        print(
            line(
                "full ledger audit (six checks)",
                f"{audit_s:7.2f} s  {audit_s / hands * 1e6:6.1f} µs/hand  "
                f"peak {audit_mib:6.1f} MiB",
            )
        )
        print(line("audit ÷ bare replay", f"{ratios[size]:7.2f}×"))
    growth = best["big"]["audit"][1] / max(best["small"]["audit"][1], 0.1)
    hands_ratio = seeded["big"]["hands"] / seeded["small"]["hands"]
    print()
    print(
        line(
            "audit's peak memory, big ÷ small",
            f"{growth:7.2f}×  for {hands_ratio:.1f}× the hands",
        )
    )
    print(
        line(
            "periodic check, first run",
            f"{periodic['first']['seconds']:7.2f} s  peak {periodic['first']['peak_mib']:6.1f} MiB"
            f"  ({periodic['first']['line']})",
        )
    )
    print(
        line(
            "periodic check, next run",
            f"{periodic['next']['seconds']:7.2f} s  peak {periodic['next']['peak_mib']:6.1f} MiB"
            f"  ({periodic['next']['line']})",
        )
    )
    print()
    verdicts = {
        "time": ratios["big"] <= TIME_TARGET,
        "memory": growth <= MEMORY_TARGET,
    }
    print(
        line(
            "audit ÷ bare replay (big event)",
            f"{ratios['big']:.2f}×   target ≤ {TIME_TARGET}×   "
            + ("PASS" if verdicts["time"] else "FAIL"),
        )
    )
    print(
        line(
            "audit's memory, big ÷ small",
            f"{growth:.2f}×   target ≤ {MEMORY_TARGET}×   "
            + ("PASS" if verdicts["memory"] else "FAIL"),
        )
    )
    print_result(verdicts)

    results = {
        "machine": info,
        "postgres": pg_info,
        "seeded": seeded,
        "repeat": args.repeat,
        "runs_seconds_and_peak_mib": runs,
        "audit_over_bare_replay": ratios,
        "audit_peak_big_over_small": growth,
        "periodic_check": periodic,
        "targets": {"time": TIME_TARGET, "memory": MEMORY_TARGET, **verdicts},
        "load_average": os.getloadavg()[0],
    }
    return write_figures(args.json, results)


if __name__ == "__main__":
    sys.exit(main())
