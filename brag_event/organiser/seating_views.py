"""The seating draw, table sheets, table balancing and dealer assignment pages (organisers only).

Views stay thin: read the form, call the service, show the page; a refused request is shown on the
page with the service's message."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render

from brag_event.access.selectors import dealers_of
from brag_event.access.web import requires
from brag_event.api.models import DeviceToken
from brag_event.core.errors import ServiceError
from brag_event.core.forms import bad_request, posted_form, takes
from brag_event.core.public_urls import public_url
from brag_event.core.words import counted
from brag_event.events.models import Day
from brag_event.players.links import player_path
from brag_event.tables.assign import day_assign_dealers, day_dealers_proposed, table_assign_dealers
from brag_event.tables.models import Seat, Table
from brag_event.tables.rota import rota_now, rota_problems
from brag_event.tables.seating import balance_apply, balance_proposals, seating_apply, seating_draw

from .forms import (
    BalanceApplyForm,
    DayDealersForm,
    DealersForm,
    SeatingApplyForm,
    SeatingDrawForm,
    SeatingQuery,
    service_error_on,
)
from .qr import qr_svg
from .views import actor, organiser_only


def _day(day_id: int) -> Day:
    return get_object_or_404(Day.objects.select_related("event"), pk=day_id)


def _seated(day: Day) -> list[tuple[Table, list[Seat]]]:
    seats = (
        Seat.objects.filter(table__day=day, left_at__isnull=True)
        .select_related("player")
        .order_by("number")
    )
    by_table: dict[int, list[Seat]] = {}
    for seat in seats:
        by_table.setdefault(seat.table_id, []).append(seat)
    return [(t, by_table.get(t.pk, [])) for t in day.tables.order_by("number")]


SEATING_FORMS: dict[str, type[forms.Form]] = {
    "draw": SeatingDrawForm,
    "apply": SeatingApplyForm,
}


@takes(query=SeatingQuery, post=SEATING_FORMS)
@organiser_only
def seating(request: HttpRequest, day_id: int) -> HttpResponse:
    day = _day(day_id)
    error: ServiceError | None = None
    query = SeatingQuery(request.GET, day=day)
    if not query.is_valid():
        return bad_request(request, query)
    wanted: int | None = query.cleaned_data["draw"].pk if query.cleaned_data["draw"] else None
    draw_form = SeatingDrawForm()
    status = 200
    asking = False  # the apply's confirmation is shown
    if request.method == "POST":
        which = posted_form(request, SEATING_FORMS)
        if which is None:
            return bad_request(request)
        status = 400
        try:
            if which == "apply":
                apply_form = SeatingApplyForm(request.POST, day=day)
                if not apply_form.is_valid():
                    return bad_request(request, apply_form)
                draw = apply_form.cleaned_data["draw"]
                wanted = draw.pk
                # Applying cannot be undone: the first post shows what it does and asks.
                asking = not apply_form.cleaned_data["confirm"]
                if asking:
                    status = 200
                else:
                    tables = seating_apply(draw=draw, by=actor(request))
                    messages.success(
                        request,
                        f"Draw {draw.seed} applied: {counted(len(tables), 'table')}, "
                        f"{counted(sum(len(t['seats']) for t in draw.plan), 'player')} seated.",
                    )
                    return redirect(f"{request.path}?draw={draw.pk}")
            else:
                draw_form = SeatingDrawForm(request.POST)
                if draw_form.is_valid():
                    draw = seating_draw(
                        day=day, seed=draw_form.cleaned_data["seed"] or None, by=actor(request)
                    )
                    return redirect(f"{request.path}?draw={draw.pk}")
        except ServiceError as err:
            error = err
            status = err.status
            if which == "draw":
                service_error_on(draw_form, err)
    draws = list(day.draws.select_related("created_by"))
    if wanted:
        shown = next((d for d in draws if d.pk == wanted), None)
    else:  # the latest draw while it waits to be applied: it stays in view until it is
        latest = draws[0] if draws else None
        shown = latest if latest and latest.applied_at is None and latest.plan else None
    context = {
        "asking": asking and shown is not None and shown.applied_at is None,
        "fee_total": day.house_fee * sum(len(t["seats"]) for t in shown.plan) if shown else 0,
        "day": day,
        "draw": shown,
        "draws": draws,
        "error": error,
        "draw_form": draw_form,
        "seated": [(t, s) for t, s in _seated(day) if s],
    }
    return render(request, "organiser/seating.html", context, status=status)


@takes()
@organiser_only
def sheets(request: HttpRequest, day_id: int) -> HttpResponse:
    day = _day(day_id)
    tables = []
    for table, seats in _seated(day):
        if not seats:
            continue
        rows = []
        for seat in seats:
            url = public_url(request, player_path(seat.player))
            rows.append({"seat": seat, "url": url, "qr": qr_svg(url)})
        tables.append({"table": table, "rows": rows})
    return render(request, "organiser/sheets.html", {"day": day, "tables": tables})


@takes(post=BalanceApplyForm)
@organiser_only
def balance(request: HttpRequest, day_id: int) -> HttpResponse:
    day = _day(day_id)
    error: ServiceError | None = None
    if request.method == "POST":
        form = BalanceApplyForm(request.POST)
        if not form.is_valid():
            return bad_request(request, form)
        try:
            done = balance_apply(
                day=day, proposal_id=form.cleaned_data["proposal"], by=actor(request)
            )
            messages.success(request, f"Done: {done['description']}")
            return redirect(request.path)
        except ServiceError as err:
            error = err
    context = {
        "day": day,
        "proposals": balance_proposals(day=day),
        "error": error,
        "seated": [(t, s) for t, s in _seated(day) if s],
    }
    return render(request, "organiser/balance.html", context, status=error.status if error else 200)


DEALER_FORMS: dict[str, type[forms.Form]] = {"day": DayDealersForm, "table": DealersForm}


@takes(post=DEALER_FORMS)
@requires("dealers.assign")
def dealers(request: HttpRequest, day_id: int) -> HttpResponse:
    """The dealers of every table of the day, in one form. A day without any yet is offered the
    previous day's dealers at the same table numbers (saved only when the organiser saves).
    One table alone can still be posted (``form=table``: ``DealersForm``)."""
    day = _day(day_id)
    error: ServiceError | None = None
    status = 200
    proposed, carried_from = day_dealers_proposed(day)
    form = DayDealersForm(day=day, initial_dealers=proposed)
    which = posted_form(request, DEALER_FORMS) if request.method == "POST" else None
    if which == "table":
        return _one_table(request, day)
    if request.method == "POST":
        if which is None:
            return bad_request(request)
        form = DayDealersForm(request.POST, day=day, initial_dealers=proposed)
        status = 400
        if form.is_valid():
            try:
                changed = day_assign_dealers(day=day, dealers=form.chosen(), by=actor(request))
                said = ", ".join(str(t.number) for t in changed)
                messages.success(
                    request,
                    f"Dealers saved for day {day.number}"
                    + (
                        f" (changed: table{'s' if len(changed) != 1 else ''} {said})."
                        if changed
                        else ": nothing changed."
                    ),
                )
                return redirect(request.path)
            except ServiceError as err:
                error = err
                status = err.status
    context = {
        "day": day,
        "form": form,
        "error": error,
        "dealers": dealers_of(day.event_id),
        "carried_from": carried_from,
        "rota": rota_now(day),
        "rota_problems": rota_problems(day, signs_in=_with_tokens(day)),
    }
    return render(request, "organiser/dealers.html", context, status=status)


def _with_tokens(day: Day) -> set[int]:
    """The event's dealers who can sign in with a tablet token (a live device token)."""
    users = dealers_of(day.event_id).values("pk")
    live = DeviceToken.objects.filter(user_id__in=users, revoked_at__isnull=True)
    return set(live.values_list("user_id", flat=True))


def _one_table(request: HttpRequest, day: Day) -> HttpResponse:
    form = DealersForm(request.POST, day=day)
    valid = form.is_valid()
    if "table" in form.errors:
        return bad_request(request, form)
    table = form.cleaned_data["table"]
    chosen = list(form.cleaned_data.get("dealers", []))
    try:
        if not valid:
            raise ServiceError(
                "not_a_dealer", "One of the chosen users is not (or no longer) a dealer."
            )
        table_assign_dealers(table=table, dealers=chosen, by=actor(request))
        names = ", ".join(u.get_username() for u in chosen) or "nobody"
        messages.success(request, f"Table {table.number}: {names}.")
        return redirect(request.path)
    except ServiceError as err:
        proposed, carried_from = day_dealers_proposed(day)
        context = {
            "day": day,
            "form": DayDealersForm(day=day, initial_dealers=proposed),
            "error": err,
            "dealers": dealers_of(day.event_id),
            "carried_from": carried_from,
        }
        return render(request, "organiser/dealers.html", context, status=err.status)
