"""The table's live read (``tables.selectors.table_live``), written out by hand, against the
ORM's answer to the same question."""

from __future__ import annotations

import pytest

from brag_event.api.resources.state import table_view
from brag_event.tables.models import Seat, Table
from brag_event.tables.selectors import table_live
from brag_event.tables.services import seat_leave, seat_sit_out
from tests.factories import start, world

pytestmark = pytest.mark.django_db


def test_table_live_is_what_the_orm_reads() -> None:
    w = world(4)
    seat_leave(seat=w.seat(2), by=None)
    seat_sit_out(seat=w.seat(4), sitting_out=True, by=None)
    start(w)  # the antes move the stacks

    found = table_live(w.table.pk)
    assert found is not None
    table, seats = found

    orm = Table.objects.select_related("day__event").get(pk=w.table.pk)
    orm_seats = list(
        Seat.objects.filter(table=orm, left_at__isnull=True)
        .select_related("player")
        .order_by("number")
    )
    fields = [f.attname for f in Table._meta.concrete_fields]
    assert [getattr(table, f) for f in fields] == [getattr(orm, f) for f in fields]
    assert table.day.event.currency == orm.day.event.currency
    assert table.day.rules_dict() == orm.day.rules_dict()
    assert [(s.pk, s.number, s.stack, s.sitting_out, s.player.name) for s in seats] == [
        (s.pk, s.number, s.stack, s.sitting_out, s.player.name) for s in orm_seats
    ]
    assert [s.number for s in seats] == [1, 3, 4]
    # The view drawn from either read is the same.
    assert table_view(table, seats) == table_view(orm)


@pytest.mark.parametrize("table_id", [0, -1, 2**63, 10**6])
def test_no_such_table(table_id: int) -> None:
    assert table_live(table_id) is None
