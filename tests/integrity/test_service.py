"""Running the monitor on the database: the run and its flags are kept with plain words and
the hands behind them; the periodic check runs only when something changed."""

from __future__ import annotations

from typing import Any

import pytest

from brag_event.audit.models import AuditEntry
from brag_event.integrity import stats
from brag_event.integrity.models import IntegrityFlag, IntegrityRun
from brag_event.integrity.services import integrity_check, integrity_run
from tests.factories import assert_audit_ok

from .conftest import Floor

pytestmark = pytest.mark.django_db


@pytest.fixture
def small(monkeypatch: Any, settings: Any) -> None:
    """A small event's thresholds: the logic is the same, the minimums are not."""
    monkeypatch.setattr(stats, "MIN_DEALER_HANDS", 2)
    settings.BRAG_INTEGRITY_ALPHA = 0.2


def sloppy(floor: Floor) -> list[int]:
    """dealer1 deals six hands, each with an action voided; dealer2 six clean ones."""
    voided = [floor.folded_hand(by="dealer1", voided=True).pk for _ in range(6)]
    for _ in range(6):
        floor.folded_hand(by="dealer2")
    return voided


def test_a_run_keeps_its_flags_in_plain_words_with_the_hands(floor: Floor, small: None) -> None:
    voided = sloppy(floor)
    run = integrity_run(event=floor.world.event, by=floor.actor("supervisor"))
    assert run.hands == 12 and run.trigger == IntegrityRun.Trigger.MANUAL
    assert run.requested_by == floor.users["supervisor"] and run.alpha == 0.2
    assert run.tests["dealers"] == 2  # two dealers, voids (the only kind of mistake seen)
    (flag,) = run.flags.all()
    assert (flag.kind, flag.subject) == ("dealers", "dealer1: voided actions")
    assert flag.subject_key == {
        "kind": "dealer",
        "id": floor.users["dealer1"].pk,
        "mistake": "voids",
    }
    assert sorted(flag.hands) == sorted(voided)
    assert flag.p_value == pytest.approx(0.5**6) and flag.threshold == pytest.approx(0.1)
    assert "dealer1 has 6 voided actions in 6 hands (100.0 per 100)" in flag.explanation
    assert "the other dealers have 0 in 6" in flag.explanation
    assert "Watch dealer1" in flag.advice
    rows = {r["dealer"]: r for r in run.overview["dealers"]["rows"]}
    assert rows["dealer1"]["voids"] == {"count": 6, "per_100": 100.0}
    assert rows["dealer2"]["voids"] == {"count": 0, "per_100": 0.0}
    entry = AuditEntry.objects.get(verb="integrity.run")
    assert entry.actor == floor.users["supervisor"] and entry.data["flags"] == [
        "dealers: dealer1: voided actions"
    ]
    assert_audit_ok(floor.world.event)


def test_nothing_flagged_on_honest_hands(floor: Floor, small: None) -> None:
    for _ in range(4):
        floor.folded_hand(by="dealer1")
        floor.folded_hand(by="dealer2")
    run = integrity_run(event=floor.world.event, by=None)
    assert run.flags.count() == 0 and run.hands == 8
    assert IntegrityFlag.objects.count() == 0


def test_the_periodic_check_runs_only_when_something_changed(floor: Floor) -> None:
    event = floor.world.event
    assert integrity_check(event=event) is None  # no hands at all yet
    floor.folded_hand()
    first = integrity_check(event=event)
    assert first is not None and first.trigger == IntegrityRun.Trigger.PERIODIC
    assert integrity_check(event=event) is None  # nothing new
    # A periodic run with no flags is not an audit entry of its own.
    assert not AuditEntry.objects.filter(verb="integrity.run").exists()
    floor.folded_hand()
    second = integrity_check(event=event)
    assert second is not None and second.hands == 2
    hand = floor.start()
    floor.act(hand, seat=hand.dealer_seat % 3 + 1, action="look")
    assert integrity_check(event=event) is None  # a hand in play is not analysed yet
    floor.void(hand)
    assert integrity_check(event=event) is not None  # but a void is news
