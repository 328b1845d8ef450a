"""Organisers' pages: the event dashboard and what hangs off it."""

from __future__ import annotations

from django.contrib.admin.views.decorators import staff_member_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from brag_event.events.models import Event


@staff_member_required
def events(request: HttpRequest) -> HttpResponse:
    return render(request, "organiser/events.html", {"events": Event.objects.all()})


@staff_member_required
def dashboard(request: HttpRequest, event_id: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=event_id)
    return render(request, "organiser/dashboard.html", {"event": event})
