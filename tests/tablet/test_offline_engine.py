"""One engine, two places: the engine the tablet runs in the browser (Pyodide in a Web Worker,
``static/tablet/offline/``) against the server's, on thousands of random legal hands.

Hypothesis plays random legal hands through the server's engine (``tests/engine/strategies``),
recording at every step what the server offers (every legal action with its amounts, costs and
reasons), the state, and at the end the outcome and the next hand's deal. The browser is then
asked the same questions — from the hand's ``brag-hh/1`` start plus the actions so far as a
queue, and from the settled hand's document — in batches sent while the next hands are still being
played (the page answers in its Web Worker meanwhile), and must answer exactly the same."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from brag_event.engine import EngineError, HandState, dump
from brag_event.engine.history import outcome_dict
from brag_event.engine.tablet import hand_live, next_hand, table_after
from tests.engine.strategies import Table, play_random, tables

from .conftest import EnginePage

pytestmark = pytest.mark.slow

HANDS = int(os.environ.get("BRAG_DIFFERENTIAL_HANDS", "2000"))
BATCH = 500  # questions per page round trip (ask)
BATCH_HANDS = 200  # hands whose questions go to the page at once, while the next are played


Case = tuple[list[dict[str, Any]], list[dict[str, Any]]]  # (questions, the server's answers)


class Asked:
    """Questions sent to the page's engine without waiting (``send``), answered in its Web
    Worker while the server plays the next hands; ``answers`` waits for them all, in order."""

    def __init__(self, page: Any) -> None:
        self.page = page
        page.evaluate("() => { window.bragAsked = []; }")

    def send(self, cases: list[Case]) -> None:
        # As JSON text: Playwright's own serialisation of big nested values is slow.
        self.page.evaluate(
            "(r) => { window.bragAsked.push("
            "BragEngine.ask(JSON.parse(r)).then((a) => JSON.stringify(a))); }",
            json.dumps([q for questions, _ in cases for q in questions]),
        )

    def answers(self) -> list[dict[str, Any]]:
        texts = self.page.evaluate("() => Promise.all(window.bragAsked)")
        return [answer for text in texts for answer in json.loads(text)]


def ask(page: Any, requests: list[dict[str, Any]]) -> list[dict[str, Any]]:
    answers: list[dict[str, Any]] = []
    for i in range(0, len(requests), BATCH):
        # As JSON text: Playwright's own serialisation of big nested values is slow.
        text = page.evaluate(
            "(r) => BragEngine.ask(JSON.parse(r)).then((a) => JSON.stringify(a))",
            json.dumps(requests[i : i + BATCH]),
        )
        answers += json.loads(text)
    return answers


def table_dict(table: Table) -> dict[str, Any]:
    """The table as the tablet knows it (``api.resources.state.table_view``, the hand's rules)."""
    return {
        "rules": table.rules.to_dict(),
        "button": table.dealer,
        "shuffle_next": False,
        "carried": {"pot": table.carried_pot, "seat": table.carried_seat},
        "seats": [
            {
                "number": s.seat,
                "player": s.player,
                "stack": s.stack,
                "sitting_out": s.sitting_out,
            }
            for s in table.seats
        ],
    }


def json_round(value: Any) -> Any:
    return json.loads(json.dumps(value))


def collect_hands(
    count: int, on_batch: Callable[[list[Case]], None] | None = None, batch: int = 0
) -> list[Case]:
    """``count`` random legal hands as (questions, the server's answers); ``on_batch`` is given
    each ``batch`` of hands as soon as they are played (and the last, shorter one at the end)."""
    cases: list[Case] = []
    sent = [0]

    def flush(least: int) -> None:
        if on_batch is not None and len(cases) - sent[0] >= max(least, 1):
            on_batch(cases[sent[0] :])
            sent[0] = len(cases)

    @settings(
        max_examples=count,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(table=tables(), data=st.data())
    def play(table: Table, data: st.DataObject) -> None:
        state = table.start()
        start = dump(state)
        views: list[dict[str, Any]] = []

        def record(s: HandState) -> None:
            views.append(
                {
                    "state": s.to_dict(),
                    "legal": [a.to_dict() for a in s.legal_actions()],
                }
            )

        record(state)
        play_random(state, data, table, after_each=record)
        log = [a.to_dict() for a in state.log]
        questions: list[dict[str, Any]] = []
        expected: list[dict[str, Any]] = []
        # Every step: the start's document, the actions so far queued after it.
        questions.append({"op": "steps", "history": start, "queued": log})
        expected.append({"steps": views})
        # The settled hand from its own document, and the next hand dealt after it.
        tab = table_dict(table)
        questions.append({"op": "hand", "history": dump(state), "queued": []})
        expected.append({"outcome": outcome_dict(state), "live": hand_live(state)})
        after = table_after(tab, state)
        try:
            following = next_hand(after)
        except EngineError as err:  # the browser must refuse it the same way
            nxt: dict[str, Any] = {"refused": err.code}
        else:
            nxt = {"live": hand_live(following), "history": dump(following)}
        questions.append({"op": "start", "table": tab, "history": start, "queued": log})
        expected.append({"table": after, **nxt})
        cases.append((questions, json_round(expected)))
        flush(batch)

    play()
    flush(1)
    return cases


def without_shows(hand: dict[str, Any]) -> dict[str, Any]:
    return dict(hand, actions=[a for a in hand["actions"] if a["action"] != "show"])


def compare_step(hand: dict[str, Any], view: dict[str, Any], context: str) -> None:
    state = view["state"]
    for key in ("phase", "to_act", "stake", "pots", "players", "pending", "must_choose"):
        assert hand[key] == state[key], (key, context)
    assert hand["cards_needed"] == state["cards_needed"], context
    assert hand["legal_actions"] == view["legal"], context
    if state["outcome"] is None:
        assert hand["result"] is None, context
    else:
        assert hand["result"] == {"settled": True, **state["outcome"]}, context


def compare(question: dict[str, Any], want: dict[str, Any], got: dict[str, Any]) -> None:
    context = json.dumps(question)[:2000]
    if "refused" in want:
        assert not got["ok"] and got["error"]["code"] == want["refused"], context
        return
    assert got["ok"], (got, context)
    if "steps" in want:
        assert len(got["hands"]) == len(want["steps"]), context
        for step, (hand, view) in enumerate(zip(got["hands"], want["steps"], strict=True)):
            compare_step(hand, view, f"step {step} of {context}")
    elif "outcome" in want:
        # A document keeps the shown cards by seat, not in the order they were entered.
        assert got["hand"]["result"] == want["outcome"], context
        assert without_shows(got["hand"]) == without_shows(want["live"]), context
    else:
        assert got["table"] == want["table"], context
        assert got["hand"] == want["live"], context
        assert got["history"] == want["history"], context


def test_the_browser_engine_agrees_with_the_server_on_random_hands(
    engine_page: EnginePage,
) -> None:
    began = time.perf_counter()
    assert engine_page.boot["total"] > 0
    asked = Asked(engine_page.page)
    cases = collect_hands(HANDS, asked.send, BATCH_HANDS)
    played = time.perf_counter()
    questions = [q for qs, _ in cases for q in qs]
    expected = [e for _, es in cases for e in es]
    answers = asked.answers()
    print(
        f"{len(cases)} hands, {len(questions)} questions: played in {played - began:.1f} s, "
        f"Pyodide booted in {engine_page.boot['total'] / 1000:.1f} s (once for the module), "
        f"the last answers {time.perf_counter() - played:.1f} s after the last hand was played"
    )
    assert len(answers) == len(questions)
    for question, want, got in zip(questions, expected, answers, strict=True):
        compare(question, want, got)
    steps = sum(len(e["steps"]) for e in expected if "steps" in e)
    assert len(cases) >= min(HANDS, 1000) and steps > 2 * len(cases)
    # The random play gives up at showdowns too (RULES §3.6, §3.8): both engines saw it.
    concessions = sum(any(a["action"] == "concede" for a in qs[0]["queued"]) for qs, _ in cases)
    assert concessions > 0 or len(cases) < 200, "no hand was given up at a showdown"


def test_the_browser_engine_refuses_in_words(engine_page: EnginePage) -> None:
    """An illegal queued action is refused with the engine's code and sentence, and says which
    queued action it was."""
    from brag_event.engine import FLASH_DAY_1, SeatSetup

    state = HandState(FLASH_DAY_1, 1, [SeatSetup(1, "Ann", 100), SeatSetup(2, "Bob", 100)])
    question = {
        "op": "hand",
        "history": dump(state),
        "queued": [
            {"action": "bet", "seat": 2, "amount": 5},
            {"action": "bet", "seat": 2, "amount": 5},
        ],
    }
    [got] = ask(engine_page.page, [question])
    assert got["ok"] is False
    assert got["error"]["code"] == "not_your_turn"
    assert got["error"]["index"] == 1
    assert "Ann (seat 1)" in got["error"]["message"]
