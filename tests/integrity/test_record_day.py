"""The day's own chain in the tamper-evident record (issue 20): the records of a day that belong
to no hand — a ruling at a table with no hand yet, a ruling made while the day closes, the
close's requests — chained under the day's lock, entering the day's published root,
recomputed by the audit (rows changed in SQL are caught), carried by the export's ``brag-day/2``
line and checked by ``verify``; a ruling about a day whose root is published is refused."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.db import connection

from brag_event.closing.models import CloseRequest
from brag_event.closing.services import day_close_request, day_close_run
from brag_event.core.errors import ServiceError
from brag_event.engine import chain as engine_chain
from brag_event.engine.chain import Tampered, verify_day
from brag_event.events.models import Day, DayClose
from brag_event.floor.models import Penalty, Ruling
from brag_event.floor.record import lift_fields
from brag_event.floor.services import penalty_lift, ruling_record
from brag_event.hands import chain
from brag_event.hands.models import Hand
from brag_event.ledger.audit import ledger_audit
from brag_event.ledger.models import MoneyRecord
from brag_event.players.models import Player
from brag_event.players.services import player_register
from brag_event.tables.models import Table
from brag_event.tables.services import table_create
from tests.engine.helpers import cli
from tests.factories import World, world
from tests.integrity.test_record import (
    RECORDS,
    _export,
    _insider,
    _login_organiser,
    failed,
    play,
    played_closed_exported,
)

pytestmark = pytest.mark.django_db

OWN = "Day 1's own record"


def _rule(
    w: World,
    decision: str = "a warning",
    penalty: str = "warning",
    *,
    table: Table | None = None,
    player: Player | None = None,
    **kw: Any,
) -> Ruling:
    return ruling_record(
        table=table or w.table,
        what_happened="Andy swore at the dealer",
        decision=decision,
        players=[(player or w.players[0]).pk],
        penalty=penalty,
        by=None,
        **kw,
    )


def _own(day: Day) -> chain.DayChained:
    (own,) = chain.day_chains(Day.objects.filter(pk=day.pk))
    return own


def _closing(w: World, capture: Any) -> DayClose:
    """The day taken out of play, its close queued but not run yet."""
    with capture(execute=False):
        return day_close_request(day=w.day, by=None)


def test_a_ruling_at_a_table_with_no_hand_yet_goes_onto_the_days_own_chain() -> None:
    w = world(3)
    assert not Hand.objects.exists()
    ruling = _rule(w)
    day = Day.objects.get(pk=w.day.pk)
    assert (ruling.chain_hand_id, ruling.chain_day_id, ruling.seq) == (None, day.pk, 1)
    assert day.record_seq == 2 and day.record_head == ruling.hash
    own = _own(day)
    assert own.problems == [] and own.head == ruling.hash
    assert own.entries[0][2] == {
        "kind": "ruling",
        "seq": 1,
        "table": w.table.number,
        "hand": None,
        "what_happened": "Andy swore at the dealer",
        "decision": "a warning",
        "players": [w.players[0].pk],
        "penalties": [[w.players[0].pk, "warning", 0]],
    }
    # The hash is the engine's: the day's genesis, then the entry.
    assert ruling.hash == engine_chain.link(engine_chain.day_record_genesis(1), own.entries[0][2])
    report = ledger_audit(event=w.event)
    assert report.ok, "\n".join(report.lines())
    assert report.day_entries[day.pk] == sum(report.day_entries.values()) == 1
    assert "1 day-level record;" in next(x for x in report.lines() if RECORDS in x)


def test_a_lift_goes_onto_the_events_money_record() -> None:
    w = world(3)
    play(w)
    ruling = _rule(w, "out", "disqualified")
    assert ruling.chain_hand_id is not None  # the table has hands: onto the latest
    penalty = Penalty.objects.get(ruling=ruling)
    lifted = penalty_lift(penalty=penalty, reason="it was Bill", by=None)
    record = MoneyRecord.objects.get(event=w.event)
    assert (lifted.lift_record_seq, record.head) == (record.next_seq - 1, lifted.lift_record_hash)
    assert (lifted.lift_seq, lifted.lift_hash) == (None, "")  # not the day's own chain
    assert _own(w.day).entries == []
    stored = Penalty.objects.get(pk=penalty.pk)
    assert lift_fields(penalty.pk) == {
        "penalty": penalty.pk,
        "player": w.players[0].pk,
        "lifted_at": stored.lifted_at.isoformat(),  # type: ignore[union-attr]
        "by": None,
        "reason": "it was Bill",
    }
    assert ledger_audit(event=w.event).ok


def test_a_ruling_while_the_day_closes_is_chained_before_the_root_and_refused_once_published(
    django_capture_on_commit_callbacks: Any, tmp_path: Path
) -> None:
    w = world(3)
    first, second = play(w)
    close = _closing(w, django_capture_on_commit_callbacks)
    assert Day.objects.get(pk=w.day.pk).status == Day.Status.CLOSING
    heads_before = {h.pk: h.chain_head for h in Hand.objects.all()}
    late = _rule(w, "a warning, given at the close", hand=second)
    # Not onto the hand (its head stays as it was when the day left play): onto the day's own,
    # after the close's request.
    assert (late.chain_hand_id, late.chain_day_id, late.seq) == (None, w.day.pk, 2)
    assert {h.pk: h.chain_head for h in Hand.objects.all()} == heads_before
    close = day_close_run(close_id=close.pk)
    assert close.status == DayClose.Status.DONE, close.report
    day = Day.objects.get(pk=w.day.pk)
    heads = [(w.table.number, h.number, h.chain_head) for h in (first, second)]
    money = engine_chain.MoneyHead(day.record_money_seq or 0, day.record_money_head)
    event_uid = str(w.event.uid)
    hands_root = engine_chain.record_root_v3(
        heads, None, event=event_uid, day=day.number, money=money
    )
    # The day's own chain: the close's request, the late ruling, then the standings the close
    # took (its head).
    assert (close.standings_seq, day.record_head) == (3, close.standings_hash)
    root = engine_chain.record_root_v3(
        heads, close.standings_hash, event=event_uid, day=day.number, money=money
    )
    assert day.record_root == root != hands_root
    assert close.report["record_root"] == day.record_root
    assert close.report["record_day_entries"] == 3
    # The export carries the entries; verify checks them, the root it published included.
    lines = _export(day)
    last = json.loads(lines[-1])
    assert last["format"] == "brag-day/3" and last["head"] == close.standings_hash
    assert [e["kind"] for e in last["entries"]] == ["close_request", "ruling", "standings"]
    assert last["entries"][1]["decision"] == "a warning, given at the close"
    done = verify_day(lines, day.record_root)
    assert (done.hands, done.entries) == (2, 3)
    path = tmp_path / "hands.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    ok = cli("verify", str(path), "--root", day.record_root)
    assert ok.returncode == 0 and json.loads(ok.stdout)["day_entries"] == 3, ok.stdout
    # An entry altered in the file: named by its seq on the day's line.
    altered = json.loads(lines[-1])
    altered["entries"][1]["decision"] = "no penalty"
    with pytest.raises(Tampered) as err:
        verify_day([*lines[:-1], json.dumps(altered)], day.record_root)
    assert (err.value.problem.line, err.value.problem.seq) == (len(lines), 2)
    # The entries dropped with the head (the hands' root left): only the published root sees it.
    dropped = json.loads(lines[-1]) | {"entries": [], "head": None, "root": hands_root}
    assert verify_day([*lines[:-1], json.dumps(dropped)], None).root == hands_root
    with pytest.raises(Tampered, match="not the published root"):
        verify_day([*lines[:-1], json.dumps(dropped)], day.record_root)
    # Once the root is published, a ruling about the day is refused and nothing is written.
    rulings = Ruling.objects.count()
    with pytest.raises(ServiceError) as refused:
        _rule(w, "later", hand=second)
    assert refused.value.code == "day_closed" and refused.value.details["day"] == 1
    assert Ruling.objects.count() == rulings
    assert Day.objects.get(pk=w.day.pk).record_head == close.standings_hash
    report = ledger_audit(event=w.event)
    assert report.ok, "\n".join(report.lines())


def _day_rows(w: World, capture: Any) -> tuple[Ruling, Ruling, Penalty]:
    """Day 1's own chain: a ruling at a table with no hand (seq 1), the close's request (seq 2),
    then — the day closing — a ruling at table 1 (seq 3). Between them a disqualification is
    lifted (on the event's money record; the ruling that gave it is on table 1's latest hand)."""
    play(w)
    empty = table_create(day=w.day, by=None)
    first = _rule(w, "a first warning", table=empty)
    dora = player_register(event=w.event, name="Dora", starting_money=1000, by=None)
    out = _rule(w, "out", "disqualified", player=dora)
    assert out.chain_hand_id is not None
    penalty = penalty_lift(penalty=Penalty.objects.get(ruling=out), reason="mistaken", by=None)
    _closing(w, capture)
    last = _rule(w, "a warning at the close")
    asked = CloseRequest.objects.get(day=w.day)
    assert [first.seq, asked.seq, last.seq] == [1, 2, 3]
    assert penalty.lift_record_seq is not None and penalty.lift_seq is None
    assert first.chain_day_id == last.chain_day_id == w.day.pk
    return first, last, penalty


TAMPERING = [
    "decision",
    "players",
    "penalty kind",
    "lift reason",
    "un-lifted",
    "moved to a hand",
    "delete last",
    "head",
]


@pytest.mark.parametrize("change", TAMPERING)
def test_a_day_level_row_changed_in_sql_is_caught_and_named_by_its_day(
    change: str, django_capture_on_commit_callbacks: Any
) -> None:
    w = world(3)
    first, last, penalty = _day_rows(w, django_capture_on_commit_callbacks)
    report = ledger_audit(event=w.event)
    assert report.ok, "\n".join(report.lines())
    rulings, penalties = Ruling._meta.db_table, Penalty._meta.db_table
    players = Ruling.players.through._meta.db_table
    seq = {"moved to a hand": 2}.get(change, 1)
    if change == "decision":
        _insider(f"UPDATE {rulings} SET decision = 'nothing' WHERE id = %s", [first.pk])
    elif change == "players":
        _insider(
            f"UPDATE {players} SET player_id = %s WHERE ruling_id = %s",
            [w.players[1].pk, first.pk],
        )
    elif change == "penalty kind":
        _insider(f"UPDATE {penalties} SET kind = 'disqualified' WHERE ruling_id = %s", [first.pk])
    elif change == "lift reason":
        _insider(f"UPDATE {penalties} SET lift_reason = 'x' WHERE id = %s", [penalty.pk])
    elif change == "un-lifted":  # the disqualification back in force
        _insider(f"UPDATE {penalties} SET lifted_at = NULL WHERE id = %s", [penalty.pk])
    elif change == "moved to a hand":  # off the day's chain: the lift after it no longer fits
        hand = Hand.objects.order_by("pk").first()
        assert hand is not None
        _insider(
            f"UPDATE {rulings} SET chain_day_id = NULL, chain_hand_id = %s WHERE id = %s",
            [hand.pk, first.pk],
        )
    elif change == "delete last":
        _insider(f"DELETE FROM {players} WHERE ruling_id = %s", [last.pk])
        _insider(f"DELETE FROM {penalties} WHERE ruling_id = %s", [last.pk])
        _insider(f"DELETE FROM {rulings} WHERE id = %s", [last.pk])
    elif change == "head":
        _insider(
            f"UPDATE {Day._meta.db_table} SET record_head = %s WHERE id = %s",
            ["0" * 64, w.day.pk],
        )
    report = ledger_audit(event=w.event)
    if change in ("lift reason", "un-lifted"):  # the lift is the money record's
        money = [p for p in report.problems if p.startswith("money record is intact")]
        what = f"the lift of the disqualification of Dora (penalty {penalty.pk})"
        assert any(what in p and "does not match its hash" in p for p in money), money
        if change == "un-lifted":
            assert any(
                f"the disqualification of Dora (penalty {penalty.pk}) was lifted on the record "
                f"(entry {penalty.lift_record_seq}) but is in force again" in p
                for p in money
            ), money
        return
    assert RECORDS in failed(report), "\n".join(report.lines())
    records = [p for p in report.problems if p.startswith(RECORDS)]
    own = [p for p in records if OWN in p]
    assert own, records
    if change in ("delete last", "head"):
        assert "its head is not its last record's hash" in own[0]
    else:
        assert f"seq {seq} does not match its hash" in own[0], own


def test_rewriting_the_days_own_chain_whole_still_breaks_its_published_root(
    django_capture_on_commit_callbacks: Any,
) -> None:
    w = world(3)
    first, _last, _penalty = _day_rows(w, django_capture_on_commit_callbacks)
    close = DayClose.objects.get(day=w.day)
    assert day_close_run(close_id=close.pk).status == DayClose.Status.DONE
    close.refresh_from_db()
    day = Day.objects.get(pk=w.day.pk)
    assert ledger_audit(event=w.event).ok
    # An insider who changes the first ruling and recomputes every later hash and the head.
    _insider(f"UPDATE {Ruling._meta.db_table} SET decision = 'nothing' WHERE id = %s", [first.pk])
    own = _own(day)
    asked = CloseRequest.objects.get(day=day)
    for (_d, seq, _content, _digest), digest in zip(own.entries, own.hashes, strict=True):
        if seq == asked.seq:
            _insider(
                f"UPDATE {CloseRequest._meta.db_table} SET hash = %s WHERE id = %s",
                [digest, asked.pk],
            )
        elif seq == close.standings_seq:
            _insider(
                f"UPDATE {DayClose._meta.db_table} SET standings_hash = %s WHERE id = %s",
                [digest, close.pk],
            )
        else:
            _insider(
                f"UPDATE {Ruling._meta.db_table} SET hash = %s WHERE chain_day_id = %s "
                "AND seq = %s",
                [digest, day.pk, seq],
            )
    _insider(f"UPDATE {Day._meta.db_table} SET record_head = %s WHERE id = %s", [own.head, day.pk])
    assert _own(day).problems == []
    report = ledger_audit(event=w.event)
    records = [p for p in report.problems if p.startswith(RECORDS)]
    assert len(records) == 1 and "published at its close" in records[0], records


def test_an_old_day_line_without_its_own_chain_still_verifies(
    django_capture_on_commit_callbacks: Any,
) -> None:
    """A day without day-level records publishes the hands' root, as before the day's own
    chain existed: its export written the old way (``brag-day/1``) verifies against it."""
    w = world(3)
    day, lines = played_closed_exported(w, django_capture_on_commit_callbacks)
    # A day published before roots named their event and day (brag-day/1 and /2).
    heads = [
        (h["meta"]["table"], h["meta"]["hand"], h["head"]) for h in map(json.loads, lines[:-1])
    ]
    old_root = engine_chain.record_root(heads, None)
    new = json.loads(lines[-1])
    old = {k: new[k] for k in ("event", "day", "hands", "published")} | {"root": old_root}
    old["format"] = "brag-day/1"
    assert verify_day([*lines[:-1], json.dumps(old)], old_root).hands == 2
    assert (
        verify_day([*lines[:-1], json.dumps(old | {"format": "brag-day/2"})], old_root).hands == 2
    )
    # Not against the day's brag-day/3 root: the old way never gives it.
    with pytest.raises(Tampered, match="published root"):
        verify_day([*lines[:-1], json.dumps(old)], day.record_root)
    day.record_root = old_root
    # A brag-day/1 line cannot smuggle entries in.
    with pytest.raises(Tampered, match="brag-day/1"):
        verify_day(
            [*lines[:-1], json.dumps(old | {"entries": [{"kind": "ruling", "seq": 1}]})],
            old_root,
        )


def test_a_ruling_on_the_days_own_chain_moves_the_days_row() -> None:
    """The day's row is what serialises a ruling with the close (docs/integrity.md): the ruling
    that takes the day's chain updates it in the same transaction."""
    w = world(3)
    statements: list[str] = []

    def watch(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        statements.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(watch):
        _rule(w)
    day = Day._meta.db_table
    assert any(s.startswith(f'UPDATE "{day}"') and "record_head" in s for s in statements)


def test_the_close_report_prints_the_root_and_the_days_own_records(
    django_capture_on_commit_callbacks: Any,
) -> None:
    w = world(3)
    play(w)
    close = _closing(w, django_capture_on_commit_callbacks)
    _rule(w, "a warning at the close")
    day_close_run(close_id=close.pk)
    root = Day.objects.get(pk=w.day.pk).record_root
    page = _login_organiser().get(f"/organiser/days/{w.day.pk}/close/").content.decode()
    assert f'root <code class="wrap-anywhere">{root}</code>, over 2 hands' in page
    # the close's request, the ruling, and the standings the close took
    assert "and 3 of the day's own records" in page
