"""The engine is pure Python: standard library only, importable without Django."""

import ast
import subprocess
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "brag_event" / "engine"
FORBIDDEN = {"django", "rest_framework", "celery", "psycopg", "kombu"}


def _imports(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((0, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            found.append((node.level, node.module or ""))
    return found


def test_engine_imports_only_the_standard_library_and_itself() -> None:
    files = sorted(ENGINE.rglob("*.py"))
    assert len(files) >= 5
    offenders = []
    for path in files:
        for level, module in _imports(path):
            if level > 0:
                continue  # relative import inside the engine
            top = module.split(".")[0]
            if top == "__future__" or top in sys.stdlib_module_names:
                continue
            offenders.append(f"{path.name}: {module}")
    assert offenders == []


def test_the_purity_check_would_catch_a_django_import(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("from django.db import models\nimport celery\n", encoding="utf-8")
    tops = {m.split(".")[0] for _, m in _imports(bad)}
    assert tops & FORBIDDEN == {"django", "celery"}


def test_engine_imports_without_django_settings_or_frameworks() -> None:
    code = (
        "import sys\n"
        "import brag_event.engine as e\n"
        "e.evaluate('As Kd Qh')\n"
        f"bad = sorted(m for m in sys.modules if m.split('.')[0] in {sorted(FORBIDDEN)!r})\n"
        "print(','.join(bad))\n"
    )
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ENGINE.parents[1])}
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    assert result.stdout.strip() == ""
