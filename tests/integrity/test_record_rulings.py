"""Rulings in the tamper-evident record (issue 20): chained onto their hand (or their table's
latest hand), recomputed by the audit, carried by the day's export and checked by ``verify``."""

from __future__ import annotations

import json
from typing import Any

import pytest

from brag_event.closing.services import day_close_request
from brag_event.core.errors import Conflict, StaleHand
from brag_event.engine.chain import Tampered, verify_day
from brag_event.events.models import Day
from brag_event.floor.models import Ruling
from brag_event.floor.services import ruling_record
from brag_event.hands import chain
from brag_event.hands.models import Hand
from brag_event.hands.services import hand_apply_action
from brag_event.ledger.audit import ledger_audit
from tests.factories import World, start, world
from tests.integrity.test_record import RECORDS, _export, _insider, failed, play

pytestmark = pytest.mark.django_db


def _rule(w: World, hand: Hand | None, decision: str = "a warning") -> Ruling:
    return ruling_record(
        table=w.table,
        hand=hand,
        what_happened="Andy showed his cards to a neighbour",
        decision=decision,
        players=[w.players[1].pk, w.players[0].pk],
        penalty="warning",
        by=None,
    )


def test_a_ruling_is_chained_onto_its_hand_and_one_without_a_hand_onto_the_latest() -> None:
    w = world(3)
    first, second = play(w)
    about = _rule(w, first)
    loose = _rule(w, None, "no penalty needed")
    first.refresh_from_db()
    second.refresh_from_db()
    assert (about.chain_hand_id, about.seq) == (first.pk, first.next_seq - 1)
    assert (loose.chain_hand_id, loose.seq) == (second.pk, second.next_seq - 1)
    assert first.chain_head == about.hash and second.chain_head == loose.hash
    (chained,) = chain.chains(Hand.objects.filter(pk=first.pk))
    assert chained.problems == [] and chained.entries[-1][2] == {
        "kind": "ruling",
        "seq": about.seq,
        "table": w.table.number,
        "hand": first.number,
        "what_happened": "Andy showed his cards to a neighbour",
        "decision": "a warning",
        "players": sorted([w.players[0].pk, w.players[1].pk]),
        "penalties": [[p.pk, "warning", 0] for p in sorted(w.players[:2], key=lambda p: p.pk)],
    }
    report = ledger_audit(event=w.event)
    assert report.ok, "\n".join(report.lines())


def test_a_ruling_on_a_hand_in_play_takes_its_seq_so_a_tablet_behind_it_is_stale() -> None:
    w = world(3)
    hand = start(w)
    expected = hand.next_seq
    ruling = _rule(w, hand)
    assert ruling.seq == expected
    seat = (hand.dealer_seat % 3) + 1
    with pytest.raises(StaleHand):
        hand_apply_action(
            hand=hand, action={"seat": seat, "action": "look"}, expected_seq=expected, by=None
        )


@pytest.mark.parametrize("column", ["decision", "what_happened", "penalty"])
def test_a_ruling_changed_in_sql_is_caught_and_named_by_its_hand(column: str) -> None:
    w = world(3)
    first, _second = play(w)
    ruling = _rule(w, first)
    assert ledger_audit(event=w.event).ok
    if column == "penalty":
        _insider("UPDATE floor_penalty SET kind = 'disqualified' WHERE ruling_id = %s", [ruling.pk])
    else:
        _insider(f"UPDATE floor_ruling SET {column} = 'nothing' WHERE id = %s", [ruling.pk])
    report = ledger_audit(event=w.event)
    assert RECORDS in failed(report), "\n".join(report.lines())
    records = [p for p in report.problems if p.startswith(RECORDS)]
    assert records and all(f"Hand {first.number} at table {w.table.number}" in p for p in records)
    assert any(f"ruling seq {ruling.seq}" in p for p in records), records


def test_an_exported_day_with_a_ruling_verifies_and_fails_when_the_decision_is_altered(
    django_capture_on_commit_callbacks: Any,
) -> None:
    w = world(3)
    first, _second = play(w)
    ruling = _rule(w, first)
    with django_capture_on_commit_callbacks(execute=True):
        day_close_request(day=w.day, by=None)
    day = Day.objects.get(pk=w.day.pk)
    lines = _export(day)
    assert verify_day(lines, day.record_root).hands == 2
    doc = json.loads(lines[0])
    (entry,) = [o for o in doc["others"] if o["kind"] == "ruling"]
    assert entry["decision"] == "a warning" and entry["seq"] == ruling.seq
    entry["decision"] = "no penalty"
    with pytest.raises(Tampered) as err:
        verify_day([json.dumps(doc), *lines[1:]], day.record_root)
    assert (err.value.problem.hand, err.value.problem.seq) == (first.number, ruling.seq)
    # A ruling about the day once its root is published is refused (tests/integrity/
    # test_record_day.py): the published root stays the day's.
    with pytest.raises(Conflict) as refused:
        _rule(w, first, "later")
    assert refused.value.code == "day_closed"
    assert ledger_audit(event=w.event).ok
