"""brag-hh/1: validation, replay, dump and the command line (RULES §5)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from brag_event.engine import (
    EngineError,
    IllegalAction,
    dump,
    load_history,
    outcome_dict,
    replay,
)

from .helpers import cli

FIXTURES = Path(__file__).parent / "fixtures"


def doc(name: str = "rules_example.json") -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FIXTURES / name).read_text(encoding="utf-8"))
    return data


def test_the_rules_example_replays_to_a_pot_of_30_for_seat_1() -> None:
    out = outcome_dict(replay(doc()))
    assert out["settled"] is True
    assert out["pots"][0]["amount"] == 30
    assert out["pots"][0]["winners"] == [1]
    assert out["pots"][0]["contenders"] == [1, 2]
    assert out["stacks"] == {"1": 254, "2": 226}
    assert out["house"] == 0
    assert out["carried"] == {"pot": 0, "seat": None}
    assert out["next_dealer"] == 1
    assert out["shuffle"] is True  # seen and won by a prial
    assert out["shown"]["1"]["hand"] == "prial of threes"


def test_the_rules_example_as_printed_uses_3h_twice_and_is_rejected() -> None:
    with pytest.raises(EngineError) as err:
        replay(doc("rules_example_as_printed.json"))
    assert err.value.code == "card_already_shown"
    assert "3h" in err.value.message


def test_dump_then_replay_gives_the_same_outcome_and_state() -> None:
    for name in ("rules_example.json", "classic_open_five.json", "classic_blind_five.json"):
        state = replay(doc(name))
        again = replay(dump(state))
        assert outcome_dict(again) == outcome_dict(state)
        assert again.snapshot() == state.snapshot()
        assert dump(again) == dump(state)
        assert all(a["action"] != "show" for a in dump(state)["actions"])


def test_show_actions_inside_the_actions_list_are_accepted() -> None:
    data = doc()
    cards = data.pop("cards")
    data["actions"] += [
        {"seat": 1, "action": "show", "cards": cards["1"]},
        {"seat": 2, "action": "show", "cards": cards["2"]},
    ]
    state = replay(data)
    assert outcome_dict(state) == outcome_dict(replay(doc()))
    # dump folds the shows into the cards object
    assert dump(state)["cards"] == {"1": "3s 3d 3c", "2": "Ah 2h 3h"}


def test_a_show_that_contradicts_the_cards_object_is_rejected() -> None:
    data = doc()
    data["actions"].append({"seat": 1, "action": "show", "cards": "As Ad Ac"})
    with pytest.raises(IllegalAction) as err:
        replay(data)
    assert err.value.code == "hand_over"
    assert err.value.index == 5


def test_an_unfinished_hand_reports_its_state_and_what_is_legal() -> None:
    data = doc()
    data["actions"] = data["actions"][:3]
    out = outcome_dict(replay(data))
    assert out["settled"] is False
    assert out["state"]["to_act"] == 1
    legal = {a["action"]: a for a in out["legal_actions"]}
    assert legal["bet"]["min_amount"] == 6 and legal["bet"]["max_amount"] == 26
    assert legal["see"]["allowed"] is False and legal["see"]["code"] == "cannot_see_blind"


def test_missing_cards_are_an_error_with_the_index() -> None:
    data = doc()
    del data["cards"]["2"]
    with pytest.raises(EngineError) as err:
        replay(data)
    assert err.value.code == "missing_cards"
    assert err.value.index == 5  # after the last action
    assert "Bill" in err.value.message


def test_an_illegal_action_reports_its_index() -> None:
    data = doc()
    data["actions"][3]["amount"] = 5  # below the stake of 6
    with pytest.raises(IllegalAction) as err:
        replay(data)
    assert err.value.code == "bet_below_stake"
    assert err.value.index == 3
    assert err.value.to_dict()["index"] == 3


def _mutate(path: str, value: Any) -> dict[str, Any]:
    data = copy.deepcopy(doc())
    target: Any = data
    keys = path.split(".")
    for key in keys[:-1]:
        target = target[int(key)] if isinstance(target, list) else target[key]
    last = keys[-1]
    if value is KeyError:
        del target[last]
    elif isinstance(target, list):
        target[int(last)] = value
    else:
        target[last] = value
    return data


@pytest.mark.parametrize(
    ("path", "value", "code"),
    [
        ("format", "brag-hh/2", "invalid_history"),
        ("rules", KeyError, "invalid_history"),
        ("rules.ante", KeyError, "invalid_rules"),
        ("rules.ante", -1, "invalid_rules"),
        ("rules.max_bet", 1, "invalid_rules"),
        ("rules.see_cost", "triple", "invalid_rules"),
        ("rules.colour", "red", "invalid_rules"),
        ("dealer", "six", "invalid_history"),
        ("seats", [], "invalid_history"),
        ("seats.0.stack", "lots", "invalid_history"),
        ("seats.0.hat", 1, "invalid_history"),
        ("carried", {"pot": -1, "seat": None}, "invalid_setup"),
        ("actions", "none", "invalid_history"),
        ("actions.0", {"seat": 1}, "invalid_history"),
        ("actions.0", {"seat": "one", "action": "look"}, "invalid_history"),
        ("actions.1.amount", "5", "invalid_history"),
        ("actions.1.action", "raise", "unknown_action"),
        ("actions.0.colour", "red", "invalid_history"),
        ("cards.7", "As Kd Qh", "invalid_history"),
        ("cards.2", "Ah 2h", "wrong_card_count"),
        ("cards.2", "Ah 2h Xx", "invalid_card"),
        ("cards.2", "Ah 2h 2h", "duplicate_card"),
        ("extra", 1, "invalid_history"),
    ],
)
def test_invalid_documents_are_rejected_with_a_code(path: str, value: Any, code: str) -> None:
    with pytest.raises(EngineError) as err:
        replay(_mutate(path, value))
    assert err.value.code == code, err.value.message
    assert err.value.message


def test_text_and_bytes_are_accepted_and_bad_json_is_an_error() -> None:
    text = json.dumps(doc())
    assert load_history(text).dealer == 6
    assert load_history(text.encode()).dealer == 6
    for bad in ("{", "[]", "null", b"\xff"):
        with pytest.raises(EngineError) as err:
            load_history(bad)
        assert err.value.code == "invalid_history"


# ---------------------------------------------------------------- the command line


def test_cli_replay_prints_the_outcome_and_exits_0() -> None:
    result = cli("replay", str(FIXTURES / "rules_example.json"))
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    assert out["pots"][0]["amount"] == 30 and out["pots"][0]["winners"] == [1]


def test_cli_replay_of_an_illegal_history_prints_a_json_error_and_exits_1(tmp_path: Path) -> None:
    data = doc()
    data["actions"][4]["amount"] = 12
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    result = cli("replay", str(path))
    assert result.returncode == 1
    error = json.loads(result.stdout)["error"]
    assert error["code"] == "see_wrong_amount"
    assert error["index"] == 4
    assert "exactly 6" in error["message"]


def test_cli_reads_standard_input_and_reports_missing_files() -> None:
    result = cli("replay", "-", stdin=json.dumps(doc()))
    assert result.returncode == 0
    missing = cli("replay", "/nonexistent/hand.json")
    assert missing.returncode == 2
    assert json.loads(missing.stdout)["error"]["code"] == "io_error"


def test_cli_other_commands() -> None:
    result = cli("evaluate", "3s", "3d", "3c")
    assert json.loads(result.stdout) == {
        "category": "prial",
        "strength": 740,
        "hand": "prial of threes",
    }
    bad = cli("evaluate", "3s", "3s", "3c")
    assert bad.returncode == 1 and json.loads(bad.stdout)["error"]["code"] == "duplicate_card"
    normal = cli("normalize", str(FIXTURES / "classic_open_five.json"))
    assert json.loads(normal.stdout)["format"] == "brag-hh/1"
    legal = cli("legal", str(FIXTURES / "classic_open_five.json"))
    assert json.loads(legal.stdout)["phase"] == "settled"


def test_a_see_in_a_document_must_state_its_amount() -> None:
    data = doc()
    del data["actions"][4]["amount"]
    with pytest.raises(EngineError) as err:
        replay(data)
    assert err.value.code == "invalid_history" and err.value.index == 4


def test_card_errors_in_a_document_name_the_seat() -> None:
    data = doc()
    data["cards"]["2"] = "Ah 2h Zz"
    with pytest.raises(EngineError) as err:
        replay(data)
    assert err.value.code == "invalid_card"
    assert err.value.details["seat"] == 2
    with pytest.raises(EngineError) as err2:
        replay(doc("rules_example_as_printed.json"))
    assert err2.value.details == {"seat": 2, "card": "3h", "other": "Andy (seat 1)"}


def test_cli_rejects_a_file_that_is_not_text_with_a_json_error(tmp_path: Path) -> None:
    path = tmp_path / "binary.json"
    path.write_bytes(b"\xff\xfe\x00garbage")
    result = cli("replay", str(path))
    assert result.returncode == 1
    assert json.loads(result.stdout)["error"]["code"] == "invalid_history"
    assert result.stderr == ""


def test_cli_normalize_keeps_meta() -> None:
    normal = json.loads(cli("normalize", str(FIXTURES / "classic_open_five.json")).stdout)
    assert normal["meta"] == doc("classic_open_five.json")["meta"]
    assert normal["rules"]["see_cost"] == "double"  # every option written out


def test_remembered_rules_never_let_a_wrongly_typed_value_through() -> None:
    good = {"ante": 5, "min_bet": 5, "max_bet": 20, "max_raise": 20, "blind_allowed": True}
    from brag_event.engine import Rules

    assert Rules.from_dict(dict(good)).blind_allowed is True
    assert Rules.from_dict(dict(good)) is Rules.from_dict(dict(good))
    for key, value in (("blind_allowed", 1), ("ante", 5.0), ("ante", True)):
        with pytest.raises(EngineError) as err:
            Rules.from_dict({**good, key: value})
        assert err.value.code == "invalid_rules"
    with pytest.raises(EngineError):
        Rules.from_dict({**good, "ante": [5]})  # unhashable: validated, not remembered


def test_a_see_without_an_amount_is_logged_with_its_cost_and_replays() -> None:
    from brag_event.engine import FLASH_DAY_1, HandState, SeatSetup

    state = HandState(FLASH_DAY_1, 1, [SeatSetup(1, "A", 100), SeatSetup(2, "B", 100)])
    state.bet(2, 5)  # blind: stake 10
    state.see(1)  # blind sees for the stake, 10
    assert state.log[-1].amount == 10
    other = HandState(FLASH_DAY_1, 1, [SeatSetup(1, "A", 100), SeatSetup(2, "B", 100)])
    other.bet(2, 5)
    with pytest.raises(IllegalAction) as err:
        other.see(1, 10.0)  # type: ignore[arg-type]
    assert err.value.code == "see_wrong_amount"
    state.show(2, "As Ad 2c").show(1, "Ks Kd 2d")
    assert outcome_dict(replay(dump(state))) == outcome_dict(state)
