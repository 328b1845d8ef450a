from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from brag_event.events.models import Event

from .forms import takes


@takes()
def home(request: HttpRequest) -> HttpResponse:
    """Landing page: where organisers, dealers and players go."""
    return render(request, "home.html", {"events": Event.objects.order_by("-created_at")[:5]})
