"""Public pages: standings for the hall and players' own pages."""

from __future__ import annotations

import csv
import io
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, HttpResponsePermanentRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.gzip import gzip_page
from django.views.decorators.http import require_POST

from brag_event.core.actors import Actor
from brag_event.core.conditional import versioned_answer
from brag_event.core.errors import ServiceError
from brag_event.core.exports import spreadsheet_safe
from brag_event.core.forms import bad_request, takes
from brag_event.events.hall import announcements_shown, clock_moment
from brag_event.events.models import Day, Event
from brag_event.events.zones import activate_for
from brag_event.players.checkin import (
    checkin_day,
    checkin_phase,
    checkin_state,
    player_check_in,
    player_checkin,
)
from brag_event.players.links import player_link_holder, player_token
from brag_event.players.models import Player
from brag_event.players.selectors import current_day
from brag_event.series.models import Series
from brag_event.series.selectors import series_standings
from brag_event.standings.results import since_close, standings_marked
from brag_event.tables.versions import dashboard_version, standings_version

from .forms import PlayerCheckInForm, SeriesQuery, StandingsQuery
from .hall import seat_finder, standings_pages
from .selectors import money_chart, money_points, player_hands, player_now

POLL_SECONDS = 5  # the standings page asks the API again this often
PAGE_SECONDS = 15  # the hall's big screen shows each page of rows this long
PLAYER_REFRESH_SECONDS = 15  # a player's page asks for a new version this often


# The public reads nginx keeps (deploy/nginx): compressed here, once per version, for the copy
# nginx keeps for clients that take gzip (docs/operations.md, "Public reads at the edge").
@gzip_page
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
        "since_close": since_close(day) if day else [],
    }
    return render_to_string("public/standings.html", context, request=request).encode()


HALL_PAGE_SECONDS = 12  # each page of the hall's screen stays this long


@gzip_page
@takes()
def hall(request: HttpRequest, event_id: int) -> HttpResponse:
    """The hall's screen, left on all day: the whole standings page after page (cut line and
    marks), the seat finder, the announcements and the day's clock. Rendered once per version
    (the standings' and the event's: announcements, the clock's times, a draw)."""
    version = standings_version(event_id)
    if version is None:
        raise Http404("No such event")
    return versioned_answer(
        request,
        key=f"hall-{event_id}",
        version="{}.{}.{}".format(*version, checkin_phase(event_id)),
        render=lambda: _hall_html(request, event_id),
        content_type="text/html; charset=utf-8",
        private=False,
    )


def _hall_checkin(event_id: int) -> Any:
    """The check-in the hall announces while its window is open (``None`` otherwise)."""
    day = checkin_day(event_id)
    state = checkin_state(day) if day is not None else None
    return state if state is not None and state.open_now else None


def _hall_html(request: HttpRequest, event_id: int) -> bytes:
    event = get_object_or_404(Event, pk=event_id)
    today = current_day(event)
    rows, cut = standings_marked(event, None)
    seats = seat_finder(event, today)
    in_play = today is not None and today.status in (Day.Status.OPEN, Day.Status.CLOSING)
    break_at = clock_moment(today, event, today.break_at) if in_play and today else None
    ends_at = clock_moment(today, event, today.ends_at) if in_play and today else None
    context: dict[str, Any] = {
        "event": event,
        "today": today,
        "players": len(rows),
        "standings": standings_pages(rows, cut),
        "cut": cut,
        "seats": seats,
        "announcements": announcements_shown(event.pk),
        "checkin": _hall_checkin(event.pk),
        "break_at": break_at,
        "ends_at": ends_at,
        "page_ms": HALL_PAGE_SECONDS * 1000,
        "poll_ms": POLL_SECONDS * 1000,
    }
    return render_to_string("public/hall.html", context, request=request).encode()


@gzip_page
@takes()
def player(request: HttpRequest, token: str) -> HttpResponse:
    """A player's own page (their current link is the key; a replaced one is answered 410): seat,
    money, the day's chart, hands, penalties and announcements. Answered by version (the
    standings', the tables' and the event's), so the page's script asks again cheaply and
    replaces what changed."""
    holder = player_link_holder(token)
    if holder is None:
        raise Http404("No such player page")
    if holder.replaced:
        # 410 Gone: this link worked once, and an organiser replaced it (players.links).
        context = {"event": holder.player.event}
        return _unreferred(render(request, "public/link_replaced.html", context, status=410))
    found = holder.player
    standings = standings_version(found.event_id)  # first: the page is at least this new
    tables = dashboard_version(found.event_id)
    if standings is None or tables is None:
        raise Http404("No such player page")
    answer = versioned_answer(
        request,
        key=f"player-{found.pk}",
        version="{}.{}.{}.{}".format(*standings, tables[1], checkin_phase(found.event_id)),
        render=lambda: _player_html(request, found),
        content_type="text/html; charset=utf-8",
        private=True,
    )
    return _unreferred(answer)


# The player's link is the key to this button, as to their page: no session, so no CSRF cookie to
# check; a page elsewhere cannot know the link. (The page is kept by version for whichever
# phone asks, so a CSRF token in it would be some other phone's.)
@csrf_exempt
@require_POST
@takes(post=PlayerCheckInForm)
def player_check_in_view(request: HttpRequest, token: str) -> HttpResponse:
    """A player checks in for the coming day from their own page; back to the page, or the
    refusal in words (not open yet, closed: see the desk)."""
    holder = player_link_holder(token)
    if holder is None:
        raise Http404("No such player page")
    if holder.replaced:
        context = {"event": holder.player.event}
        return _unreferred(render(request, "public/link_replaced.html", context, status=410))
    found = holder.player
    day = checkin_day(found.event_id)
    where = request.META.get("REMOTE_ADDR", "")
    agent = request.META.get("HTTP_USER_AGENT", "")[:80]
    try:
        if day is None:
            raise ServiceError(
                "checkin_not_open", "Check-in has not been opened by the organisers."
            )
        player_check_in(
            day=day, player=found, how="page", by=Actor(None, f"player's page {where} {agent}")
        )
    except ServiceError as err:
        activate_for(found.event)
        said = {"event": found.event, "player": found, "error": err, "token": token}
        page = render(request, "public/checkin_refused.html", said, status=err.status)
        return _unreferred(page)
    return _unreferred(redirect(f"{reverse('public:player', args=[token])}#checkin"))


def _unreferred(response: HttpResponse) -> HttpResponse:
    """A player's page has its link's token in its address: its own requests (its icon, its
    stylesheets) and the links followed from it (the standings) send no ``Referer``, so the
    token reaches no log on the way — ours, or a CDN's in front of the standings
    (docs/operations.md). The site's policy elsewhere is ``same-origin``."""
    response.headers["Referrer-Policy"] = "no-referrer"
    return response


def _player_html(request: HttpRequest, found: Player) -> bytes:
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
        "announcements": announcements_shown(event.pk),
        "checkin": player_checkin(found),
        "link_token": player_token(found),
        "refresh_seconds": PLAYER_REFRESH_SECONDS,
        "notices_url": reverse("public:notices", args=[player_token(found)]),
    }
    return render_to_string("public/player.html", context, request=request).encode()


@takes()
def favicon(request: HttpRequest) -> HttpResponse:
    """``/favicon.ico``, which browsers ask for whatever a page says: the site's icon."""
    return HttpResponsePermanentRedirect(static("icons/favicon-32.png"))


@takes()
def home(request: HttpRequest) -> HttpResponse:
    """Landing page: where organisers, dealers and players go."""
    return render(request, "home.html", {"events": Event.objects.order_by("-created_at")[:5]})


@takes(query=SeriesQuery)
def series_page(request: HttpRequest, series_id: int) -> HttpResponse:
    """A series' standings, public: players ranked by points over its events' final results
    (``series.selectors``), each event's place beside the name; ``?big=1`` for the hall."""
    asked = SeriesQuery(request.GET)
    if not asked.is_valid():
        return bad_request(request, asked)
    series = get_object_or_404(Series, pk=series_id)
    context = {"standings": series_standings(series), "big": bool(asked.cleaned_data["big"])}
    return render(request, "public/series.html", context)


@takes()
def series_csv(request: HttpRequest, series_id: int) -> HttpResponse:
    """The series' standings as CSV: rank, player, points, then each event's place and points
    (empty where the player did not play it; "DQ" for a disqualification)."""
    series = get_object_or_404(Series, pk=series_id)
    standings = series_standings(series)
    out = io.StringIO()
    writer = csv.writer(out)
    header = ["rank", "player", "points"]
    for c in standings.columns:
        header += [f"{c.event.name} place", f"{c.event.name} points"]
    writer.writerow([spreadsheet_safe(h) for h in header])
    for row in standings.rows:
        line: list[Any] = [row.rank, row.name, row.points]
        for cell in row.event_cells:
            if not cell["played"]:
                line += ["", ""]
            else:
                line += [cell["place"] or "DQ", cell["points"]]
        writer.writerow([spreadsheet_safe(v) for v in line])
    response = HttpResponse(out.getvalue(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="series-{series.pk}.csv"'
    return response
