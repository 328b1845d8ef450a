"""The end-of-day count's pages (``closing.count``): a table's count, its differences and their
rulings (the organiser's waiver is on the close page: ``views.count_waive``). Views stay thin:
parse, call the service, render; a refusal is shown on the form."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from brag_event.access.rules import can
from brag_event.access.web import requires
from brag_event.closing.count import (
    count_difference_rule,
    count_state,
    table_count_enter,
)
from brag_event.closing.models import SeatCount, TableCount
from brag_event.core.actors import Actor
from brag_event.core.errors import ServiceError
from brag_event.core.forms import bad_request, takes
from brag_event.events.models import DayClose
from brag_event.players.selectors import event_names_shown
from brag_event.tables.models import Seat, Table

from .count_forms import CountRulingForm, TableCountForm
from .forms import service_error_on

actor = Actor.from_request

# The floor counts; only an organiser rules on a difference or waives the count.
count_page = requires("count.enter", allowed="organisers and floor supervisors")


def _seated(table: Table) -> list[Seat]:
    return list(
        Seat.objects.filter(table=table, left_at__isnull=True)
        .select_related("player")
        .order_by("number")
    )


def _table_page(
    request: HttpRequest,
    table: Table,
    *,
    status: int = 200,
    count_form: TableCountForm | None = None,
    ruling_form: CountRulingForm | None = None,
) -> HttpResponse:
    day = table.day
    close = DayClose.objects.filter(day=day).first()
    counting = close is not None and close.status == DayClose.Status.COUNTING
    count = TableCount.objects.filter(table=table).select_related("counted_by").first()
    rows = list(
        SeatCount.objects.filter(table_count__table=table)
        .select_related("player", "seat", "ruled_by", "transfer")
        .order_by("seat__number")
    )
    may_rule = can(request.user, "count.rule", day.event_id)
    names = event_names_shown(day.event_id)
    if count is None and counting and count_form is None:
        count_form = TableCountForm(seats=_seated(table), names=names)
    open_rows = [r for r in rows if r.open]
    forms: dict[int, CountRulingForm] = {}
    if may_rule and counting:
        for r in open_rows:
            bound = ruling_form is not None and ruling_form.data.get("seat_count") == str(r.pk)
            forms[r.pk] = (
                ruling_form
                if bound and ruling_form is not None
                else CountRulingForm(table=table, initial={"seat_count": r.pk, "source": "count"})
            )
    context: dict[str, Any] = {
        "event": day.event,
        "day": day,
        "table": table,
        "close": close,
        "counting": counting,
        "count": count,
        "rows": [
            {"row": r, "form": forms.get(r.pk), "name": names.get(r.player_id, r.player.name)}
            for r in rows
        ],
        "open_rows": len(open_rows),
        "count_form": count_form,
        "may_rule": may_rule,
        "state": count_state(day),
    }
    return render(request, "organiser/table_count.html", context, status=status)


@takes(post=TableCountForm)
@count_page
def table_count(request: HttpRequest, table_id: int) -> HttpResponse:
    """A table's count: one field per seated player; once entered, the counts against the
    records and every difference with its ruling."""
    table = get_object_or_404(Table.objects.select_related("day__event"), pk=table_id)
    if request.method != "POST":
        return _table_page(request, table)
    form = TableCountForm(
        request.POST, seats=_seated(table), names=event_names_shown(table.day.event_id)
    )
    if not form.is_valid():
        return _table_page(request, table, status=400, count_form=form)
    try:
        table_count_enter(table=table, counts=form.counts(), by=actor(request))
    except ServiceError as err:
        service_error_on(form, err)
        return _table_page(request, table, status=409, count_form=form)
    rows = SeatCount.objects.filter(table_count__table=table)
    differences = sum(1 for r in rows if r.difference)
    messages.success(
        request,
        f"Table {table.number} counted: "
        + (
            f"{differences} difference{'s' if differences != 1 else ''} to rule."
            if differences
            else "every stack as recorded."
        ),
    )
    return redirect("organiser:table_count", table.pk)


@takes(post=CountRulingForm)
@requires("count.rule")
@require_POST
def count_rule(request: HttpRequest, table_id: int) -> HttpResponse:
    """Rule one difference of a table's count."""
    table = get_object_or_404(Table.objects.select_related("day__event"), pk=table_id)
    form = CountRulingForm(request.POST, table=table)
    if "seat_count" in form.errors:  # not a count of this table's: no row of the page to show
        return bad_request(request, form)
    if not form.is_valid():
        return _table_page(request, table, status=400, ruling_form=form)
    row: SeatCount = form.cleaned_data["seat_count"]
    try:
        ruled = count_difference_rule(
            seat_count=row,
            ruling=form.cleaned_data["ruling"],
            reason=form.cleaned_data["reason"],
            source=form.cleaned_data["source"] or "",
            by=actor(request),
        )
    except ServiceError as err:
        service_error_on(form, err)
        return _table_page(request, table, status=409, ruling_form=form)
    words = (
        "the stack is corrected to the count"
        if ruled.ruling == SeatCount.Ruling.CORRECT
        else "the records stand"
    )
    name = event_names_shown(table.day.event_id).get(ruled.player_id, ruled.player.name)
    messages.success(request, f"{name}'s difference ruled: {words}.")
    return redirect("organiser:table_count", table.pk)
