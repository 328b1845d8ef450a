"""The data migration: dealers already assigned to an event's tables become its dealers."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps

from brag_event.access.models import StaffRole
from tests.factories import user_in, world

pytestmark = pytest.mark.django_db

migration = importlib.import_module("brag_event.access.migrations.0002_dealers_of_their_events")


def test_assigned_dealers_become_their_events_dealers_and_keep_their_group() -> None:
    a = world(1, name="A")
    b = world(1, name="B")
    dee = user_in("dealer", "dee")
    sam = user_in("supervisor", "sam")  # on a table's list, but not a dealer: no row
    idle = user_in("dealer", "idle")  # assigned nowhere: stays a dealer of every event only
    a.table.dealers.add(dee, sam)
    b.table.dealers.add(dee)
    StaffRole.objects.create(user=dee, event=b.event, role="supervisor")  # kept as it is
    migration.forwards(apps, None)
    migration.forwards(apps, None)  # twice: nothing more
    rows = set(StaffRole.objects.values_list("user__username", "event__name", "role"))
    assert rows == {("dee", "A", "dealer"), ("dee", "B", "supervisor")}
    assert dee.groups.filter(name="dealer").exists() and idle.groups.filter(name="dealer").exists()
