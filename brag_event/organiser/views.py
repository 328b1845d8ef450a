"""Organisers' pages: the event dashboard and what hangs off it. Views stay thin: parse, call a
service or a selector, render; a service's refusal is shown on the page."""

from __future__ import annotations

import csv
import functools
import json
from collections.abc import Callable, Iterator
from typing import Any, TypeVar, cast

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import (
    HttpRequest,
    HttpResponse,
    JsonResponse,
    StreamingHttpResponse,
)
from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from brag_event.api.models import DeviceToken
from brag_event.api.roles import ORGANISER, role_of
from brag_event.api.services import token_issue, token_revoke
from brag_event.core.actors import Actor
from brag_event.core.errors import ServiceError
from brag_event.engine.history import dump
from brag_event.events.closing import day_close_request
from brag_event.events.models import Day, DayClose, Event
from brag_event.events.services import day_open, day_set_qualification
from brag_event.hands.models import Hand
from brag_event.hands.selectors import hand_state
from brag_event.ledger.checks import ledger_check_run
from brag_event.ledger.models import Transfer
from brag_event.players.models import Player
from brag_event.players.selectors import standings
from brag_event.players.services import player_issue_money, player_register, players_import

from .selectors import event_dashboard

View = TypeVar("View", bound=Callable[..., HttpResponseBase])


def organiser_only(view: View) -> View:
    """Organisers only: anonymous users go to the login page, anybody else gets 403."""

    @functools.wraps(view)
    def inner(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path(), "/admin/login/")
        if role_of(request.user) != ORGANISER:
            raise PermissionDenied("Organisers only.")
        return view(request, *args, **kwargs)

    return cast(View, inner)


def actor(request: HttpRequest) -> Actor:
    agent = request.META.get("HTTP_USER_AGENT", "")[:80]
    return Actor(request.user, f"web {request.META.get('REMOTE_ADDR', '')} {agent}".strip())


def whole(raw: Any, default: int | None = None) -> int | None:
    text = str(raw or "").strip()
    if not text:
        return default
    return int(text) if text.isdigit() else None


# ------------------------------------------------------------------ dashboard


@organiser_only
def events(request: HttpRequest) -> HttpResponse:
    return render(request, "organiser/events.html", {"events": Event.objects.all()})


@organiser_only
def dashboard(request: HttpRequest, event_id: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=event_id)
    board = event_dashboard(event)
    # A scheduled day can be opened once the day before it has closed (or it is the first).
    openable, before = set(), None
    for day, _close in board.days:
        if day.status == Day.Status.SCHEDULED and (before is None or before == "closed"):
            openable.add(day.pk)
        before = day.status
    context = {"event": event, "board": board, "openable": openable}
    return render(request, "organiser/dashboard.html", context)


@organiser_only
@require_POST
def day_open_view(request: HttpRequest, day_id: int) -> HttpResponse:
    day = get_object_or_404(Day.objects.select_related("event"), pk=day_id)
    try:
        day_open(day=day, by=actor(request))
        messages.success(request, f"Day {day.number} is open: hands can be played.")
    except ServiceError as err:
        messages.error(request, err.message)
    return redirect("organiser:dashboard", day.event_id)


@organiser_only
@require_POST
def audit_now(request: HttpRequest, event_id: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=event_id)
    check = ledger_check_run(event=event)
    messages.info(request, "Ledger audit: " + ("PASS" if check.ok else "FAIL"))
    return redirect("organiser:dashboard", event.pk)


# ------------------------------------------------------------------ players


@organiser_only
def players(request: HttpRequest, event_id: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=event_id)
    report = None
    if request.method == "POST":
        try:
            if "csv" in request.FILES or request.POST.get("csv_text"):
                upload = request.FILES.get("csv")
                text = upload.read().decode("utf-8-sig") if upload else request.POST["csv_text"]
                default = whole(request.POST.get("default_money"), 0)
                if default is None:
                    raise ServiceError("invalid_amount", "The default money is a whole number.")
                report = players_import(
                    event=event, text=text, by=actor(request), default_money=default
                )
            elif "issue" in request.POST:
                player = get_object_or_404(Player, pk=request.POST.get("player"), event=event)
                amount = whole(request.POST.get("amount"))
                if not amount:
                    raise ServiceError("invalid_amount", "Issue a whole amount above 0.")
                player_issue_money(player=player, amount=amount, by=actor(request), memo="issued")
                messages.success(request, f"{amount} issued to {player.name}.")
                return redirect("organiser:players", event.pk)
            else:
                money = whole(request.POST.get("starting_money"), 0)
                if money is None:
                    raise ServiceError("invalid_amount", "Starting money is a whole number.")
                player = player_register(
                    event=event,
                    name=request.POST.get("name", ""),
                    starting_money=money,
                    by=actor(request),
                )
                messages.success(request, f"{player.name} registered.")
                return redirect("organiser:players", event.pk)
        except ServiceError as err:
            messages.error(request, err.message)
        except UnicodeDecodeError:
            messages.error(request, "The file is not UTF-8 text.")
    rows = standings(event)
    return render(
        request, "organiser/players.html", {"event": event, "rows": rows, "report": report}
    )


# ------------------------------------------------------------------ device tokens


@organiser_only
def tokens(request: HttpRequest) -> HttpResponse:
    issued = None
    if request.method == "POST":
        user_id = whole(request.POST.get("user"))
        try:
            if user_id is None:
                raise ServiceError("unknown_user", "Choose the user the tablet acts as.")
            token, key = token_issue(
                user_id=user_id, name=request.POST.get("name", ""), by=actor(request)
            )
            issued = {"token": token, "key": key}
        except ServiceError as err:
            messages.error(request, err.message)
    staff = get_user_model().objects.filter(is_active=True).order_by("username")
    listing = DeviceToken.objects.select_related("user").order_by("-created_at")
    return render(
        request,
        "organiser/tokens.html",
        {"tokens": listing, "users": staff, "issued": issued},
    )


@organiser_only
@require_POST
def token_revoke_view(request: HttpRequest, token_id: int) -> HttpResponse:
    token = token_revoke(token=get_object_or_404(DeviceToken, pk=token_id), by=actor(request))
    messages.success(request, f"{token.name} revoked.")
    return redirect("organiser:tokens")


# ------------------------------------------------------------------ closing a day


def close_state(day: Day) -> dict[str, Any]:
    close = DayClose.objects.filter(day=day).first()
    if close is None:
        return {"status": "not requested", "progress": 0, "step": "", "report": {}}
    return {
        "status": close.status,
        "progress": close.progress,
        "step": close.step,
        "report": close.report,
        "runs": close.runs,
    }


@organiser_only
def day_close(request: HttpRequest, day_id: int) -> HttpResponse:
    day = get_object_or_404(Day.objects.select_related("event"), pk=day_id)
    if request.method == "POST":
        try:
            if day.is_open:
                day_set_qualification(
                    day=day,
                    rule=request.POST.get("qualify_rule", day.qualify_rule),
                    top=whole(request.POST.get("qualify_top")),
                    by=actor(request),
                )
            day_close_request(day=day, by=actor(request))
        except ServiceError as err:
            messages.error(request, err.message)
        return redirect("organiser:day_close", day.pk)
    return render(
        request,
        "organiser/day_close.html",
        {"day": day, "state": close_state(day), "state_json": json.dumps(close_state(day))},
    )


@organiser_only
def day_close_status(request: HttpRequest, day_id: int) -> JsonResponse:
    day = get_object_or_404(Day, pk=day_id)
    return JsonResponse(close_state(day))


# ------------------------------------------------------------------ exports


class Echo:
    def write(self, value: str) -> str:
        return value


def csv_stream(rows: Iterator[list[Any]], filename: str) -> StreamingHttpResponse:
    writer = csv.writer(Echo())
    response = StreamingHttpResponse(
        (writer.writerow(r) for r in rows), content_type="text/csv; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@organiser_only
def export_standings(request: HttpRequest, event_id: int) -> StreamingHttpResponse:
    event = get_object_or_404(Event, pk=event_id)
    day = None
    if request.GET.get("day", "").isdigit():
        day = get_object_or_404(event.days, number=int(request.GET["day"]))
    columns = ["rank", "name", "balance", "stack", "total", "change", "hands_played", "hands_won"]

    def rows() -> Iterator[list[Any]]:
        yield ["player_id", *columns]
        for r in standings(event, day):
            yield [r["player"], *(r[c] for c in columns)]

    suffix = f"-day{day.number}" if day else ""
    return csv_stream(rows(), f"standings-{event.pk}{suffix}.csv")


@organiser_only
def export_ledger(request: HttpRequest, event_id: int) -> StreamingHttpResponse:
    event = get_object_or_404(Event, pk=event_id)
    transfers = (
        Transfer.objects.filter(event=event)
        .select_related("source", "target", "action", "hand")
        .order_by("pk")
    )

    def rows() -> Iterator[list[Any]]:
        yield ["id", "at", "kind", "from", "to", "amount", "hand", "action_seq", "reverses", "memo"]
        for t in transfers.iterator(chunk_size=2000):
            yield [
                t.pk,
                t.created_at.isoformat(),
                t.kind,
                str(t.source),
                str(t.target),
                t.amount,
                t.hand_id or "",
                t.action.seq if t.action else "",
                t.reverses_id or "",
                t.memo,
            ]

    return csv_stream(rows(), f"ledger-{event.pk}.csv")


@organiser_only
def export_hands(request: HttpRequest, day_id: int) -> StreamingHttpResponse:
    day = get_object_or_404(Day.objects.select_related("event"), pk=day_id)
    hands = (
        Hand.objects.filter(table__day=day)
        .select_related("table")
        .order_by("table__number", "number")
    )

    def lines() -> Iterator[str]:
        for hand in hands.iterator(chunk_size=500):
            meta = {
                "event": day.event.name,
                "day": day.number,
                "table": hand.table.number,
                "hand": hand.number,
            }
            yield json.dumps(dump(hand_state(hand), meta=meta), separators=(",", ":")) + "\n"

    response = StreamingHttpResponse(lines(), content_type="application/x-ndjson")
    name = f"hands-{day.event.pk}-day{day.number}.jsonl"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response
