"""The dealers' rota of a day (organisers): draw one (a form), and the plan as a table — each
turn's time against each table, the dealer there, and who is on a break — printable. Thin: the
form, ``tables.rota.rota_draw``, then ``rota_plan`` for the page."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone

from brag_event.access.selectors import dealers_of
from brag_event.access.web import requires
from brag_event.core.errors import ServiceError
from brag_event.core.forms import bad_request, posted_form, takes
from brag_event.core.words import counted
from brag_event.events.models import Day
from brag_event.events.zones import zone
from brag_event.tables.models import DealerShift, Table
from brag_event.tables.rota import day_rota, rota_draw, rota_plan
from brag_event.tables.shifts import dealer_name

from .forms import RotaForm, service_error_on
from .views import actor

ROTA_FORMS: dict[str, type[forms.Form]] = {"": RotaForm}  # one form: no "form" field


def _dealers_in_order(day: Day) -> list[User]:
    """The event's dealers: those assigned to the day's tables first, in table order, then the
    others by name — the order they go round in."""
    everyone = list(dealers_of(day.event_id))
    first: list[int] = []
    for table in day.tables.order_by("number").prefetch_related("dealers"):
        first += [u.pk for u in sorted(table.dealers.all(), key=lambda u: u.pk)]
    rank = {pk: i for i, pk in enumerate(dict.fromkeys(first))}
    return sorted(everyone, key=lambda u: (rank.get(u.pk, len(rank)), u.get_username()))


def _plan(day: Day) -> dict[str, Any] | None:
    rota = day_rota(day.pk)
    if rota is None:
        return None
    tables = {t.pk: t for t in Table.objects.filter(pk__in=rota.tables)}
    users = {u.pk: u for u in User.objects.filter(pk__in=rota.dealers)}
    order = [pk for pk in rota.tables if pk in tables]
    dealers = [pk for pk in rota.dealers if pk in users]
    if len(dealers) < len(order):
        return None
    local = zone(day.event.time_zone)
    now = timezone.now()
    turns = rota_plan(
        tables=order,
        dealers=dealers,
        starts_at=rota.starts_at,
        minutes=rota.minutes,
        changes=rota.changes,
    )
    rows = []
    for k, turn in enumerate(turns):
        ends = turns[k + 1].at if k + 1 < len(turns) else None
        rows.append(
            {
                "at": turn.at.astimezone(local).strftime("%H:%M"),
                "now": turn.at <= now and (ends is None or now < ends),
                "tables": [dealer_name(users[turn.tables[pk]]) for pk in order],
                "breaks": [dealer_name(users[pk]) for pk in turn.breaks],
            }
        )
    dealing = {
        s.table_id: dealer_name(s.dealer)
        for s in DealerShift.objects.filter(table__day=day, ended_at__isnull=True).select_related(
            "dealer"
        )
    }
    return {
        "rota": rota,
        "tables": [tables[pk] for pk in order],
        "dealing": [dealing.get(pk, "") for pk in order],
        "rows": rows,
        "breaks": len(dealers) > len(order),
        "dealers": [dealer_name(users[pk]) for pk in dealers],
    }


@takes(post=ROTA_FORMS)
@requires("rota.manage", allowed="organisers")
def rota(request: HttpRequest, day_id: int) -> HttpResponse:
    day = get_object_or_404(Day.objects.select_related("event"), pk=day_id)
    ordered = _dealers_in_order(day)
    assigned = [u.pk for t in day.tables.prefetch_related("dealers") for u in t.dealers.all()]
    local = zone(day.event.time_zone)
    current = day_rota(day.pk)
    # A new rota starts from the one the tablets follow (or the dealers of the tables).
    initial: dict[str, Any] = (
        {
            "starts_at": current.starts_at.astimezone(local).strftime("%H:%M"),
            "minutes": current.minutes,
            "changes": current.changes,
            "dealers": list(current.dealers),
        }
        if current
        else {
            "starts_at": timezone.now().astimezone(local).strftime("%H:00"),
            "dealers": sorted(set(assigned)),
        }
    )
    form = RotaForm(day=day, initial=initial)
    status = 200
    error: ServiceError | None = None
    if request.method == "POST":
        if posted_form(request, ROTA_FORMS) is None:
            return bad_request(request)
        form = RotaForm(request.POST, day=day)
        status = 400
        if form.is_valid():
            data = form.cleaned_data
            date = day.date or timezone.now().astimezone(local).date()
            starts_at = datetime.combine(date, data["starts_at"], tzinfo=local)
            chosen = {u.pk for u in data["dealers"]}
            try:
                made = rota_draw(
                    day=day,
                    starts_at=starts_at,
                    minutes=data["minutes"],
                    changes=data["changes"],
                    dealers=[u for u in ordered if u.pk in chosen],
                    by=actor(request),
                )
                messages.success(
                    request,
                    f"Rota saved: {counted(len(made.dealers), 'dealer')} at "
                    f"{counted(len(made.tables), 'table')}, moving on every "
                    f"{counted(made.minutes, 'minute')} from "
                    f"{starts_at.strftime('%H:%M %Z')}. The tablets follow it.",
                )
                return redirect(f"{request.path}#top")  # the plan, not the form posted
            except ServiceError as err:
                error = err
                service_error_on(form, err)
    boxes = {str(u.pk): u for u in ordered}
    choices = [
        (boxes[str(value)], str(value) in {str(v) for v in (form["dealers"].value() or [])})
        for value in boxes
    ]
    context = {
        "day": day,
        "form": form,
        "error": error,
        "choices": choices,
        "plan": _plan(day),
        "tables_count": day.tables.count(),
    }
    return render(request, "organiser/rota.html", context, status=status)
