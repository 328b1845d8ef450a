"""The console's series: make one with its points table, add and take out events, change the
table; each series' standings, public page and CSV are a click away."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render

from brag_event.access.web import requires
from brag_event.core.errors import ServiceError
from brag_event.core.forms import bad_request, posted_form, takes
from brag_event.events.models import Event
from brag_event.series.models import Series
from brag_event.series.points import points_text
from brag_event.series.selectors import series_standings
from brag_event.series.services import (
    series_create,
    series_event_add,
    series_event_remove,
    series_points_set,
)

from .series_forms import SeriesEventForm, SeriesForm, SeriesPointsForm
from .views import actor

series_only = requires("series.manage", allowed="the site's organisers")


def _refusal_on(form: Any, err: ServiceError) -> None:
    field = err.details.get("field")
    form.add_error(field if field in form.fields else None, err.message)


@takes(post=SeriesForm)
@series_only
def series_list(request: HttpRequest) -> HttpResponse:
    """Every series, and a form to make one."""
    form = SeriesForm()
    status = 200
    if request.method == "POST":
        form = SeriesForm(request.POST)
        status = 400
        if form.is_valid():
            try:
                made = series_create(
                    name=form.cleaned_data["name"],
                    points=form.cleaned_data["points"],
                    by=actor(request),
                )
            except ServiceError as err:
                _refusal_on(form, err)
                status = err.status
            else:
                messages.success(request, f"Series “{made.name}” made: now add its events.")
                return redirect("organiser:series_detail", made.pk)
    context = {"all_series": Series.objects.prefetch_related("entries__event"), "form": form}
    return render(request, "organiser/series_list.html", context, status=status)


SERIES_FORMS: dict[str, type[Any]] = {
    "add": SeriesEventForm,
    "remove": SeriesEventForm,
    "points": SeriesPointsForm,
}


@takes(post=SERIES_FORMS)
@series_only
def series_detail(request: HttpRequest, series_id: int) -> HttpResponse:
    """A series: its events (added, taken out), its points table, its standings as they are."""
    series = get_object_or_404(Series, pk=series_id)
    add_form = SeriesEventForm()
    points_form = SeriesPointsForm(initial={"points": points_text(series.points)})
    status = 200
    if request.method == "POST":
        which = posted_form(request, SERIES_FORMS)
        if which is None:
            return bad_request(request)
        form = SERIES_FORMS[which](request.POST)
        if which == "add":
            add_form = form
        elif which == "points":
            points_form = form
        if not form.is_valid():
            if which == "remove":
                return bad_request(request, form)
            status = 400
        else:
            try:
                if which == "points":
                    series_points_set(
                        series=series, points=form.cleaned_data["points"], by=actor(request)
                    )
                    messages.success(
                        request, "Points table saved: the standings are counted again."
                    )
                elif which == "add":
                    event = form.cleaned_data["event"]
                    series_event_add(series=series, event=event, by=actor(request))
                    messages.success(request, f"{event.name} now counts in the series.")
                else:
                    event = form.cleaned_data["event"]
                    series_event_remove(series=series, event=event, by=actor(request))
                    messages.success(request, f"{event.name} no longer counts in the series.")
            except ServiceError as err:
                if which == "remove":
                    messages.error(request, err.message)
                    return redirect("organiser:series_detail", series.pk)
                _refusal_on(form, err)
                status = err.status
            else:
                return redirect("organiser:series_detail", series.pk)
    in_series = series.entries.values_list("event_id", flat=True)
    choice = add_form.fields["event"]
    assert isinstance(choice, forms.ModelChoiceField)  # SeriesEventForm's
    choice.queryset = Event.objects.exclude(pk__in=in_series).order_by("-created_at")
    context = {
        "series": series,
        "standings": series_standings(series),
        "add_form": add_form,
        "points_form": points_form,
    }
    return render(request, "organiser/series_detail.html", context, status=status)
