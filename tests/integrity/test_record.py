"""The tamper-evident record in the database: actions and voids chained as they are written,
rows changed behind the services (in SQL, as an insider would) caught by the audit and named by
hand, a closed day's published root, and an export verified against it without the database."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.db import connection
from django.http import StreamingHttpResponse
from django.test import Client

from brag_event.closing.models import CloseRequest
from brag_event.closing.services import day_close_request
from brag_event.engine import replay
from brag_event.engine.chain import Tampered, verify_day
from brag_event.events.models import Day, DayClose
from brag_event.hands import chain
from brag_event.hands.models import ActionVoid, Hand, HandAction
from brag_event.hands.services import hand_void_last_action
from brag_event.ledger.audit import ledger_audit
from tests.engine.helpers import cli
from tests.factories import World, act, signed_in, start, world

pytestmark = pytest.mark.django_db

RECORDS = "hand records are intact"
CARDS = ["As Ks Qs", "2c 7d 9h", "3c 3d 3h"]


def play(w: World) -> tuple[Hand, Hand]:
    """Hand 1: a look, a bet, two folds. Hand 2: a bet voided and entered again, a fold, a see
    and both hands shown."""
    first = start(w)
    n = len(w.seats)
    order = [(first.dealer_seat + i) % n + 1 for i in range(n)]
    act(first, seat=order[0], action="look")
    act(first, seat=order[0], action="bet", amount=10)
    act(first, seat=order[1], action="fold")
    first, _ = act(first, seat=order[2], action="fold")
    second = start(w)
    order = [(second.dealer_seat + i) % n + 1 for i in range(n)]
    act(second, seat=order[0], action="look")
    act(second, seat=order[0], action="bet", amount=15)
    hand_void_last_action(hand=second, reason="wrong amount", by=None)
    act(second, seat=order[0], action="bet", amount=10)
    act(second, seat=order[1], action="fold")
    act(second, seat=order[2], action="look")
    second, state = act(second, seat=order[2], action="see", amount=20)
    shown = iter(CARDS)
    while state.outcome is None:
        second, state = act(second, seat=state.cards_needed[0], action="show", cards=next(shown))
    return Hand.objects.get(pk=first.pk), second


def failed(report: Any) -> list[str]:
    return [c.name for c in report.checks if not c.ok]


def test_each_action_and_void_is_chained_as_it_is_written() -> None:
    w = world(3)
    first, second = play(w)
    for hand in (first, second):
        hand.refresh_from_db()
        (chained,) = chain.chains(Hand.objects.filter(pk=hand.pk))
        assert chained.problems == []
        # Every record took a seq of the hand: actions, and the void between them
        assert [e[1] for e in chained.entries] == list(range(1, hand.next_seq))
        assert [e[3] for e in chained.entries] == chained.hashes
        assert hand.chain_head == chained.head == chained.hashes[-1]
    void = ActionVoid.objects.get()
    assert (void.seq, void.action.seq) == (3, 2) and len(void.hash) == 64
    assert not HandAction.objects.filter(hash="").exists()
    report = ledger_audit(event=w.event)
    assert report.ok, "\n".join(report.lines())
    assert any("2 hands' records recomputed" in line for line in report.lines())


def _insider(statement: str, params: list[Any]) -> None:
    """SQL behind the application's back, append-only triggers lifted as the table's owner can."""
    with chain.records_writable(connection), connection.cursor() as cur:
        cur.execute(statement, params)


def _action(hand: Hand, action: str, nth: int = 0) -> HandAction:
    return list(HandAction.objects.filter(hand=hand, action=action).order_by("seq"))[nth]


TAMPERING = ["amount", "seat", "card", "delete", "reorder", "void reason", "stack", "head"]


@pytest.mark.parametrize("change", TAMPERING)
def test_a_row_changed_in_sql_is_caught_and_named_by_its_hand(change: str) -> None:
    w = world(3)
    first, second = play(w)
    assert ledger_audit(event=w.event).ok
    actions, hands = HandAction._meta.db_table, Hand._meta.db_table
    target = second
    if change == "amount":  # the re-entered bet: money the replay also misses
        _insider(f"UPDATE {actions} SET amount = 11 WHERE id = %s", [_action(second, "bet", 1).pk])
    elif change == "seat":  # a look moved to another seat: no money moves, only the record
        look = _action(first, "look")
        other = (look.seat or 0) % 3 + 1
        _insider(f"UPDATE {actions} SET seat = %s WHERE id = %s", [other, look.pk])
        target = first
    elif change == "card":
        show = _action(second, "show")
        _insider(f"UPDATE {actions} SET cards = %s WHERE id = %s", ["Ah Kh Qh", show.pk])
    elif change == "delete":  # the look of hand 1 (no money hangs on it)
        _insider(f"DELETE FROM {actions} WHERE id = %s", [_action(first, "look").pk])
        target = first
    elif change == "reorder":  # the two folds of hand 1 swap places (seq)
        a, b = _action(first, "fold"), _action(first, "fold", 1)
        _insider(f"UPDATE {actions} SET seq = 1000 WHERE id = %s", [a.pk])
        _insider(f"UPDATE {actions} SET seq = %s WHERE id = %s", [a.seq, b.pk])
        _insider(f"UPDATE {actions} SET seq = %s WHERE id = %s", [b.seq, a.pk])
        target = first
    elif change == "void reason":
        _insider(
            f"UPDATE {ActionVoid._meta.db_table} SET reason = 'dealer error' WHERE id = %s",
            [ActionVoid.objects.get().pk],
        )
    elif change == "stack":  # the set-up: a stack as dealt
        seats = second.seats
        seats[0]["stack"] += 50
        _insider(f"UPDATE {hands} SET seats = %s WHERE id = %s", [json.dumps(seats), second.pk])
    else:  # the head alone, pointed at an earlier record (the last one dropped from view)
        earlier = _action(first, "fold").hash
        _insider(f"UPDATE {hands} SET chain_head = %s WHERE id = %s", [earlier, first.pk])
        target = first
    report = ledger_audit(event=w.event)
    assert RECORDS in failed(report), "\n".join(report.lines())
    named = f"Hand {target.number} at table {w.table.number}"
    records = [p for p in report.problems if p.startswith(RECORDS)]
    assert records and all(named in p for p in records), records


def test_rewriting_a_chain_whole_still_breaks_the_closed_days_published_root(
    django_capture_on_commit_callbacks: Any,
) -> None:
    w = world(3)
    first, _second = play(w)
    with django_capture_on_commit_callbacks(execute=True):
        close = day_close_request(day=w.day, by=None)
    close.refresh_from_db()
    day = Day.objects.get(pk=w.day.pk)
    assert close.status == DayClose.Status.DONE
    assert len(day.record_root) == 64
    assert close.report["record_root"] == day.record_root and close.report["record_hands"] == 2
    assert ledger_audit(event=w.event).ok
    # An insider who rewrites a look and recomputes that hand's hashes and head: every hand
    # checks out again, but not the root the day published.
    look = _action(first, "look")
    _insider(
        f"UPDATE {HandAction._meta.db_table} SET seat = %s WHERE id = %s",
        [(look.seat or 0) % 3 + 1, look.pk],
    )
    with chain.records_writable(connection):
        chain.rebuild(Hand.objects.filter(pk=first.pk))
    report = ledger_audit(event=w.event)
    assert RECORDS in failed(report)
    records = [p for p in report.problems if p.startswith(RECORDS)]
    assert len(records) == 1 and "published at its close" in records[0], records
    assert "day 1" in records[0]


def _login_organiser() -> Client:
    return signed_in("organiser")


def _export(day: Day) -> list[str]:
    response = _login_organiser().get(f"/organiser/days/{day.pk}/hands.jsonl")
    assert isinstance(response, StreamingHttpResponse)
    text = b"".join(response.streaming_content).decode()  # type: ignore[arg-type]
    return text.splitlines()


def played_closed_exported(w: World, capture: Any) -> tuple[Day, list[str]]:
    """Two hands played (:func:`play`), the day closed (its close run), and the closed day
    with its export's lines."""
    play(w)
    with capture(execute=True):
        day_close_request(day=w.day, by=None)
    day = Day.objects.get(pk=w.day.pk)
    return day, _export(day)


def test_an_exported_day_verifies_against_its_published_root_and_fails_when_altered(
    django_capture_on_commit_callbacks: Any, tmp_path: Path
) -> None:
    w = world(3)
    day, lines = played_closed_exported(w, django_capture_on_commit_callbacks)
    last = json.loads(lines[-1])
    close = DayClose.objects.get(day=day)
    (asked,) = CloseRequest.objects.filter(day=day)
    # No ruling off the hands: the close's request, then the standings its close took.
    _request, standings = last["entries"]
    assert standings["kind"] == "standings" and standings["hash"] == close.standings_hash
    assert close.standings is not None
    assert standings["rows"] == close.standings["rows"] and len(standings["rows"]) == 3
    assert last == {
        "format": "brag-day/3",
        "event": str(w.event.uid),  # the event's identity: no organiser's edit changes it
        "day": 1,
        "hands": 2,
        # the close's request (no count required; table 1 seated), then the standings
        "entries": [
            {
                "kind": "close_request",
                "seq": 1,
                "count": False,
                "queued": True,
                "tables": [1],
                "by": None,
                "at": asked.requested_at.isoformat(),
                "hash": asked.hash,
            },
            standings,
        ],
        "head": close.standings_hash,
        # the event's money record (buy-ins, fees, leaves, seats) as it stood at the close
        "money": {"seq": day.record_money_seq, "head": day.record_money_head},
        "root": day.record_root,
        "published": True,
    }
    assert day.record_money_seq and day.record_version == 3
    for line in lines[:-1]:
        assert replay(json.loads(line)).outcome is not None  # still brag-hh/1
    second = json.loads(lines[1])
    assert [o["kind"] for o in second["others"]] == ["action", "void"]
    assert verify_day(lines, day.record_root).hands == 2
    # The command line, without the database
    path = tmp_path / "hands.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    ok = cli("verify", str(path), "--root", day.record_root)
    assert ok.returncode == 0 and json.loads(ok.stdout)["verified"] is True, ok.stdout
    # Any single field of any action altered: verification fails, naming the hand and the action
    for i, line in enumerate(lines[:-1]):
        doc = json.loads(line)
        for j, action in enumerate(doc["actions"]):
            for field in ("seat", "action", "amount", "cards"):
                altered = json.loads(line)
                entry = altered["actions"][j]
                entry[field] = {"seat": 6, "action": "fold", "amount": 1}.get(field, "Ah Kh Qh")
                if entry[field] == action.get(field):
                    continue
                tampered = [*lines[:i], json.dumps(altered), *lines[i + 1 :]]
                with pytest.raises(Tampered) as err:
                    verify_day(tampered, day.record_root)
                problem = err.value.problem
                assert (problem.table, problem.hand, problem.seq) == (
                    doc["meta"]["table"],
                    doc["meta"]["hand"],
                    action["seq"],
                )
    bad = json.loads(lines[0])
    bad["actions"][1]["amount"] += 1
    path.write_text("\n".join([json.dumps(bad), *lines[1:]]) + "\n", encoding="utf-8")
    failed_run = cli("verify", str(path), "--root", day.record_root)
    assert failed_run.returncode == 1
    error = json.loads(failed_run.stdout)["error"]
    assert (error["table"], error["hand"], error["seq"]) == (w.table.number, 1, 2)


def test_the_standings_page_shows_a_closed_days_root(
    django_capture_on_commit_callbacks: Any,
) -> None:
    w = world(3)
    play(w)
    page = Client().get(f"/standings/{w.event.pk}/?day=1").content.decode()
    assert "record: root" not in page  # not closed: nothing published yet
    with django_capture_on_commit_callbacks(execute=True):
        day_close_request(day=w.day, by=None)
    root = Day.objects.get(pk=w.day.pk).record_root
    page = Client().get(f"/standings/{w.event.pk}/?day=1").content.decode()
    assert f"Day 1 record: root <code>{root[:8]}…</code>" in page
    assert f'value="{root}"' in page


def test_another_kind_of_record_joins_the_chain_through_a_registered_source(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """What a misdeal or a ruling does (issue 17): ``chain_append`` under the hand's lock and a
    ``model_source`` for its rows. Shown here with the voids' own rows read through a
    ``model_source`` instead of the built-in reader: the audit still recomputes every chain."""
    w = world(3)
    play(w)
    voids = chain.model_source(
        "voids",
        ActionVoid,
        kind="void",
        hand="action__hand_id",
        fields=("action__seq", "reason"),
        content=lambda row: {"voids": row["action__seq"], "reason": row["reason"]},
    )
    sources = [s for s in chain.SOURCES if s.name != "voids"]
    monkeypatch.setattr(chain, "SOURCES", [*sources, voids])
    report = ledger_audit(event=w.event)
    assert report.ok, "\n".join(report.lines())
    # Without the source, the void's seq is missing from the chain: the hand is named.
    monkeypatch.setattr(chain, "SOURCES", sources)
    report = ledger_audit(event=w.event)
    assert next(p for p in report.problems if p.startswith(RECORDS)).startswith(
        f"{RECORDS}: Hand 2 at table {w.table.number}"
    )
