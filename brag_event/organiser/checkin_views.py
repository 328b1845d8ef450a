"""The console's check-in page for a day: its window, the desk (find a player by name or number
as you type, check them in), the players checked in, the no-shows and the late arrivals to
seat. Thin: forms, the services of ``players.checkin`` and ``tables.seating``, a page."""

from __future__ import annotations

from urllib.parse import urlencode

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone

from brag_event.access.rules import can
from brag_event.access.web import refused, requires
from brag_event.core.errors import ServiceError
from brag_event.core.forms import bad_request, posted_form, takes
from brag_event.events.models import Day
from brag_event.players.checkin import (
    SEARCH_MAX,
    checkin_state,
    checkin_window_set,
    desk_search,
    no_shows,
    player_check_in,
)
from brag_event.players.models import CheckIn
from brag_event.tables.models import Seat
from brag_event.tables.seating import late_arrival_seat, seat_late_arrival

from .checkin_forms import CheckInWindowForm, DeskCheckInForm, DeskQuery, LateSeatForm
from .forms import service_error_on
from .views import actor

CHECKIN_FORMS: dict[str, type[forms.Form]] = {
    "window": CheckInWindowForm,
    "desk": DeskCheckInForm,
    "late": LateSeatForm,
}


def _back(request: HttpRequest, text: str, anchor: str) -> HttpResponse:
    query = f"?{urlencode({'q': text})}" if text else ""
    return redirect(f"{request.path}{query}#{anchor}")


# Who may post each of the page's forms (``access.rules``): the desk is the floor's too, the
# window the organisers' only.
FORM_PERMISSION = {"window": "event.manage", "desk": "checkin.desk", "late": "checkin.seat_late"}


@takes(query=DeskQuery, post=CHECKIN_FORMS)
@requires("checkin.desk", allowed="organisers and supervisors")
def checkin(request: HttpRequest, day_id: int) -> HttpResponse:
    day = get_object_or_404(Day.objects.select_related("event"), pk=day_id)
    may_manage = can(request.user, "event.manage", day.event_id)
    query = DeskQuery(request.GET)
    if not query.is_valid():
        return bad_request(request, query)
    text = " ".join(query.cleaned_data["q"].split())
    state = checkin_state(day)
    w = state.window
    window_form = CheckInWindowForm(
        initial={
            "opens_at": timezone.localtime(w.opens_at) if w else None,
            "closes_at": timezone.localtime(w.closes_at) if w else None,
            "draw_checked_in_only": w.draw_checked_in_only if w else True,
        }
    )
    error: ServiceError | None = None
    status = 200
    if request.method == "POST":
        which = posted_form(request, CHECKIN_FORMS)
        if which is None:
            return bad_request(request)
        if not can(request.user, FORM_PERMISSION[which], day.event_id):
            return refused(request, event_id=day.event_id)
        status = 400
        try:
            if which == "window":
                window_form = CheckInWindowForm(request.POST)
                if window_form.is_valid():
                    data = window_form.cleaned_data
                    try:
                        checkin_window_set(
                            day=day,
                            opens_at=data["opens_at"],
                            closes_at=data["closes_at"],
                            draw_checked_in_only=data["draw_checked_in_only"],
                            by=actor(request),
                        )
                    except ServiceError as err:
                        service_error_on(window_form, err)
                    else:
                        messages.success(request, f"Check-in for day {day.number} saved.")
                        return _back(request, "", "window")
            else:
                form = CHECKIN_FORMS[which](request.POST, day=day)  # type: ignore[call-arg]
                if not form.is_valid():
                    return bad_request(request, form)
                player = form.cleaned_data["player"]
                if which == "desk":
                    made, new = player_check_in(
                        day=day, player=player, how=CheckIn.How.DESK, by=actor(request)
                    )
                    at = timezone.localtime(made.at)
                    messages.success(
                        request,
                        f"{player.name} checked in."
                        if new
                        else f"{player.name} was already checked in at {at:%H:%M} "
                        f"({made.get_how_display()}).",
                    )
                    return _back(request, text, "desk")
                seat = seat_late_arrival(day=day, player=player, by=actor(request))
                messages.success(
                    request,
                    f"{player.name} seated at table {seat.table.number}, seat {seat.number}.",
                )
                return _back(request, "", "late")
        except ServiceError as err:
            error = err
            status = err.status
        state = checkin_state(day)
    found = list(desk_search(day, text)[: SEARCH_MAX + 1]) if text else []
    checked = {
        c.player_id: c
        for c in CheckIn.objects.filter(day=day).select_related("player", "player__person", "by")
    }
    seated = set(
        Seat.objects.filter(table__day=day, left_at__isnull=True).values_list(
            "player_id", flat=True
        )
    )
    drawn = day.draws.filter(applied_at__isnull=False).exists()
    late = [c for c in checked.values() if c.player_id not in seated] if drawn else []
    late.sort(key=lambda c: c.at)
    where = late_arrival_seat(day) if late else None
    context = {
        "day": day,
        "state": state,
        "window_form": window_form,
        "query": query,
        "text": text,
        "found": [(p, checked.get(p.pk)) for p in found[:SEARCH_MAX]],
        "more": len(found) > SEARCH_MAX,
        "checked": sorted(checked.values(), key=lambda c: (c.at, c.player.name)),
        "no_shows": list(no_shows(day)) if w is not None else [],
        "late": late,
        "where": where,
        "drawn": drawn,
        "error": error,
        "may_manage": may_manage,
        "may_seat": can(request.user, "checkin.seat_late", day.event_id),
    }
    return render(request, "organiser/checkin.html", context, status=status)
