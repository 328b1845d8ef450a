"""Command line: ``python -m brag_event.engine replay FILE`` and friends.

Exit codes: 0 success; 1 the hand history is illegal or invalid (a JSON error is printed), or
``verify`` found the exported day altered; 2 usage or file errors.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from .cards import evaluate
from .chain import Tampered, verify_day
from .errors import EngineError
from .history import dump, load_history, outcome_dict, replay


def _print(data: Any) -> None:
    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")


def _read(path: str) -> bytes:
    if path == "-":
        return sys.stdin.buffer.read()
    with open(path, "rb") as fh:
        return fh.read()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m brag_event.engine", description="The Three Card Brag rules engine."
    )
    sub = parser.add_subparsers(dest="command", required=True)
    p_replay = sub.add_parser("replay", help="replay a brag-hh/1 hand history, print the outcome")
    p_replay.add_argument("file", help="the hand history (JSON), or - for standard input")
    p_legal = sub.add_parser("legal", help="replay a history and list what is legal next")
    p_legal.add_argument("file")
    p_norm = sub.add_parser("normalize", help="replay a history and print it back canonically")
    p_norm.add_argument("file")
    p_eval = sub.add_parser("evaluate", help="rank a three-card hand, e.g. 'As 10d 3c'")
    p_eval.add_argument("cards", nargs="+")
    p_verify = sub.add_parser(
        "verify", help="check an exported day (JSON Lines) against its published root"
    )
    p_verify.add_argument("file", help="the day's hands.jsonl, or - for standard input")
    p_verify.add_argument(
        "--root", help="the day's published root (64 hex digits); default: the file's own"
    )
    args = parser.parse_args(argv)
    if args.command == "verify":
        return _verify(args.file, args.root)

    try:
        if args.command == "evaluate":
            value = evaluate(" ".join(args.cards))
            _print(
                {"category": value.category, "strength": value.strength, "hand": value.describe()}
            )
            return 0
        try:
            text = _read(args.file)
        except OSError as err:
            _print({"error": {"code": "io_error", "message": str(err)}})
            return 2
        history = load_history(text)
        state = replay(history)
    except EngineError as err:
        _print({"error": err.to_dict()})
        return 1
    if args.command == "replay":
        _print(outcome_dict(state))
    elif args.command == "legal":
        _print(
            {
                "to_act": state.to_act,
                "phase": state.phase,
                "legal_actions": [a.to_dict() for a in state.legal_actions()],
            }
        )
    else:
        _print(dump(state, meta=history.meta))
    return 0


def _verify(path: str, root: str | None) -> int:
    try:
        text = _read(path)
    except OSError as err:
        _print({"error": {"code": "io_error", "message": str(err)}})
        return 2
    try:
        done = verify_day(text.splitlines(), root)
    except Tampered as err:
        _print({"verified": False, "error": {"code": "tampered", **err.problem.to_dict()}})
        return 1
    out: dict[str, Any] = {"verified": True, "format": done.format}
    if done.event is not None:  # brag-day/3: the root names them, so they are checked
        out |= {"event": done.event, "day": done.day}
    _print(out | {"hands": done.hands, "day_entries": done.entries, "root": done.root})
    return 0
