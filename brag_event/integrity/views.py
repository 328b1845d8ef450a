"""The integrity monitor's pages, for organisers and supervisors: the flags of the latest run in
plain words with the hands behind them, the figures of every check, and a hand as it was played.
Views stay thin: a selector or a service, then the template."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar, cast

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db.models import Count
from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from brag_event.api.roles import ORGANISER, SUPERVISOR, at_least, role_of
from brag_event.core.actors import Actor
from brag_event.core.forms import takes
from brag_event.events.models import Event
from brag_event.hands.models import Hand
from brag_event.hands.selectors import hand_state

from . import selectors
from .explain import CATEGORY_WORDS
from .models import IntegrityRun
from .services import integrity_alpha, integrity_run

View = TypeVar("View", bound=Callable[..., HttpResponseBase])


def floor_only(view: View) -> View:
    """Organisers and supervisors: anonymous users go to the login page, anybody else gets
    403."""

    @functools.wraps(view)
    def inner(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path(), reverse("organiser:login"))
        if not at_least(request.user, SUPERVISOR):
            raise PermissionDenied("Organisers and supervisors only.")
        return view(request, *args, **kwargs)

    return cast(View, inner)


def _actor(request: HttpRequest) -> Actor:
    agent = request.META.get("HTTP_USER_AGENT", "")[:80]
    return Actor(request.user, f"web {request.META.get('REMOTE_ADDR', '')} {agent}".strip())


CHECK_TITLES = {
    "cards": "The cards",
    "folds": "Soft play",
    "flows": "Chip dumping",
    "dealers": "Dealers",
}


@takes()
@floor_only
def overview(request: HttpRequest, event_id: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=event_id)
    run = selectors.latest_run(event)
    flags = selectors.run_flags(run) if run else []
    hands = selectors.flagged_hands(flags)
    rows = [
        {
            "flag": f,
            "title": CHECK_TITLES.get(f.kind, f.kind),
            "hands": [hands[h] for h in f.hands if h in hands],
        }
        for f in flags
    ]
    alpha = run.alpha if run else integrity_alpha()
    checked = [
        {"title": title, **(run.overview.get(key, {}) if run else {})}
        for key, title in CHECK_TITLES.items()
    ]
    context = {
        "event": event,
        "run": run,
        "rows": rows,
        "checked": checked,
        "alpha": f"{alpha:g}",
        "one_in": f"{round(1 / alpha):,}",
        "runs": IntegrityRun.objects.filter(event=event)
        .annotate(n_flags=Count("flags"))
        .order_by("-at", "-id")[:8],
        "refusals": selectors.refusals_by_dealer(event),
        "is_organiser": role_of(request.user) == ORGANISER,
    }
    return render(request, "integrity/overview.html", context)


@takes()
@floor_only
@require_POST
def run_now(request: HttpRequest, event_id: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=event_id)
    run = integrity_run(event=event, trigger=IntegrityRun.Trigger.MANUAL, by=_actor(request))
    flags = run.flags.count()
    messages.info(
        request,
        f"Checked {run.hands} hand{'s' if run.hands != 1 else ''}: "
        + (f"{flags} flag{'s' if flags != 1 else ''}." if flags else "nothing flagged."),
    )
    return redirect("integrity:overview", event.pk)


@takes()
@floor_only
def hand(request: HttpRequest, hand_id: int) -> HttpResponse:
    found = get_object_or_404(
        Hand.objects.select_related("table__day__event", "started_by"), pk=hand_id
    )
    state = hand_state(found)
    players = {s["seat"]: s["player"] for s in found.seats}
    log = [
        {
            "seq": a.seq,
            "seat": a.seat,
            "player": players.get(a.seat, "") if a.seat else "everyone",
            "action": a.action,
            "amount": a.amount,
            "choice": a.hand_choice,
            "cards": a.cards,
            "by": a.entered_by.get_username() if a.entered_by else "—",
            "at": a.entered_at,
            "void": getattr(a, "void", None),
        }
        for a in found.actions.select_related("entered_by", "void").order_by("seq")
    ]
    shown = []
    outcome = found.result or {}
    for seat, info in (outcome.get("shown") or {}).items():
        player = next((p for p in state.players if p.seat == int(seat)), None)
        shown.append(
            {
                "seat": int(seat),
                "player": players.get(int(seat), ""),
                "cards": info.get("cards", ""),
                "hand": info.get("hand", ""),
                "blind": bool(player and player.blind),
            }
        )
    context = {
        "hand": found,
        "event": found.table.day.event,
        "seats": found.seats,
        "log": log,
        "shown": shown,
        "pots": outcome.get("pots", []),
        "refusals": selectors.hand_refusals(found),
        "categories": CATEGORY_WORDS,
        "is_organiser": role_of(request.user) == ORGANISER,
    }
    return render(request, "integrity/hand.html", context)
