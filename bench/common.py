"""What the benchmarks share: the PostgreSQL options, Django set up on a bench database, the
bench database dropped at the end, and the figures written as JSON."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import subprocess
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, Protocol


class Dropping(Protocol):
    def drop(self, name: str) -> None: ...


def pg_arguments(parser: argparse.ArgumentParser, host: str) -> None:
    """--pg-host, --pg-port and --pg-user, defaulting to libpq's environment variables."""
    parser.add_argument("--pg-host", default=os.environ.get("PGHOST", host))
    parser.add_argument("--pg-port", type=int, default=int(os.environ.get("PGPORT", "5432")))
    parser.add_argument("--pg-user", default=os.environ.get("PGUSER", "postgres"))


def django_on(url: str, **extra: str) -> None:
    """Django set up in this process on the database ``url``, production-like (DEBUG off)."""
    os.environ.update(
        DATABASE_URL=url,
        DJANGO_SETTINGS_MODULE="brag_event.settings",
        DJANGO_DEBUG="false",
        DJANGO_ALLOWED_HOSTS="testserver",
        **extra,
    )
    import django

    django.setup()


def django_from_environment(prog: str) -> bool:
    """Django set up in a script on ``$DATABASE_URL`` (settings from the environment); ``False``,
    said on stderr, when it is not set."""
    if not os.environ.get("DATABASE_URL"):
        print(f"{prog}: DATABASE_URL is not set", file=sys.stderr)
        return False
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "brag_event.settings")
    import django

    django.setup()
    return True


@contextlib.contextmanager
def bench_database(pg: Dropping, name: str, *, keep: bool) -> Iterator[None]:
    """The bench database ``name`` is dropped when the block ends (unless ``keep``), whatever
    happened in it; this process's connections to it are closed first."""
    try:
        yield
    finally:
        if not keep:
            with contextlib.suppress(Exception):
                from django.db import connections

                connections.close_all()
            with contextlib.suppress(Exception):
                pg.drop(name)


def spawn_logged(
    cmd: list[str], log: Path, *, cwd: Path, env: dict[str, str]
) -> subprocess.Popen[bytes]:
    """``cmd`` started in a process group of its own (stopped with its children as one), its
    output and its errors appended to ``log``."""
    with log.open("ab") as sink:
        return subprocess.Popen(
            cmd,
            cwd=cwd,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=sink,
            stderr=sink,
            start_new_session=True,
        )


def print_result(verdicts: Mapping[str, bool]) -> None:
    """A benchmark's last line: all its targets met, or the names of those it missed."""
    failed = [name for name, ok in verdicts.items() if not ok]
    print("Result: " + ("all targets met" if not failed else "FAIL: " + ", ".join(failed)))


def write_figures(path: Path, results: dict[str, Any]) -> int:
    """The figures as JSON at ``path``; the exit status of a benchmark that got this far."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    print(f"Figures written to {path}")
    return 0
