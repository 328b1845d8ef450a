"""Results on paper and a hand's history for the floor: printable pages, and the results as
PDF. The page and the PDF are one template (``organiser/results_paper.html``), so what is
printed from the browser and what is downloaded say the same thing."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse

from brag_event.core.forms import takes
from brag_event.events.models import Day, Event
from brag_event.hands.models import Hand
from brag_event.integrity.views import floor_only

from .access import organiser_only
from .hand_words import hand_story
from .paper import pdf_of
from .results import Results, day_results, event_results

RESULTS_TEMPLATE = "organiser/results_paper.html"


def _context(results: Results) -> dict[str, Any]:
    return {"event": results.event, "day": results.day, "results": results}


def _pdf(request: HttpRequest, results: Results, name: str, page: str) -> HttpResponse:
    if not results.ready:  # nothing to print yet: the page says why
        return redirect(page)
    context = _context(results)
    response = HttpResponse(pdf_of(RESULTS_TEMPLATE, context, request), "application/pdf")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@takes()
@organiser_only
def results_day(request: HttpRequest, day_id: int) -> HttpResponse:
    """A closed day's results, printable (A4), with a link to the same as PDF."""
    day = get_object_or_404(Day.objects.select_related("event"), pk=day_id)
    return render(request, "organiser/results.html", _context(day_results(day)))


@takes()
@organiser_only
def results_day_pdf(request: HttpRequest, day_id: int) -> HttpResponse:
    day = get_object_or_404(Day.objects.select_related("event"), pk=day_id)
    name = f"results-{day.event_id}-day{day.number}.pdf"
    return _pdf(request, day_results(day), name, reverse("organiser:results_day", args=[day.pk]))


@takes()
@organiser_only
def results_event(request: HttpRequest, event_id: int) -> HttpResponse:
    """The event's final results (its last day's close, every day's root), printable."""
    event = get_object_or_404(Event, pk=event_id)
    return render(request, "organiser/results.html", _context(event_results(event)))


@takes()
@organiser_only
def results_event_pdf(request: HttpRequest, event_id: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=event_id)
    page = reverse("organiser:results_event", args=[event.pk])
    return _pdf(request, event_results(event), f"results-{event.pk}-final.pdf", page)


@takes()
@floor_only
def hand_history(request: HttpRequest, hand_id: int) -> HttpResponse:
    """A hand's history in words for the floor (who did what, the pot after each entry, the
    hands shown and how each pot was won), printable."""
    hand = get_object_or_404(Hand.objects.select_related("table__day__event"), pk=hand_id)
    day = hand.table.day
    context = {"event": day.event, "day": day, "story": hand_story(hand), "hand": hand}
    return render(request, "floor/hand_history.html", context)
