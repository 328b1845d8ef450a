"""The developer tooling: the lock matches pyproject.toml, installs and the image use it, the test
tiers select what they say, and the pre-commit hooks are local."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import yaml
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]

Key = tuple[str, frozenset[str], str, str]


def _key(name: str, extras: list[str] | set[str], specifier: str, extra: str) -> Key:
    spec = ",".join(sorted(str(s) for s in SpecifierSet(specifier)))
    return (canonicalize_name(name), frozenset(extras), spec, extra)


def test_uv_lock_was_made_from_this_pyproject() -> None:
    """What the lock was resolved for (its root package's requirements) is exactly what
    pyproject.toml asks for today: a dependency added without `make lock` fails here (and
    `make lock-check`, the first step of `make test`, says so too)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = {
        _key(r.name, r.extras, str(r.specifier), "")
        for r in map(Requirement, project["dependencies"])
    }
    for extra, reqs in project["optional-dependencies"].items():
        wanted |= {_key(r.name, r.extras, str(r.specifier), extra) for r in map(Requirement, reqs)}
    lock = tomllib.loads((ROOT / "uv.lock").read_text())
    (root,) = [p for p in lock["package"] if p["name"] == "brag-event"]
    locked = set()
    for req in root["metadata"]["requires-dist"]:
        marker = re.fullmatch(r"extra == '([\w-]+)'", req.get("marker", ""))
        extra = marker.group(1) if marker else ""
        locked.add(_key(req["name"], req.get("extras", []), req.get("specifier", ""), extra))
    assert locked == wanted, f"run make lock: missing {wanted - locked}, stale {locked - wanted}"
    assert set(root["metadata"]["provides-extras"]) == set(project["optional-dependencies"])
    # Every locked file comes from PyPI, so the lock installs the same here, in CI and in Docker.
    sources = {str(p.get("source")) for p in lock["package"] if p["name"] != "brag-event"}
    assert sources == {"{'registry': 'https://pypi.org/simple'}"}


def test_make_run_installs_the_runtime_set_and_make_test_checks_the_lock_first() -> None:
    makefile = (ROOT / "Makefile").read_text()
    assert re.search(r"^run: install-runtime$", makefile, re.M)
    assert "c('migrate'); c('load_demo', addr='$(RUN_ADDR)')" in makefile
    assert re.search(r"^install-runtime: .*\n\t@\$\(SYNC\) --inexact ", makefile, re.M)
    assert re.search(r"^install: .*\n\t@\$\(SYNC\) --all-extras ", makefile, re.M)
    assert re.search(r"^SYNC=\$\(UV\) sync --locked ", makefile, re.M)
    # The lock first, the install, then the checks side by side (each failing make), then pytest.
    assert re.search(r"^CHECKS=lint typecheck security$", makefile, re.M)
    assert re.search(
        r"^test: lock-check install\n"
        r"\t@\$\(MAKE\) .*-j3 -O INSTALLED=1 \$\(CHECKS\)\n"
        r"\t\$\(PY\) -m pytest ",
        makefile,
        re.M,
    )
    for check in ("lint", "typecheck", "security"):
        assert re.search(rf"^{check}: \$\(if \$\(INSTALLED\),,install\)$", makefile, re.M)


def test_the_image_installs_the_locked_runtime_set_with_hashes() -> None:
    dockerfile = (ROOT / "deploy" / "Dockerfile").read_text()
    makefile = (ROOT / "Makefile").read_text()
    (make_uv,) = re.findall(r"^UV_VERSION=(\S+)$", makefile, re.M)
    assert f"ARG UV_VERSION={make_uv}\n" in dockerfile
    assert "COPY pyproject.toml uv.lock README.md ./" in dockerfile
    assert "uv export --frozen --no-dev --no-emit-project" in dockerfile
    assert "pip install --require-hashes --no-deps -r /tmp/requirements.txt" in dockerfile


def test_the_pre_commit_hooks_are_local_and_valid() -> None:
    config = yaml.safe_load((ROOT / ".pre-commit-config.yaml").read_text())
    assert [repo["repo"] for repo in config["repos"]] == ["local"]  # nothing to fetch
    hooks = {hook["id"]: hook for hook in config["repos"][0]["hooks"]}
    assert {"ruff-check", "ruff-format", "uv-lock-check", "mypy", "test-fast"} <= set(hooks)
    assert hooks["test-fast"]["stages"] == ["pre-push"]
    done = subprocess.run(
        [sys.executable, "-m", "pre_commit", "validate-config", ".pre-commit-config.yaml"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr


# Collects in a fresh process and prints each test's id and its tier markers, as JSON.
COLLECT = """
import json, sys
import pytest

class Report:
    def pytest_collection_finish(self, session):
        marks = {"browser", "production", "slow"}
        self.items = {
            item.nodeid: sorted(marks & {m.name for m in item.iter_markers()})
            for item in session.items
        }

report = Report()
code = pytest.main(["--collect-only", "-q", "-p", "no:cacheprovider", *sys.argv[1:]], [report])
print("JSON" + json.dumps(report.items))
sys.exit(code)
"""


@pytest.mark.slow  # collects four directories in a fresh pytest
def test_the_tiers_mark_browser_and_production_tests_and_test_fast_leaves_them_out() -> None:
    paths = ["tests/tablet", "tests/public", "tests/production", "tests/engine/test_properties.py"]
    done = subprocess.run(
        [sys.executable, "-c", COLLECT, *paths],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    tiers: dict[str, list[str]] = json.loads(done.stdout.split("JSON", 1)[1])
    browser_modules = (
        "tests/tablet/test_tablet_browser.py",
        "tests/tablet/test_tablet_fixes.py",
        "tests/tablet/test_layout.py",
        "tests/public/test_standings_browser.py",
        "tests/public/test_public_layout.py",
        # the engine in the tablet's browser (Pyodide): the differential test, the offline play
        "tests/tablet/test_offline_engine.py",
        "tests/tablet/test_offline_tablet.py",
        # the tablet started offline from its service worker's caches (issue 21)
        "tests/tablet/test_offline_startup.py",
        # the floor (issue 17): a call, a misdeal and a warning from tablet to dashboard
        "tests/tablet/test_floor_browser.py",
        # issue 28: the dealer's own take-back, the bet's reset and a re-buy at the table
        "tests/tablet/test_dealer_corrections.py",
        # the console (issue 16): its pages at every size, and a whole event run through it
        "tests/organiser/test_console_browser.py",
        "tests/organiser/test_console_event_browser.py",
        # issue 27: the table sheets' codes decoded, the big screen's zone, the error pages
        "tests/organiser/test_sheets_browser.py",
        "tests/public/test_time_zone_browser.py",
        "tests/core/test_error_pages_browser.py",
        # issue 28: the hall's screen, players' phones, the console's hall page
        "tests/public/test_hall_browser.py",
        "tests/public/test_phone_browser.py",
        # issue 32: results on paper, a hand's history, a player's own hands, a series
        "tests/organiser/test_paper_browser.py",
        "tests/public/test_own_hands_browser.py",
        "tests/series/test_series_browser.py",
        # issue 28: the first visit, the queue under the controls, the throttle's Retry-After;
        # issue 31: a large pot confirmed, a change of dealer; issue 33: the action's answer
        "tests/tablet/test_offline_first_visit.py",
        "tests/tablet/test_queue_retry_after.py",
        "tests/tablet/test_award_browser.py",
        "tests/tablet/test_dealer_change_browser.py",
        "tests/tablet/test_action_answer_browser.py",
        # the login redirect's module checks the server without a browser, the script with one
        "tests/tablet/test_login_redirect.py::test_the_script_",
    )
    for test, marks in tiers.items():
        # A module named *_browser.py drives a browser; so do the older ones listed above.
        module = test.split("::")[0]
        drives = test.startswith(browser_modules) or module.endswith("_browser.py")
        assert ("browser" in marks) == drives, test
        assert ("production" in marks) == test.startswith("tests/production/"), test
    slow = {t.split("::")[1] for t, marks in tiers.items() if "slow" in marks}
    assert slow == {
        "test_illegal_actions_change_nothing",
        "test_accepted_actions_survive_dump_and_replay",
        # Pyodide's start-up (seconds) in each, and thousands of random hands in the first
        "test_the_browser_engine_agrees_with_the_server_on_random_hands",
        "test_the_browser_engine_refuses_in_words",
        "test_a_whole_hand_offline_then_reconnected_matches_the_server",
        # the first visit at 250 KB/s and the offline tablet's other tests (Pyodide each)
        "test_a_first_visit_at_250_kbps_fetches_each_large_file_once",
        "test_a_drop_before_the_engine_is_ready_is_said_and_recovered_without_a_reload",
        # every connection cut mid-download behind a throttling proxy (issue 44)
        "test_a_first_visit_cut_mid_download_ends_ready_without_a_reload",
        "test_nine_queued_entries_leave_the_controls_in_the_first_screen",
        "test_a_supervisors_undo_met_offline_says_who_took_back_what_and_why",
        "test_seen_at_and_log_out_stay_true",
        "test_no_blank_table_when_the_network_drops_before_the_table_arrives",
        "test_the_queue_waits_as_long_as_a_429_says_then_sends_each_entry_once",
        # two gunicorns behind nginx, one killed in play (tests/production)
        "test_a_web_node_killed_in_play_loses_nothing",
        # the standby's drills, each on clusters of its own (tests/production/test_standby.py)
        "test_failover_drill_loses_nothing_and_the_day_closes",
        "test_standby_down_holds_writes_in_words_then_the_guard_lets_the_hall_go_on",
        "test_point_in_time_restore_rewinds_to_the_moment_before_a_wrong_import",
        # the service worker's start-up (tests/tablet/test_offline_startup.py)
        "test_two_hands_offline_with_a_reload_in_a_dead_zone_then_reconnected",
        "test_engine_start_up_cold_and_from_the_tablets_cache",
        "test_a_hand_started_from_another_device_while_offline_is_said_in_words",
    }
    fast = [t for t, marks in tiers.items() if not marks]
    assert any(t.startswith("tests/public/test_standings_page.py") for t in fast)
    assert any(t.startswith("tests/engine/test_properties.py") for t in fast)
