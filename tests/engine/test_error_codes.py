"""Error codes are stable, all used, all documented."""

import re
from pathlib import Path

from brag_event.engine import MESSAGES, EngineError

ROOT = Path(__file__).resolve().parents[2]


def _raised_codes() -> set[str]:
    source = "\n".join(
        p.read_text(encoding="utf-8") for p in (ROOT / "brag_event" / "engine").glob("*.py")
    )
    return set(re.findall(r'(?:IllegalAction|EngineError|_bad)\(\s*"([a-z_]+)"', source)) | {
        "invalid_history"  # raised through history._bad
    }


def test_every_code_is_raised_somewhere_and_every_raised_code_has_a_message() -> None:
    assert _raised_codes() == set(MESSAGES)


def test_every_code_is_documented() -> None:
    doc = (ROOT / "docs" / "error-codes.md").read_text(encoding="utf-8")
    missing = sorted(code for code in MESSAGES if f"`{code}`" not in doc)
    assert missing == []


def test_unknown_codes_cannot_be_raised() -> None:
    try:
        EngineError("no_such_code")
    except KeyError:
        pass
    else:  # pragma: no cover
        raise AssertionError("an unknown code was accepted")


def test_error_to_dict_shape() -> None:
    err = EngineError("see_wrong_amount", index=4, who="Bill", cost=6, amount=5)
    assert err.to_dict() == {
        "code": "see_wrong_amount",
        "message": "Seeing costs Bill exactly 6; got 5.",
        "index": 4,
        "details": {"who": "Bill", "cost": 6, "amount": 5},
    }


def test_every_service_error_code_is_documented() -> None:
    codes: set[str] = set()
    for path in (ROOT / "brag_event").rglob("*.py"):
        if "engine" in path.relative_to(ROOT).parts:
            continue
        codes |= set(
            re.findall(
                r'(?:ServiceError|Conflict|NotFound|Forbidden|super\(\).__init__)\(\s*"([a-z_]+)"',
                path.read_text(encoding="utf-8"),
            )
        )
    # The pattern finds multi-line raises, and codes fixed by a subclass (StaleHand).
    assert {"hand_in_progress", "stale_sequence"} <= codes
    doc = (ROOT / "docs" / "error-codes.md").read_text(encoding="utf-8")
    assert sorted(c for c in codes if f"`{c}`" not in doc) == []
