"""The engine's side of the tablet (``engine.tablet``): the same functions the server's API uses
and the browser runs offline."""

from __future__ import annotations

import json
from typing import Any

from brag_event.engine import FLASH_DAY_1, HandState, SeatSetup, dump
from brag_event.engine.tablet import answer, first_dealer, hand_live, next_hand, table_after


def table(**changes: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "rules": FLASH_DAY_1.to_dict(),
        "button": 2,
        "shuffle_next": False,
        "carried": {"pot": 0, "seat": None},
        "seats": [
            {"number": 1, "player": "Ann", "stack": 100, "sitting_out": False},
            {"number": 3, "player": "Bob", "stack": 100, "sitting_out": False},
            {"number": 5, "player": "Cat", "stack": 100, "sitting_out": True},
        ],
    }
    return base | changes


CAT_IN = {"number": 5, "player": "Cat", "stack": 100, "sitting_out": False}


def test_first_dealer_is_the_button_or_the_next_seated_seat_clockwise() -> None:
    assert first_dealer(None, [2, 4], 6) == 2
    assert first_dealer(4, [2, 4], 6) == 4
    assert first_dealer(5, [2, 4], 6) == 2  # 5 → 6 → 1 → 2
    assert first_dealer(3, [1, 6], 6) == 6


def test_the_deal_passes_over_a_player_sitting_out() -> None:
    """RULES §3.12 Decision: the button's player now sits out, so the next one deals."""
    assert first_dealer(4, [2, 4, 5], 6, out=[4]) == 5
    assert first_dealer(5, [2, 4, 5], 6, out=[5]) == 2  # 5 → 6 → 1 → 2
    assert first_dealer(None, [2, 4], 6, out=[2]) == 4
    assert first_dealer(4, [2, 4], 6, out=[2, 4]) == 4  # all sit out: nobody is passed over
    state = next_hand(table(button=5, seats=[*table()["seats"][:2], CAT_IN]))
    assert state.dealer == 5
    state = next_hand(table(button=5))  # Cat (seat 5) sits out: Ann deals
    assert state.dealer == 1
    got = json.loads(
        answer(
            json.dumps({"op": "after", "table": table(button=5), "history": dump(state.fold(3))})
        )
    )
    assert got["ok"] and got["next_dealer"] == 3


def test_next_hand_deals_as_the_server_does_and_the_table_after_it_follows_the_outcome() -> None:
    state = next_hand(table())
    assert state.dealer == 3  # the button's seat 2 is empty: the next seated one
    assert [p.seat for p in state.players] == [1, 3]  # Cat sits out
    state.fold(1)  # Ann folds to Bob, who is blind: the pot is carried
    after = table_after(table(), state)
    outcome = state.outcome
    assert outcome is not None
    assert after["button"] == outcome.next_dealer
    assert after["carried"] == {"pot": outcome.carried_pot, "seat": outcome.carried_seat}
    stacks = {s["number"]: s["stack"] for s in after["seats"]}
    assert stacks == {1: 95, 3: 95, 5: 100}
    assert after["carried"] == {"pot": 10, "seat": 3}
    assert next_hand(after).by_seat[3].hands == 2  # Bob keeps the unseen hand


def test_answer_rebuilds_a_hand_from_its_document_and_queue_like_the_api_view() -> None:
    state = HandState(FLASH_DAY_1, 1, [SeatSetup(1, "Ann", 100), SeatSetup(2, "Bob", 100)])
    doc = dump(state)
    queued = [{"action": "bet", "seat": 2, "amount": 5}]
    got = json.loads(answer(json.dumps({"op": "hand", "history": doc, "queued": queued})))
    state.bet(2, 5)
    assert got["ok"] is True
    assert got["hand"] == json.loads(json.dumps(hand_live(state)))
    assert got["history"]["actions"] == queued


def test_answer_refuses_in_words_with_the_engine_code_and_the_queued_index() -> None:
    state = HandState(FLASH_DAY_1, 1, [SeatSetup(1, "Ann", 100), SeatSetup(2, "Bob", 100)])
    request = {"op": "hand", "history": dump(state), "queued": [{"action": "fold", "seat": 1}]}
    [got, bad] = json.loads(answer(json.dumps([request, {"op": "nonsense"}])))
    assert got == {
        "ok": False,
        "error": {
            "code": "not_your_turn",
            "message": got["error"]["message"],
            "index": 0,
        },
    }
    assert "Bob (seat 2)" in got["error"]["message"]
    assert bad["ok"] is False and bad["error"]["code"] == "invalid_history"


def test_start_after_a_queued_hand_deals_from_the_settled_table() -> None:
    first = next_hand(table())
    doc = dump(first)
    queued = [{"action": "fold", "seat": 1}]
    got = json.loads(
        answer(json.dumps({"op": "start", "table": table(), "history": doc, "queued": queued}))
    )
    assert got["ok"] is True
    first.fold(1)
    after = table_after(table(), first)
    assert got["table"] == after
    assert got["hand"] == json.loads(json.dumps(hand_live(next_hand(after))))


def test_after_says_who_deals_next_as_the_server_does() -> None:
    first = next_hand(table())
    queued = [{"action": "fold", "seat": 1}]
    request = {"op": "after", "table": table(), "history": dump(first), "queued": queued}
    got = json.loads(answer(json.dumps(request)))
    first.fold(1)
    after = table_after(table(), first)
    assert got["table"] == after
    # The button passed on; the seat that deals is the button's (or the next seated clockwise).
    assert got["next_dealer"] == first_dealer(after["button"], [1, 3, 5], 6)
    assert got["next_dealer"] != first.dealer
    started = json.loads(answer(json.dumps({**request, "op": "start"})))
    assert started["next_dealer"] == got["next_dealer"] == next_hand(after).dealer
