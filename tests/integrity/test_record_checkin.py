"""Check-ins on the tamper-evident record (issue 47): each check-in is an entry of kind
``check_in`` on its day's own chain, so a closed day's published root covers who checked in;
the day's export carries them and ``verify`` checks them against the root, and fails when one
is altered."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from brag_event.engine.chain import Tampered, verify_day
from brag_event.events.models import Day
from brag_event.players.checkin import checkin_window_set, player_check_in
from brag_event.players.models import CheckIn
from tests.factories import world
from tests.integrity.test_record import played_closed_exported

pytestmark = pytest.mark.django_db


def test_a_closed_days_check_ins_are_in_its_root_and_verify(
    django_capture_on_commit_callbacks: Any,
) -> None:
    w = world(3)
    now = timezone.now()
    checkin_window_set(
        day=w.day, opens_at=now - timedelta(minutes=5), closes_at=now + timedelta(hours=1), by=None
    )
    for p in w.players[:2]:
        player_check_in(day=Day.objects.get(pk=w.day.pk), player=p, how="desk", by=None)
    day, lines = played_closed_exported(w, django_capture_on_commit_callbacks)
    entries = json.loads(lines[-1])["entries"]
    kinds = [e["kind"] for e in entries]
    assert kinds[:2] == ["check_in", "check_in"], kinds
    assert [e["hash"] for e in entries[:2]] == list(
        CheckIn.objects.filter(day=day).order_by("seq").values_list("hash", flat=True)
    )
    assert verify_day(lines, day.record_root).hands == 2
    # Who checked in, changed in the export: the root no longer agrees.
    last = json.loads(lines[-1])
    last["entries"][0]["player"] = w.players[2].pk
    with pytest.raises(Tampered):
        verify_day([*lines[:-1], json.dumps(last)], day.record_root)
