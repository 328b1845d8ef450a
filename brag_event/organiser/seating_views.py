"""The seating draw, table sheets and table balancing pages."""

from __future__ import annotations

from django.contrib.admin.views.decorators import staff_member_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from brag_event.events.models import Day


@staff_member_required
def seating(request: HttpRequest, day_id: int) -> HttpResponse:
    day = get_object_or_404(Day, pk=day_id)
    return render(request, "organiser/seating.html", {"day": day})
