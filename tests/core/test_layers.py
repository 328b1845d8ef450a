"""The layers (pyproject's [tool.importlinter]): the engine imports nothing of Django or the
project, the ledger nothing of hands, events none of the apps that play on a day (the close's
orchestration sits above them, in ``closing``), the web layers sit on top of the domain.
``make lint`` runs lint-imports; so does this test, so pytest fails too when an import points
the wrong way."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"


def lint_imports(cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache"],
        cwd=cwd,
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(cwd)},
        check=False,
    )


def test_every_contract_is_kept() -> None:
    result = lint_imports(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Contracts: 4 kept, 0 broken." in result.stdout


def test_the_contracts_catch_an_import_pointing_the_wrong_way(tmp_path: Path) -> None:
    shutil.copytree(
        ROOT / "brag_event",
        tmp_path / "brag_event",
        ignore=shutil.ignore_patterns("__pycache__", "migrations"),
    )
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    (tmp_path / "brag_event" / "engine" / "wrong.py").write_text("import django\n")
    (tmp_path / "brag_event" / "ledger" / "wrong.py").write_text(
        "from brag_event.hands import models\n"
    )
    (tmp_path / "brag_event" / "events" / "wrong.py").write_text(
        "from brag_event.tables import services\n"
    )
    (tmp_path / "brag_event" / "tables" / "wrong.py").write_text(
        "from brag_event.organiser import views\n"
    )
    result = lint_imports(tmp_path)
    assert result.returncode == 1
    assert "Contracts: 0 kept, 4 broken." in result.stdout, result.stdout
    for line in (
        "brag_event.engine.wrong -> django",
        "brag_event.ledger.wrong -> brag_event.hands",
        "brag_event.events.wrong -> brag_event.tables",
        "brag_event.tables.wrong -> brag_event.organiser",
    ):
        assert line in result.stdout
