"""The tamper-evident record: hand chains, a day's root, and ``verify`` (no database)."""

from __future__ import annotations

import copy
import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from brag_event.engine import replay
from brag_event.engine.chain import (
    DAY_FORMAT,
    DAY_FORMAT_2,
    ZERO,
    MoneyHead,
    Tampered,
    action_content,
    canonical,
    day_line,
    day_record_genesis,
    day_root,
    genesis,
    link,
    record_root,
    record_root_v3,
    seal,
    verify_day,
    verify_hand,
)

from .helpers import cli

FIXTURES = Path(__file__).parent / "fixtures"


def _hand(name: str, table: int, number: int) -> dict[str, Any]:
    """A fixture as the export writes a hand: shows in the actions, table and hand in meta."""
    doc: dict[str, Any] = json.loads((FIXTURES / name).read_text(encoding="utf-8"))
    cards = doc.pop("cards", {}) or {}
    state = replay(copy.deepcopy(doc) | {"cards": cards})
    shows = [a.to_dict() for a in state.log if a.action == "show"]
    doc["actions"] = [*doc["actions"], *shows]
    doc["meta"] = {"event": "TEST", "day": 1, "table": table, "hand": number}
    return doc


def day() -> list[dict[str, Any]]:
    """Four sealed hands at two tables; the second has a voided action and its void."""
    first = _hand("rules_example.json", 1, 1)
    voided = _hand("classic_open_five.json", 1, 2)
    # A bet entered by mistake (seq 3) and voided (seq 4); the real actions go on from seq 5.
    actions = voided["actions"]
    for i, action in enumerate(actions):
        action["seq"] = i + 1 if i < 2 else i + 3
    voided["others"] = [
        {"kind": "action", "seq": 3, "seat": actions[2].get("seat"), "action": "fold"},
        {"kind": "void", "seq": 4, "voids": 3, "reason": "wrong seat"},
    ]
    return [
        seal(first),
        seal(voided),
        seal(_hand("classic_blind_five.json", 2, 1)),
        seal(_hand("rules_example.json", 2, 2)),
    ]


def lines(hands: list[dict[str, Any]], root: str | None = None) -> list[str]:
    root = root or day_root((h["meta"]["table"], h["meta"]["hand"], h["head"]) for h in hands)
    out = [json.dumps(h) for h in hands]
    out.append(
        json.dumps(day_line(event="TEST", day=1, hands=len(hands), root=root, format=DAY_FORMAT_2))
    )
    return out


def published(hands: list[dict[str, Any]]) -> str:
    return verify_day(lines(hands), None).root


def test_an_entry_hash_is_sha256_of_the_previous_hash_and_the_canonical_content() -> None:
    content = action_content(seq=1, seat=2, action="bet", amount=5, hand=None, cards=None)
    assert canonical(content) == (
        b'{"action":"bet","amount":5,"cards":null,"hand":null,"kind":"action","seat":2,"seq":1}'
    )
    expected = hashlib.sha256(bytes.fromhex(ZERO) + canonical(content)).hexdigest()
    assert link(ZERO, content) == expected


def test_a_sealed_day_verifies_and_every_hand_still_replays() -> None:
    hands = day()
    done = verify_day(lines(hands), None)
    assert done.hands == 4
    assert verify_day(lines(hands), done.root).root == done.root
    for hand in hands:
        replay(hand)  # the chain's fields are part of brag-hh/1: replay ignores them
    # The head is the last entry's hash; the others' entries are chained too.
    second = hands[1]
    assert second["head"] == second["actions"][-1]["hash"]
    assert second["others"][1]["hash"] != second["others"][0]["hash"]


def test_the_root_is_a_chain_over_the_hand_heads_in_table_then_hand_order() -> None:
    hands = day()
    heads = [(h["meta"]["table"], h["meta"]["hand"], h["head"]) for h in hands]
    root = link(ZERO, {"kind": "day"})
    for table, number, head in sorted(heads):
        root = link(root, {"kind": "hand", "table": table, "hand": number, "head": head})
    assert day_root(reversed(heads)) == root
    # The file's order does not matter, a head does
    assert verify_day(lines(list(reversed(hands))), root).root == root
    assert day_root(heads[:-1]) != root


def test_a_hand_without_actions_has_its_genesis_as_head() -> None:
    hand = _hand("rules_example.json", 3, 1)
    hand["actions"] = []
    sealed = seal(hand)
    assert sealed["head"] == genesis(
        {
            "kind": "hand",
            "table": 3,
            "hand": 1,
            "dealer": hand["dealer"],
            "rules": hand["rules"],
            "seats": [
                {
                    "seat": s["seat"],
                    "player": s["player"],
                    "stack": s["stack"],
                    "sitting_out": False,
                }
                for s in hand["seats"]
            ],
            "carried": {"pot": 0, "seat": None},
        }
    )
    assert verify_hand(sealed) == (3, 1, sealed["head"])


def _failure(hands: list[dict[str, Any]], root: str) -> dict[str, Any]:
    with pytest.raises(Tampered) as err:
        verify_day(lines(hands, root), root)
    return err.value.problem.to_dict()


def _examples(full: int) -> int:
    """``full`` examples, as ``make test`` runs them; the fast profile's few under ``make
    test-fast`` (tests/conftest.py)."""
    if settings.get_current_profile_name() == "fast":
        return min(full, settings.get_profile("fast").max_examples)
    return full


# Values an insider might write instead: numbers, other actions, cards, nothing.
VALUES = st.one_of(
    st.none(),
    st.integers(-5, 300),
    st.sampled_from(["bet", "see", "fold", "look", "cover", "old", "new", "As Ks Qs", "9c 9d 9h"]),
    st.text(max_size=5),
)


@settings(max_examples=_examples(150), deadline=None)
@given(data=st.data())
def test_changing_any_single_field_of_any_action_breaks_verification(data: st.DataObject) -> None:
    hands = day()
    root = published(hands)
    h = data.draw(st.integers(0, len(hands) - 1), label="hand")
    hand = hands[h]
    entries = [*hand["actions"], *hand.get("others", [])]
    entry = data.draw(st.sampled_from(entries), label="entry")
    fields = ["seat", "action", "amount", "hand", "cards", "hash"]
    if "voids" in entry:
        fields = ["voids", "reason", "hash"]
    name = data.draw(st.sampled_from(fields), label="field")
    old = entry.get(name)
    new = data.draw(VALUES.filter(lambda v: v != old), label="new")
    if new is None:
        del entry[name]  # a field removed (it had a value)
    else:
        entry[name] = new
    problem = _failure(hands, root)
    assert (problem["table"], problem["hand"]) == (hand["meta"]["table"], hand["meta"]["hand"])
    assert problem["seq"] == entry["seq"]


@settings(max_examples=_examples(50), deadline=None)
@given(data=st.data())
def test_changing_the_set_up_or_moving_an_entry_breaks_verification(data: st.DataObject) -> None:
    hands = day()
    root = published(hands)
    hand = hands[data.draw(st.integers(0, len(hands) - 1), label="hand")]
    change = data.draw(
        st.sampled_from(["stack", "player", "dealer", "carried", "rule", "seq", "drop", "swap"])
    )
    actions = hand["actions"]
    if change == "stack":
        hand["seats"][0]["stack"] += 1
    elif change == "player":
        hand["seats"][-1]["player"] = "Mallory"
    elif change == "dealer":
        hand["dealer"] = hand["dealer"] % 6 + 1
    elif change == "carried":
        hand["carried"] = {"pot": 10, "seat": None}
    elif change == "rule":
        hand["rules"]["ante"] += 1
    elif change == "seq":
        actions[-1]["seq"] += 10
    elif change == "drop":
        actions.pop(data.draw(st.integers(0, len(actions) - 1)))
    else:
        i = data.draw(st.integers(0, len(actions) - 2))
        actions[i]["seq"], actions[i + 1]["seq"] = actions[i + 1]["seq"], actions[i]["seq"]
    problem = _failure(hands, root)
    assert (problem["table"], problem["hand"]) == (hand["meta"]["table"], hand["meta"]["hand"])


def test_a_hand_rewritten_with_fresh_hashes_still_fails_against_the_published_root() -> None:
    hands = day()
    root = published(hands)
    forged = copy.deepcopy(hands[0])
    for key in ("head",):
        forged.pop(key)
    for action in forged["actions"]:
        action.pop("hash")
        if action["action"] == "bet":
            action["amount"] += 1
    hands[0] = seal(forged)
    problem = _failure(hands, root)
    assert "published root" in problem["message"]
    # And a removed hand, or one added twice
    assert "published root" in _failure(day()[1:], root)["message"]
    assert "twice" in _failure([*day(), day()[0]], root)["message"]


def test_cards_outside_the_chain_are_refused() -> None:
    hands = day()
    root = published(hands)
    hands[2]["cards"] = {"1": "As Ks Qs"}
    assert "cards outside" in _failure(hands, root)["message"]


def test_the_command_line_verifies_a_day_and_names_the_first_bad_action() -> None:
    hands = day()
    root = published(hands)
    ok = cli("verify", "-", "--root", root, stdin="\n".join(lines(hands)) + "\n")
    assert ok.returncode == 0, ok.stdout
    assert json.loads(ok.stdout) == {
        "verified": True,
        "format": "brag-day/2",
        "hands": 4,
        "day_entries": 0,
        "root": root,
    }
    # brag-day/3: the event and the day it names are printed, checked by the root.
    good = v3_lines(day())
    done = verify_day(good, None)
    v3 = cli("verify", "-", "--root", done.root, stdin="\n".join(good) + "\n")
    assert json.loads(v3.stdout) == {
        "verified": True,
        "format": "brag-day/3",
        "event": EVENT,
        "day": 1,
        "hands": 4,
        "day_entries": 0,
        "root": done.root,
    }
    hands[3]["actions"][1]["amount"] += 1
    bad = cli("verify", "-", "--root", root, stdin="\n".join(lines(hands, root)) + "\n")
    assert bad.returncode == 1
    error = json.loads(bad.stdout)["error"]
    assert error["code"] == "tampered"
    assert (error["line"], error["table"], error["hand"], error["seq"]) == (4, 2, 2, 2)
    wrong = cli("verify", "-", "--root", "ab" * 32, stdin="\n".join(lines(day())) + "\n")
    assert wrong.returncode == 1
    assert cli("verify", "/nonexistent.jsonl", stdin="").returncode == 2


# ------------------------------------------------------------------------ the day's own chain


def _own_entries() -> list[dict[str, Any]]:
    """Two day-level records as the export writes them: a ruling at a table with no hand yet
    and a disqualification lifted, each with its hash chained from the day's genesis."""
    raw: list[dict[str, Any]] = [
        {
            "kind": "ruling",
            "seq": 1,
            "table": 3,
            "hand": None,
            "what_happened": "Andy swore at the dealer",
            "decision": "a warning",
            "players": [7],
            "penalties": [[7, "warning", 0]],
        },
        {
            "kind": "lift",
            "seq": 2,
            "penalty": 4,
            "player": 9,
            "lifted_at": "2026-11-23T02:00:00+00:00",
            "by": 2,
            "reason": "it was Bill",
        },
    ]
    current = day_record_genesis(1)
    for entry in raw:
        current = link(current, entry)
        entry["hash"] = current
    return raw


def own_lines(hands: list[dict[str, Any]], entries: list[dict[str, Any]]) -> list[str]:
    head = entries[-1]["hash"] if entries else None
    heads = [(h["meta"]["table"], h["meta"]["hand"], h["head"]) for h in hands]
    root = record_root(heads, head)
    line = day_line(
        event="TEST",
        day=1,
        hands=len(hands),
        root=root,
        entries=entries,
        head=head,
        format=DAY_FORMAT_2,
    )
    return [*(json.dumps(h) for h in hands), json.dumps(line)]


def test_the_days_own_chain_enters_the_root_after_the_hands() -> None:
    hands, entries = day(), _own_entries()
    heads = [(h["meta"]["table"], h["meta"]["hand"], h["head"]) for h in hands]
    head = entries[-1]["hash"]
    genesis_ = link(ZERO, {"kind": "day-record", "day": 1})
    first = {k: v for k, v in entries[0].items() if k != "hash"}
    assert entries[0]["hash"] == link(genesis_, first)
    root = record_root(heads, head)
    assert root == link(day_root(heads), {"kind": "day-record", "head": head})
    # Without day-level records the root is the hands' root, as it always was.
    assert record_root(heads) == day_root(heads)
    done = verify_day(own_lines(hands, entries), root)
    assert (done.hands, done.entries, done.root) == (4, 2, root)


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_changing_any_field_of_a_day_entry_breaks_verification(data: st.DataObject) -> None:
    hands, entries = day(), _own_entries()
    good = own_lines(hands, entries)
    root = verify_day(good, None).root
    i = data.draw(st.integers(0, len(entries) - 1))
    name = data.draw(st.sampled_from(sorted(k for k in entries[i] if k != "hash")))
    altered = json.loads(good[-1])
    value = altered["entries"][i][name]
    altered["entries"][i][name] = data.draw(
        st.one_of(st.integers(0, 9), st.text(max_size=3), st.none()).filter(
            lambda v: v != value or type(v) is not type(value)
        )
    )
    with pytest.raises(Tampered) as err:
        verify_day([*good[:-1], json.dumps(altered)], root)
    problem = err.value.problem
    assert problem.line == len(good) and problem.table is None
    if name not in ("seq", "kind"):  # a changed kind or seq may be refused as malformed
        assert problem.seq == entries[i]["seq"]


def test_a_day_entry_dropped_or_its_line_removed_fails_against_the_published_root() -> None:
    hands, entries = day(), _own_entries()
    good = own_lines(hands, entries)
    root = verify_day(good, None).root
    # The last entry dropped, the head moved back to the one before: consistent in itself.
    shorter = own_lines(hands, entries[:1])
    assert verify_day(shorter, None).root != root
    with pytest.raises(Tampered, match="published root"):
        verify_day(shorter, root)
    # The day's line left out: only the hands, whose root is not the published one.
    with pytest.raises(Tampered, match="published root"):
        verify_day(good[:-1], root)
    # A head that is not the last entry's hash, and a second day line.
    wrong = json.loads(good[-1]) | {"head": entries[0]["hash"]}
    with pytest.raises(Tampered, match="head does not match"):
        verify_day([*good[:-1], json.dumps(wrong)], root)
    with pytest.raises(Tampered, match="second day line"):
        verify_day([*good, good[-1]], root)


# ------------------------------------------------------------------------------ brag-day/3

EVENT = "5f0c7d2e-0000-4000-8000-00000000abcd"
MONEY = MoneyHead(7, "ab" * 32)


def v3_lines(hands: list[dict[str, Any]], *, day_number: int = 1) -> list[str]:
    """The day as a brag-day/3 export: every hand's meta names the event (its UUID) and day."""
    hands = copy.deepcopy(hands)
    for h in hands:
        h["meta"] = h["meta"] | {"event": EVENT, "day": day_number}
    heads = [(h["meta"]["table"], h["meta"]["hand"], h["head"]) for h in hands]
    root = record_root_v3(heads, None, event=EVENT, day=day_number, money=MONEY)
    line = day_line(event=EVENT, day=day_number, hands=len(hands), root=root, money=MONEY)
    return [*(json.dumps(h) for h in hands), json.dumps(line)]


def test_a_v3_root_names_its_event_its_day_and_the_money_record() -> None:
    good = v3_lines(day())
    done = verify_day(good, None)
    assert (done.format, done.event, done.day, done.hands) == (DAY_FORMAT, EVENT, 1, 4)
    assert json.loads(good[-1])["format"] == "brag-day/3"
    # Two days without hands no longer share a root; nor two events.
    empty = [verify_day(v3_lines([], day_number=n), None).root for n in (1, 2)]
    assert empty[0] != empty[1]
    assert record_root_v3([], None, event=EVENT, day=1, money=None) != record_root_v3(
        [], None, event=EVENT.replace("a", "b"), day=1, money=None
    )
    # The day line's event, day or money record changed: the published root fails.
    for field, value in (
        ("event", "another"),
        ("day", 2),
        ("money", {"seq": 6, "head": "ab" * 32}),
    ):
        line = json.loads(good[-1]) | {field: value}
        with pytest.raises(Tampered):
            verify_day([*good[:-1], json.dumps(line)], done.root)


def test_a_v3_hand_must_name_the_day_lines_event_and_day() -> None:
    good = v3_lines(day())
    root = verify_day(good, None).root
    for field, value in (("event", "another"), ("day", 2)):
        doc = json.loads(good[0])
        doc["meta"][field] = value
        with pytest.raises(Tampered, match="the hand names event") as err:
            verify_day([json.dumps(doc), *good[1:]], root)
        assert (err.value.problem.line, err.value.problem.table) == (1, 1)


@pytest.mark.parametrize(
    "where",
    ["top", "meta", "seat", "action", "carried", "day line", "voided action"],
)
def test_a_v3_export_refuses_a_field_nothing_checks(where: str) -> None:
    good = v3_lines(day())
    root = verify_day(good, None).root
    docs = [json.loads(line) for line in good]
    target = {
        "top": docs[0],
        "meta": docs[0]["meta"],
        "seat": docs[0]["seats"][0],
        "action": docs[0]["actions"][0],
        "carried": docs[0]["carried"],
        "day line": docs[-1],
        "voided action": docs[1]["others"][0],
    }[where]
    target["winner"] = "seat 2"
    with pytest.raises(Tampered, match=r"a field no export writes: .*winner"):
        verify_day([json.dumps(d) for d in docs], root)


def test_a_v3_day_line_counts_its_hands_and_comes_last() -> None:
    good = v3_lines(day())
    root = verify_day(good, None).root
    with pytest.raises(Tampered, match="counts 4 hands, the file has 3"):
        verify_day(good[1:], root)
    with pytest.raises(Tampered, match="a line after the day line"):
        verify_day([*good, good[0]], root)
    # A v2 line cannot stand in for the v3 one: its root is computed the old way.
    old = json.loads(good[-1]) | {"format": DAY_FORMAT_2}
    del old["money"]
    with pytest.raises(Tampered, match="published root"):
        verify_day([*good[:-1], json.dumps(old)], root)
