"""No block of ``brag_event/`` is worse than radon's D (cyclomatic complexity above 30: E and F
are split into functions that each say one thing). ``make lint`` runs ``radon cc -n E`` too;
this test names the offending blocks when pytest runs."""

from __future__ import annotations

from pathlib import Path

from radon.complexity import cc_rank, cc_visit

ROOT = Path(__file__).resolve().parents[2]


def too_complex(source: str) -> list[str]:
    """The blocks of ``source`` ranked E or F, as ``name (rank complexity)``."""
    return [
        f"{block.name} ({cc_rank(block.complexity)} {block.complexity})"
        for block in cc_visit(source)
        if cc_rank(block.complexity) in ("E", "F")
    ]


def test_no_block_of_brag_event_is_worse_than_d() -> None:
    found = [
        f"{path.relative_to(ROOT)}: {block}"
        for path in sorted((ROOT / "brag_event").rglob("*.py"))
        for block in too_complex(path.read_text(encoding="utf-8"))
    ]
    assert found == [], "split these into smaller functions:\n" + "\n".join(found)


def test_the_check_finds_a_block_worse_than_d() -> None:
    branches = "\n".join(f"    if x == {i}:\n        return {i}" for i in range(31))
    assert too_complex(f"def f(x):\n{branches}\n    return -1\n") == ["f (E 32)"]
