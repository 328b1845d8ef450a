"""The event set-up's pages: a new event (FLASH preset or from scratch), an event's days, and a
day's date and rules with their change log. Thin: parse a form, call ``events.setup``, render."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from brag_event.access.web import requires
from brag_event.core.errors import ServiceError
from brag_event.core.forms import bad_request, posted_form, takes
from brag_event.core.words import counted
from brag_event.events.models import DAY_SETTINGS, Day, Event
from brag_event.events.services import event_set_starting_money
from brag_event.events.setup import (
    day_rules_copy,
    day_setup_change,
    day_setup_log,
    days_to_copy_to,
    event_create,
    event_create_from_preset,
    flash_preset,
)
from brag_event.floor.services import day_award_from_change

from .access import organiser_only
from .forms import DayRulesCopyForm, StartingMoneyForm, service_error_on
from .setup_forms import DaySetupForm, EventPresetForm, EventScratchForm, LargePotForm
from .views import actor

NEW_EVENT_FORMS: dict[str, type[forms.Form]] = {
    "flash": EventPresetForm,
    "scratch": EventScratchForm,
}


@takes(post=NEW_EVENT_FORMS)
@requires("event.create")
def event_new(request: HttpRequest) -> HttpResponse:
    shown: dict[str, forms.Form] = {"flash": EventPresetForm(), "scratch": EventScratchForm()}
    status = 200
    if request.method == "POST":
        which = posted_form(request, NEW_EVENT_FORMS)
        if which is None:
            return bad_request(request)
        form = NEW_EVENT_FORMS[which](request.POST)
        shown[which] = form
        status = 400
        if form.is_valid():
            data = form.cleaned_data
            try:
                if which == "flash":
                    event = event_create_from_preset(
                        preset="flash",
                        name=data["name"],
                        currency=data["currency"],
                        start=data["start"],
                        time_zone=data["time_zone"] or None,
                        starting_money=data["starting_money"],
                        by=actor(request),
                    )
                else:
                    assert isinstance(form, EventScratchForm)  # nosec B101 - narrowing
                    event = event_create(
                        name=data["name"],
                        currency=data["currency"],
                        start=data["start"],
                        days=[form.rules()] * data["days"],
                        time_zone=data["time_zone"] or None,
                        starting_money=data["starting_money"],
                        by=actor(request),
                    )
                messages.success(
                    request,
                    f"{event.name} is set up with {counted(event.days.count(), 'day')}, all "
                    "scheduled. "
                    "Check each day's rules; day 1 opens from the dashboard.",
                )
                return redirect("organiser:event_setup", event.pk)
            except ServiceError as err:
                service_error_on(form, err)
    context = {"forms": shown, "flash": flash_preset(), "tab": "new-event"}
    return render(request, "organiser/event_new.html", context, status=status)


@takes(post=StartingMoneyForm)
@organiser_only
def event_setup(request: HttpRequest, event_id: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=event_id)
    form = StartingMoneyForm(initial={"starting_money": event.starting_money})
    status = 200
    if request.method == "POST":
        form = StartingMoneyForm(request.POST)
        status = 400
        if form.is_valid():
            try:
                event_set_starting_money(
                    event=event, amount=form.cleaned_data["starting_money"], by=actor(request)
                )
                messages.success(
                    request,
                    f"Players are now registered with {form.cleaned_data['starting_money']} "
                    f"{event.currency} unless you say otherwise.",
                )
                return redirect("organiser:event_setup", event.pk)
            except ServiceError as err:
                service_error_on(form, err)
    days = list(event.days.order_by("number"))
    context = {"event": event, "days": days, "form": form, "tab": "setup"}
    return render(request, "organiser/event_setup.html", context, status=status)


@takes(post=DaySetupForm)
@organiser_only
def day_setup(request: HttpRequest, day_id: int) -> HttpResponse:
    day = get_object_or_404(Day.objects.select_related("event"), pk=day_id)
    form = DaySetupForm(initial={**day.settings_dict(), "date": day.date})
    status = 200
    if request.method == "POST":
        form = DaySetupForm(request.POST)
        status = 400
        if form.is_valid():
            try:
                day_setup_change(
                    day=day,
                    changes=form.rules(),
                    date=form.cleaned_data["date"],
                    reason=form.cleaned_data["reason"],
                    by=actor(request),
                )
                messages.success(request, f"Day {day.number} saved.")
                return redirect("organiser:day_setup", day.pk)
            except ServiceError as err:
                service_error_on(form, err)
    return _day_setup_page(request, day, form, status=status)


def _day_setup_page(
    request: HttpRequest,
    day: Day,
    form: DaySetupForm,
    *,
    status: int,
    copy_asking: bool = False,
    copy_refusal: ServiceError | None = None,
    large_pot: LargePotForm | None = None,
) -> HttpResponse:
    context = {
        "large_pot": large_pot
        or LargePotForm(initial={"award_confirm_from": day.award_confirm_from}),
        "event": day.event,
        "day": day,
        "form": form,
        "rules": [(form[name].label, day.settings_dict()[name]) for name in DAY_SETTINGS],
        "editable": day.status == Day.Status.SCHEDULED,
        "log": day_setup_log(day),
        "copy_to": days_to_copy_to(day),
        "copy_asking": copy_asking,
        "copy_refusal": copy_refusal,
        "tab": "setup",
    }
    return render(request, "organiser/day_setup.html", context, status=status)


@takes(post=DayRulesCopyForm)
@organiser_only
@require_POST
def day_rules_copy_view(request: HttpRequest, day_id: int) -> HttpResponse:
    """Copy a day's rules to the days after it not yet open, asked once: the first post shows
    which days change and asks; only the confirmation's button copies."""
    day = get_object_or_404(Day.objects.select_related("event"), pk=day_id)
    copy = DayRulesCopyForm(request.POST)
    if not copy.is_valid():
        return bad_request(request, copy)
    form = DaySetupForm(initial={**day.settings_dict(), "date": day.date})
    if not copy.cleaned_data["confirm"]:
        return _day_setup_page(request, day, form, status=200, copy_asking=True)
    try:
        copied = day_rules_copy(day=day, by=actor(request))
    except ServiceError as err:
        return _day_setup_page(request, day, form, status=err.status, copy_refusal=err)
    names = ", ".join(str(d.number) for d in copied)
    messages.success(
        request,
        f"Day {day.number}'s rules copied to day{'s' if len(copied) > 1 else ''} {names}.",
    )
    return redirect("organiser:day_setup", day.pk)


@takes(post=LargePotForm)
@organiser_only
@require_POST
def day_large_pot(request: HttpRequest, day_id: int) -> HttpResponse:
    """The large-pot amount of a day in play (the floor's procedure, not a rule of play)."""
    day = get_object_or_404(Day.objects.select_related("event"), pk=day_id)
    form = LargePotForm(request.POST)
    setup = DaySetupForm(initial={**day.settings_dict(), "date": day.date})
    if not form.is_valid():
        return _day_setup_page(request, day, setup, status=400, large_pot=form)
    amount = form.cleaned_data["award_confirm_from"]
    try:
        day = day_award_from_change(
            day=day, amount=amount, reason=form.cleaned_data["reason"], by=actor(request)
        )
    except ServiceError as err:
        service_error_on(form, err)
        return _day_setup_page(request, day, setup, status=err.status, large_pot=form)
    said = "never" if amount is None else f"from {amount:,}"
    messages.success(
        request,
        f"Day {day.number}: pots {said} wait for a supervisor's confirmation from now on.",
    )
    return redirect("organiser:day_setup", day.pk)
