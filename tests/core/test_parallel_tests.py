"""The suite on several processes (pytest-xdist, ``make test``): each worker has a Redis database
of its own, the modules that share a fixture go whole to one worker, and the slow tests are
handed out first (tests/conftest.py, docs/testing.md)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.worker import worker_redis

ROOT = Path(__file__).resolve().parents[2]


def test_each_worker_has_its_own_redis_database() -> None:
    url = "redis://127.0.0.1:6379/14"
    assert worker_redis(url, "") == url  # one process: the database as given
    assert worker_redis(url, "gw0") == url
    assert worker_redis(url, "gw1") == "redis://127.0.0.1:6379/15"
    assert worker_redis(url, "gw2") == "redis://127.0.0.1:6379/0"  # Redis has 16
    assert worker_redis("redis://h:1/5", "gw3") == "redis://h:1/8"


def test_make_test_runs_on_several_processes_in_groups() -> None:
    makefile = (ROOT / "Makefile").read_text()
    assert re.search(
        r"^test: .*\n\t@\$\(MAKE\) .*\n\t\$\(PY\) -m pytest -n \$\(TEST_WORKERS\) \$\(XDIST\)"
        r"( --durations=\d+)?$",
        makefile,
        re.M,
    )
    assert re.search(r"^XDIST=--dist loadfile --no-loadscope-reorder$", makefile, re.M)
    assert re.search(r"^test-fast: .*\n\t.* -n \$\(FAST_WORKERS\) ", makefile, re.M)


# Collects in a fresh process as a pytest-xdist worker would, and prints the tests in the order
# given, with their groups and tier markers, as JSON.
COLLECT = """
import json, sys
import pytest

class Report:
    def pytest_collection_finish(self, session):
        self.items = [
            [
                item.nodeid,
                [m.args[0] for m in item.iter_markers("xdist_group")],
                sorted({"browser", "production", "slow"} & {m.name for m in item.iter_markers()}),
            ]
            for item in session.items
        ]

report = Report()
code = pytest.main(["--collect-only", "-q", "-p", "no:cacheprovider", *sys.argv[1:]], [report])
print("JSON" + json.dumps(report.items))
sys.exit(code)
"""


@pytest.mark.slow  # collects in a fresh pytest
def test_a_worker_gets_shared_fixtures_grouped_and_the_slow_tests_first() -> None:
    paths = [
        "tests/engine/test_cards.py",
        "tests/api/test_hot_path.py",
        "tests/tablet/test_offline_engine.py",
        "tests/tablet/test_tablet_fixes.py",
        "tests/production",
    ]
    env = {**os.environ, "PYTEST_XDIST_WORKER": "gw0"}
    done = subprocess.run(
        [sys.executable, "-c", COLLECT, *paths],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    items: list[list[Any]] = json.loads(done.stdout.split("JSON", 1)[1])
    module = [nodeid.split("::")[0] for nodeid, _, _ in items]
    groups = {nodeid.split("::")[0]: group for nodeid, group, _ in items}
    # Shared fixtures: the world built once (built_api), Pyodide booted once (engine_page), the
    # production run's services; the session's browser and plain tests are not grouped.
    assert groups["tests/api/test_hot_path.py"] == ["tests/api/test_hot_path.py"]
    assert groups["tests/tablet/test_offline_engine.py"] == ["tests/tablet/test_offline_engine.py"]
    assert groups["tests/production/test_production_run.py"] != []
    assert groups["tests/engine/test_cards.py"] == []
    assert groups["tests/tablet/test_tablet_fixes.py"] == []
    # The order: production, Pyodide's slow browser tests, browser, the rest; a group in one piece.
    assert module[0] == "tests/production/test_production_run.py"
    first_plain = next(i for i, (_, _, marks) in enumerate(items) if not marks)
    assert all(marks for _, _, marks in items[:first_plain])
    assert not any(marks for _, _, marks in items[first_plain:])
    hot = [i for i, m in enumerate(module) if m == "tests/api/test_hot_path.py"]
    assert len(hot) > 1 and hot == list(range(hot[0], hot[0] + len(hot)))
    browser_at = [i for i, (_, _, marks) in enumerate(items) if marks == ["browser"]]
    slow_browser_at = [i for i, (_, _, marks) in enumerate(items) if marks == ["browser", "slow"]]
    assert browser_at and slow_browser_at and max(slow_browser_at) < min(browser_at)


@pytest.mark.slow  # collects in a fresh pytest
def test_one_process_makes_no_groups() -> None:
    env = {k: v for k, v in os.environ.items() if k != "PYTEST_XDIST_WORKER"}
    done = subprocess.run(
        [sys.executable, "-c", COLLECT, "tests/engine/test_cards.py", "tests/api/test_hot_path.py"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    items: list[list[Any]] = json.loads(done.stdout.split("JSON", 1)[1])
    assert items and all(group == [] for _, group, _ in items)
