"""The integrity monitor's pages, for organisers and supervisors: the flags of the latest run in
plain words with the hands behind them, the figures of every check, and a hand as it was played.
Views stay thin: a selector or a service, then the template."""

from __future__ import annotations

from django.contrib import messages
from django.db.models import Count
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from brag_event.access.rules import can
from brag_event.access.web import requires
from brag_event.core.actors import Actor
from brag_event.core.forms import takes
from brag_event.engine.settlement import pots_to_show
from brag_event.events.models import Event
from brag_event.hands.models import Hand
from brag_event.hands.selectors import hand_state

from . import selectors
from .explain import CATEGORY_WORDS
from .models import IntegrityRun
from .services import integrity_alpha, integrity_run

# Organisers and supervisors of the page's event (``access.rules``): anonymous users go to the
# login page, anybody else gets a page saying where to go instead (403).
floor_only = requires("floor.view", allowed="organisers and supervisors")
_actor = Actor.from_request


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
        "is_organiser": can(request.user, "event.manage", event),
    }
    return render(request, "integrity/overview.html", context)


@takes()
@requires("integrity.run", allowed="organisers and supervisors")
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
        "pots": pots_to_show(outcome.get("pots", [])),
        "refusals": selectors.hand_refusals(found),
        "categories": CATEGORY_WORDS,
        "is_organiser": can(request.user, "event.manage", found.table.day.event_id),
    }
    return render(request, "integrity/hand.html", context)


def _one_in(p_value: float) -> str:
    """1 / p in words, to two figures: "16,000"; "a million" past that."""
    if p_value < 1e-6:
        return "a million"
    return f"{float(f'{1 / p_value:.2g}'):,.0f}"


FIGURE_WORDS = {
    "hands_per_hour": "fewer hands an hour than the other dealers",
    "seconds_per_action": "slower over each entry than the other dealers",
    "voids": "more voided entries than the other dealers",
    "misdeals": "more misdeals than the other dealers",
}


@takes()
@floor_only
def dealers(request: HttpRequest, event_id: int) -> HttpResponse:
    """Each dealer's figures — hands per hour on the clock, the median seconds per entry,
    voids and misdeals per hundred hands — with the monitor's test against the other dealers:
    a figure honest dealing gives less than once in ``1 / alpha`` is marked unusual."""
    event = get_object_or_404(Event, pk=event_id)
    alpha = integrity_alpha()
    rows = selectors.dealer_figures_of(event, alpha)
    for row in rows:
        row["unusual"] = {name: FIGURE_WORDS[name] for name, f in row["tests"].items() if f.flagged}
        row["said"] = [
            f"{FIGURE_WORDS[name]} (a dealer like the others does this less than once in "
            f"{_one_in(f.p_value)})"
            for name, f in row["tests"].items()
            if f.flagged
        ]
    context = {
        "event": event,
        "rows": rows,
        "one_in": f"{round(1 / alpha):,}",
        "is_organiser": can(request.user, "event.manage", event),
    }
    return render(request, "integrity/dealers.html", context)
