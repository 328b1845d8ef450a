"""Idempotency records are pruned after their window (``BRAG_IDEMPOTENCY_DAYS``) by a periodic
task (Celery beat), and pruning twice is pruning once."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.utils import timezone

from brag_event.api.models import IdempotencyRecord
from brag_event.api.services import idempotency_prune
from brag_event.api.tasks import idempotency_prune_task

from .conftest import Api, post, start_hand

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("unthrottled")]


@pytest.fixture
def api(shared_api: Api) -> Api:
    return shared_api


def test_the_beat_schedule_prunes_idempotency_records() -> None:
    entry = settings.CELERY_BEAT_SCHEDULE["idempotency-prune"]
    assert entry["task"] == idempotency_prune_task.name
    assert settings.BRAG_IDEMPOTENCY_DAYS >= 1


def test_records_past_the_window_are_pruned_and_a_retry_then_runs_afresh(api: Api) -> None:
    hand = start_hand(api, key="start-1")
    url = f"/api/v1/hands/{hand['id']}/actions/"
    looked = post(api.client("dealer"), url, {"seat": 2, "action": "look", "expected_seq": 1}, "a1")
    assert looked.status_code == 201
    assert IdempotencyRecord.objects.count() == 2
    window = timedelta(days=settings.BRAG_IDEMPOTENCY_DAYS)
    old = timezone.now() - window - timedelta(minutes=1)
    IdempotencyRecord.objects.filter(key="start-1").update(created_at=old)

    assert idempotency_prune_task.apply().get() == 1
    assert list(IdempotencyRecord.objects.values_list("key", flat=True)) == ["a1"]
    assert idempotency_prune() == 0  # again: nothing more
    # The record inside the window still replays.
    again = post(api.client("dealer"), url, {"seat": 2, "action": "look", "expected_seq": 1}, "a1")
    assert again["Idempotent-Replayed"] == "true"


def test_nothing_inside_the_window_is_pruned(api: Any) -> None:
    start_hand(api, key="fresh")
    edge = timezone.now() + timedelta(days=settings.BRAG_IDEMPOTENCY_DAYS) - timedelta(minutes=1)
    assert idempotency_prune(now=edge) == 0
    assert IdempotencyRecord.objects.filter(key="fresh").exists()
