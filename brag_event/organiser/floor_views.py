"""The floor's pages: the open calls of an event, and one call — take it, record the ruling
(with a penalty), or declare a misdeal of the hand in play. Supervisors and organisers."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from brag_event.access.rules import can
from brag_event.core.errors import ServiceError
from brag_event.core.forms import bad_request, posted_form, takes
from brag_event.events.models import Event
from brag_event.floor.models import FloorCall, Penalty, Ruling
from brag_event.floor.selectors import awards_of, open_calls
from brag_event.floor.services import (
    floor_call_take,
    hand_award_confirm,
    hand_misdeal,
    penalty_lift,
    ruling_record,
)
from brag_event.hands.models import Hand
from brag_event.integrity.views import floor_only
from brag_event.tables.shifts import dealing_where

from .floor_forms import AwardConfirmForm, LiftForm, MisdealForm, RulingForm, TakeForm
from .views import actor

CALL_FORMS: dict[str, type[Any]] = {"take": TakeForm, "ruling": RulingForm, "misdeal": MisdealForm}


@takes()
@floor_only
def board(request: HttpRequest, event_id: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=event_id)
    return _board(request, event)


def _board(
    request: HttpRequest, event: Event, *, asking: int | None = None, status: int = 200
) -> HttpResponse:
    """The floor board; ``asking``: the hand whose large pot the page asks to confirm."""
    rulings = (
        Ruling.objects.filter(event=event)
        .select_related("table", "hand", "ruled_by")
        .prefetch_related("players", "penalties")
        .order_by("-ruled_at")[:50]
    )
    disqualified = (
        Penalty.objects.filter(event=event, kind=Penalty.Kind.DISQUALIFICATION)
        .select_related("player", "day")
        .order_by("-created_at")
    )
    waiting, confirmed = awards_of(event)
    context = {
        "event": event,
        "calls": open_calls(event),
        "awards_waiting": waiting,
        "awards_confirmed": confirmed,
        "asking": asking,
        "rulings": rulings,
        "disqualified": disqualified,
        "lift_form": LiftForm(),
        # The day whose players check in now (its window set), for the desk's button.
        "checkin_day": event.days.filter(
            checkin_window__isnull=False, status__in=("scheduled", "open")
        )
        .order_by("number")
        .first(),
    }
    return render(request, "floor/board.html", context, status=status)


@takes(post=AwardConfirmForm)
@floor_only
@require_POST
def award_confirm(request: HttpRequest, hand_id: int) -> HttpResponse:
    """A large pot's second confirmation, asked once: the first post shows which pot and asks;
    only the confirmation's button ("Yes, confirm …") confirms it."""
    hand = get_object_or_404(Hand.objects.select_related("table__day__event"), pk=hand_id)
    event = hand.table.day.event
    form = AwardConfirmForm(request.POST)
    if not form.is_valid():
        return bad_request(request, form)
    if not form.cleaned_data["confirm"]:
        return _board(request, event, asking=hand.pk)
    try:
        award = hand_award_confirm(hand=hand, by=actor(request))
    except ServiceError as err:
        messages.error(request, err.message)
        return _board(request, event, status=err.status)
    messages.success(
        request,
        f"Confirmed: {award.words} (table {hand.table.number}, hand {hand.number}). "
        "The table can deal its next hand.",
    )
    return redirect("floor:board", event.pk)


@takes(post=CALL_FORMS)
@floor_only
def call(request: HttpRequest, call_id: int) -> HttpResponse:
    found = get_object_or_404(
        FloorCall.objects.select_related("table__day__event", "hand"), pk=call_id
    )
    event_id = found.table.day.event_id
    live = Hand.objects.filter(table=found.table, status=Hand.Status.IN_PROGRESS).first()
    ruling_form = RulingForm(event_id=event_id)
    misdeal_form = MisdealForm()
    status = 200
    if request.method == "POST":
        which = posted_form(request, CALL_FORMS)
        if which is None:
            return bad_request(request)
        status = 400
        try:
            if which == "take":
                floor_call_take(call=found, by=actor(request))
                messages.success(request, "You have the call: go to the table.")
                return redirect("floor:call", found.pk)
            if which == "misdeal":
                misdeal_form = MisdealForm(request.POST)
                if misdeal_form.is_valid() and live is not None:
                    hand_misdeal(
                        hand=live, reason=misdeal_form.cleaned_data["reason"], by=actor(request)
                    )
                    messages.success(
                        request, f"Misdeal of hand {live.number}: everything paid went back."
                    )
                    return redirect("floor:call", found.pk)
            if which == "ruling":
                ruling_form = RulingForm(request.POST, event_id=event_id)
                if ruling_form.is_valid():
                    data = ruling_form.cleaned_data
                    ruling_record(
                        call=found,
                        what_happened=data["what_happened"],
                        decision=data["decision"],
                        players=[p.pk for p in data["players"]],
                        penalty=data["penalty"] or "",
                        missed_hands=data["missed_hands"],
                        by=actor(request),
                    )
                    messages.success(request, "The ruling is recorded; the call is resolved.")
                    return redirect("floor:board", event_id)
        except ServiceError as err:
            messages.error(request, err.message)
    context = {
        "call": found,
        "event": found.table.day.event,
        "live": live,
        "ruling_form": ruling_form,
        "misdeal_form": misdeal_form,
    }
    return render(request, "floor/call.html", context, status=status)


@takes(post=LiftForm)
@floor_only
def lift(request: HttpRequest, penalty_id: int) -> HttpResponse:
    penalty = get_object_or_404(Penalty, pk=penalty_id)
    if request.method != "POST":
        return redirect("floor:board", penalty.event_id)
    form = LiftForm(request.POST)
    if not form.is_valid():
        return bad_request(request, form)
    try:
        if not can(request.user, "penalty.lift", penalty.event_id):
            raise ServiceError("forbidden", "Only an organiser lifts a disqualification.")
        penalty_lift(penalty=penalty, reason=form.cleaned_data["reason"], by=actor(request))
        messages.success(request, "The disqualification is lifted.")
    except ServiceError as err:
        messages.error(request, err.message)
    return redirect("floor:board", penalty.event_id)


@takes()
@floor_only
def dealing(request: HttpRequest, event_id: int) -> HttpResponse:
    """Who is signed in to deal where (open days): each table's dealer and the rota's."""
    event = get_object_or_404(Event, pk=event_id)
    context = {"event": event, "days": dealing_where(event.pk)}
    return render(request, "floor/dealing.html", context)
