"""The project's own programs started by the tests that need them for real (gunicorn, Django's
deployment check, a snippet of Python), from the repository's root. No Django here:
tests/deploy uses it without a database."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import IO

ROOT = Path(__file__).resolve().parents[1]


def gunicorn(args: list[str], env: dict[str, str], out: IO[bytes]) -> subprocess.Popen[bytes]:
    """``gunicorn *args`` in a session of its own (the test stops it and its workers together),
    its output to ``out``."""
    return subprocess.Popen(
        [sys.executable, "-m", "gunicorn", *args],
        cwd=ROOT,
        env=env,
        stdout=out,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


def check_deploy(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """``manage.py check --deploy`` failing on warnings, under ``env``."""
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def python_code(
    code: str, env: dict[str, str], timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    """``python -c code`` under ``env`` (a settings module's start-up, seen from outside)."""
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def stop(proc: subprocess.Popen[bytes]) -> None:
    """Stop a program started by ``gunicorn`` and its workers (its process group): TERM, then
    KILL after 30 s."""
    os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:  # pragma: no cover - a stuck arbiter
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
