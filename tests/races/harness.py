"""Two staff members at the same moment: run services in threads, each with its own PostgreSQL
connection, and see what comes out.

Two ways of starting them together:

- ``race(a, b)``: both released by a barrier at the same instant (what a busy floor does);
- ``interleave(a, b, after=k)``: ``a`` runs until just after its ``k``-th locking statement and
  waits there; ``b`` then runs until it is blocked on a lock (or done); then ``a`` goes on. This
  forces, every time, the interleaving in which two services that lock the same rows in
  different orders deadlock — a barrier finds it only now and then.

Every outcome is ``ok`` (with the value), ``refused`` (a ``ServiceError``, with its code) or
``crash`` (anything else, such as a raw ``OperationalError`` from a deadlock). The suite fails on
any ``crash``."""

from __future__ import annotations

import os
import re
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db import connection, connections

from brag_event.core.errors import ServiceError

Job = Callable[[], Any]

# Barrier runs of each pair in the race suite (besides its forced interleavings): CI keeps the
# default, a hunt for a rare race raises it, a quick local run may set 0.
REPEAT = max(0, int(os.environ.get("BRAG_RACE_REPEAT", "1")))

WAIT = 20.0  # seconds a run may take before the harness gives up on it


@dataclass
class Outcome:
    kind: str  # "ok", "refused" or "crash"
    value: Any = None  # what the job returned, the refusal's code, or the crash's text
    message: str = ""

    def __repr__(self) -> str:
        return f"{self.kind}:{self.value!s:.300}"


def _run(job: Job) -> Outcome:
    try:
        return Outcome("ok", job())
    except ServiceError as err:
        return Outcome("refused", err.code, err.message)
    except Exception as err:
        return Outcome("crash", f"{type(err).__name__}: {err}", traceback.format_exc())


def race(*jobs: Job) -> list[Outcome]:
    """Start every job at the same instant (threads released by a barrier)."""
    return run_all(*jobs, wait=WAIT)


def run_all(*jobs: Job, wait: float) -> list[Outcome]:
    """``race``, for jobs that may take up to ``wait`` seconds (a load rather than a pair)."""
    barrier = threading.Barrier(len(jobs))
    outcomes: list[Outcome | None] = [None] * len(jobs)

    def run(i: int, job: Job) -> None:
        try:
            barrier.wait(timeout=wait)
            outcomes[i] = _run(job)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i, job)) for i, job in enumerate(jobs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=wait)
    return [o or Outcome("crash", "did not finish in time") for o in outcomes]


_LOCKING = re.compile(
    r"^\s*(UPDATE|INSERT|DELETE)\b|\bFOR (NO KEY )?UPDATE\b|\bFOR (KEY )?SHARE\b|pg_advisory",
    re.IGNORECASE,
)


def _backend_state(pid: int) -> tuple[str, str]:
    """(state, wait_event_type) of a backend, read on this thread's own connection."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT coalesce(state, ''), coalesce(wait_event_type, '') FROM pg_stat_activity "
            "WHERE pid = %s",
            [pid],
        )
        row = cursor.fetchone()
    return (row[0], row[1]) if row else ("gone", "")


class _Gate:
    """Holds a thread just after its ``after``-th locking statement (or, if ``after`` is a
    pattern, just after the first statement that matches it) until released."""

    def __init__(self, after: int | str) -> None:
        self.after = after
        self.pattern = re.compile(after, re.IGNORECASE) if isinstance(after, str) else None
        self.count = 0
        self.held = False
        self.pid = 0
        self.reached = threading.Event()
        self.release = threading.Event()

    def __call__(self, execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        self.pid = self.pid or connection.connection.info.backend_pid
        result = execute(sql, params, many, context)
        if self.held:
            return result
        if self.pattern is not None:
            hit = bool(self.pattern.search(sql))
        else:
            self.count += bool(_LOCKING.search(sql))
            hit = self.count == self.after
        if hit:
            self.held = True
            self.reached.set()
            self.release.wait(timeout=WAIT)
        return result


class _Watch:
    """Remembers a thread's backend, so the harness can see when it waits for a lock."""

    def __init__(self) -> None:
        self.pid = 0
        self.started = threading.Event()

    def __call__(self, execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        if not self.pid:
            self.pid = connection.connection.info.backend_pid
            self.started.set()
        return execute(sql, params, many, context)


def _blocked_or_done(pid: int, done: threading.Event, seconds: float) -> str:
    """Wait until the backend ``pid`` waits for a lock (or its job ended): which one."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if done.is_set():
            return "done"
        if pid:
            _state, wait = _backend_state(pid)
            if wait == "Lock":
                return "blocked"
        time.sleep(0.01)
    return "running"


def interleave(first: Job, second: Job, *, after: int | str = 1) -> tuple[list[Outcome], str]:
    """Run ``first`` to just after its ``after``-th locking statement (or the first statement
    matching the pattern ``after``), then ``second`` until it
    is blocked on a lock or done, then let ``first`` go on. Returns both outcomes and what
    ``second`` was doing when ``first`` was let go ("blocked", "done" or "running"; "skipped"
    when ``first`` never got that far)."""
    gate, watch = _Gate(after), _Watch()
    outcomes: list[Outcome | None] = [None, None]
    done = [threading.Event(), threading.Event()]

    def run(i: int, job: Job, wrapper: Any) -> None:
        try:
            with connection.execute_wrapper(wrapper):
                outcomes[i] = _run(job)
        finally:
            done[i].set()
            if i == 0:
                gate.reached.set()  # never got that far: let the second one run anyway
            connections.close_all()

    a = threading.Thread(target=run, args=(0, first, gate))
    a.start()
    gate.reached.wait(timeout=WAIT)
    seen = "skipped"
    b = threading.Thread(target=run, args=(1, second, watch))
    b.start()
    try:
        if not done[0].is_set():
            watch.started.wait(timeout=WAIT)
            seen = _blocked_or_done(watch.pid, done[1], 5.0)
    finally:
        gate.release.set()
        connections.close_all()
    a.join(timeout=WAIT)
    b.join(timeout=WAIT)
    return [o or Outcome("crash", "did not finish in time") for o in outcomes], seen


def crashes(outcomes: list[Outcome]) -> list[str]:
    return [f"{o.value}\n{o.message}" for o in outcomes if o.kind == "crash"]
