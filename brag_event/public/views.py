"""Public pages: standings for the hall and players' own pages."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, HttpResponsePermanentRedirect
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.templatetags.static import static

from brag_event.core.conditional import versioned_answer
from brag_event.core.forms import bad_request, takes
from brag_event.events.models import Day, Event
from brag_event.events.zones import activate_for
from brag_event.players.links import player_from_token
from brag_event.players.qualify import standings_marked
from brag_event.players.selectors import current_day
from brag_event.tables.versions import standings_version

from .forms import StandingsQuery
from .selectors import money_chart, money_points, player_hands, player_now

POLL_SECONDS = 5  # the standings page asks the API again this often
PAGE_SECONDS = 15  # the hall's big screen shows each page of rows this long
PLAYER_REFRESH_SECONDS = 15


@takes(query=StandingsQuery)
def standings_page(request: HttpRequest, event_id: int) -> HttpResponse:
    """The standings, overall or of one day (``?day=N``); ``?big=1`` for the hall's screen.
    Rendered once per version of the standings (``core.conditional``)."""
    asked = StandingsQuery(request.GET)
    if not asked.is_valid():
        return bad_request(request, asked)
    number: int | None = asked.cleaned_data["day"]
    big = bool(asked.cleaned_data["big"])
    version = standings_version(event_id)  # first: what the page shows is at least this new
    if version is None:
        raise Http404("No such event")
    key = f"standings-page-{event_id}-{'all' if number is None else number}" + ("-big" * big)
    return versioned_answer(
        request,
        key=key,
        version="{}.{}".format(*version),
        render=lambda: _standings_html(request, event_id, number, big),
        content_type="text/html; charset=utf-8",
        private=False,
    )


def _standings_html(request: HttpRequest, event_id: int, number: int | None, big: bool) -> bytes:
    event = get_object_or_404(Event, pk=event_id)
    days = list(event.days.order_by("number"))
    day: Day | None = None
    if number is not None:
        day = next((d for d in days if d.number == number), None)
        if day is None:
            raise Http404("No such day")
    today = current_day(event)
    rows, cut = standings_marked(event, day)
    query = "?big=1" if big else ""
    tabs = [{"label": "Overall", "query": query, "current": day is None}] + [
        {
            "label": f"Day {d.number}",
            "query": f"?day={d.number}" + ("&big=1" if big else ""),
            "current": day is not None and d.pk == day.pk,
        }
        for d in days
    ]
    api = f"/api/v1/events/{event.pk}/standings/" + (f"?day={day.number}" if day else "")
    changed = day or today  # the change is over one day: the day shown, else the day in play
    context: dict[str, Any] = {
        "event": event,
        "day": day,
        "today": today,
        "rows": rows,
        "cut": cut,
        "tabs": tabs,
        "big": big,
        "api": api,
        "poll_ms": POLL_SECONDS * 1000,
        "page_ms": PAGE_SECONDS * 1000,
        "change_label": f"Change on day {changed.number}" if changed else "Change",
    }
    return render_to_string("public/standings.html", context, request=request).encode()


@takes()
def player(request: HttpRequest, token: str) -> HttpResponse:
    found = player_from_token(token)
    if found is None:
        raise Http404("No such player page")
    event = found.event
    activate_for(event)  # its URL names no event: events.zones' middleware cannot
    day = current_day(event)
    now = player_now(found, day)
    points = money_points(found, day) if day else []
    hands = player_hands(found)
    context: dict[str, Any] = {
        "player": found,
        "event": event,
        "day": day,
        "now": now,
        "chart": money_chart(points),
        "points": points,
        "hands": hands,
        "refresh_seconds": PLAYER_REFRESH_SECONDS,
    }
    return render(request, "public/player.html", context)


@takes()
def favicon(request: HttpRequest) -> HttpResponse:
    """``/favicon.ico``, which browsers ask for whatever a page says: the site's icon."""
    return HttpResponsePermanentRedirect(static("icons/favicon-32.png"))


@takes()
def home(request: HttpRequest) -> HttpResponse:
    """Landing page: where organisers, dealers and players go."""
    return render(request, "home.html", {"events": Event.objects.order_by("-created_at")[:5]})
