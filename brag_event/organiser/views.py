"""Organisers' pages: the event dashboard and what hangs off it. Views stay thin: parse, call a
service or a selector, render; a service's refusal is shown on the page."""

from __future__ import annotations

import csv
import datetime as dt
import json
from collections.abc import Iterator
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    JsonResponse,
    StreamingHttpResponse,
)
from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_POST

from brag_event.access.roles import ORGANISER
from brag_event.access.rules import can, events_where_can
from brag_event.access.selectors import staff_manageable
from brag_event.access.web import requires, visible_events
from brag_event.api.models import DeviceToken
from brag_event.api.services import token_issue, token_revoke
from brag_event.closing.count import count_state, day_count_waive
from brag_event.closing.services import day_close_request
from brag_event.closing.tasks import day_close_nudge
from brag_event.core.actors import Actor
from brag_event.core.conditional import etag_of, versioned_answer
from brag_event.core.errors import ServiceError
from brag_event.core.exports import spreadsheet_safe
from brag_event.core.forms import bad_request, takes
from brag_event.core.security import login_failures_recent, login_lockouts, login_unlock
from brag_event.events.models import Day, Event
from brag_event.events.services import day_open, day_set_qualification
from brag_event.events.states import day_before, refuse_until_day_before_closed
from brag_event.events.zones import zone
from brag_event.hands.chain import chains, day_export_line, export_document, export_meta
from brag_event.hands.models import Hand
from brag_event.ledger.checks import ledger_check_if_due, ledger_check_run
from brag_event.ledger.models import Transfer
from brag_event.notify.services import outbox_summary
from brag_event.players.qualify import Cut, day_cut, day_field, player_requalify
from brag_event.players.selectors import current_day
from brag_event.public.forms import StandingsQuery
from brag_event.standings.results import day_order, standings_marked
from brag_event.standings.selectors import standings
from brag_event.tables.models import Seat
from brag_event.tables.versions import dashboard_version

from .access import organiser_only
from .closing_report import WAITING_WORDS, close_report, close_state, tables_named
from .count_forms import CountWaiveForm
from .forms import (
    DayCloseConfirmForm,
    DayCloseForm,
    DayOpenForm,
    RequalifyForm,
    TokenIssueForm,
    UnlockForm,
    service_error_on,
)
from .selectors import day_rules_shown, days_openable, event_dashboard

# Who acts, from which device: the one builder (``core.actors``), under the name pages use.
actor = Actor.from_request


# ------------------------------------------------------------------ dashboard


@takes()
@organiser_only
def events(request: HttpRequest) -> HttpResponse:
    # An organiser of one event sees that event; an organiser for every event, every one.
    mine = visible_events(request.user, ORGANISER)
    context = {
        "events": mine.prefetch_related("days"),
        "may_create": can(request.user, "event.create"),
    }
    return render(request, "organiser/events.html", context)


LIVE_POLL_SECONDS = 5  # the dashboard's script asks for its live part this often


def _live_version(event_id: int) -> tuple[str, dt.datetime]:
    """The version of the dashboard's live part, and the "now" it is drawn at: the event's
    version (``tables.versions``) and the minute, since idle tables and "… ago" move with the
    clock. 404 if there is no such event."""
    found = dashboard_version(event_id)
    if found is None:
        raise Http404("No such event")
    now = timezone.now().replace(second=0, microsecond=0)
    return f"{found[0]}.{found[1]}.{now:%Y%m%d%H%M}", now


def _live_html(request: HttpRequest, event: Event, now: dt.datetime) -> str:
    board = event_dashboard(event, now=now)
    locked = [x for x in login_lockouts() if x.locked]
    context = {"event": event, "board": board, "locked": locked}
    return render_to_string("organiser/_dashboard_live.html", context, request=request)


def _audit_if_due(event_id: int) -> None:
    """Under ``make run`` (no Celery beat) the dashboard runs the periodic ledger audit."""
    if not settings.BRAG_DASHBOARD_AUDIT:
        return
    event = Event.objects.filter(pk=event_id).first()
    if event is not None:
        schedule: Any = settings.CELERY_BEAT_SCHEDULE["ledger-check"]["schedule"]
        ledger_check_if_due(event=event, every_seconds=float(schedule))


@takes()
@organiser_only
def dashboard(request: HttpRequest, event_id: int) -> HttpResponse:
    _audit_if_due(event_id)
    version, now = _live_version(event_id)
    event = get_object_or_404(Event, pk=event_id)
    context = {
        "event": event,
        "live": mark_safe(_live_html(request, event, now)),  # nosec B308 B703 - our template
        "etag": etag_of(f"dashboard-{event_id}", version),
        "poll_ms": LIVE_POLL_SECONDS * 1000,
        "openable": days_openable(event),
        "closed_days": list(event.days.filter(status=Day.Status.CLOSED).order_by("number")),
        "all_closed": not event.days.exclude(status=Day.Status.CLOSED).exists(),
        "outbox": outbox_summary(event_id=event_id),
    }
    return render(request, "organiser/dashboard.html", context)


@takes(post=DayOpenForm)
@organiser_only
def day_open_view(request: HttpRequest, day_id: int) -> HttpResponse:
    """Opening a day, asked once: the page says what opening does (its rules freeze, who may
    play, the draw waiting to be applied); only the confirmation's button opens it."""
    day = get_object_or_404(Day.objects.select_related("event"), pk=day_id)
    refusal: ServiceError | None = None
    status = 200
    if request.method == "POST":
        form = DayOpenForm(request.POST)
        if not form.is_valid():
            return bad_request(request, form)
        if form.cleaned_data["confirm"]:
            try:
                day_open(day=day, by=actor(request))
            except ServiceError as err:
                refusal, status = err, err.status
            else:
                messages.success(request, f"Day {day.number} is open: hands can be played.")
                if day.draws.filter(applied_at__isnull=True).exists():
                    return redirect("organiser:seating", day.pk)
                return redirect("organiser:dashboard", day.event_id)
    day.refresh_from_db()
    if refusal is None and day.status == Day.Status.SCHEDULED:
        try:  # said before asking: a day whose day before is still open cannot open
            refuse_until_day_before_closed(day, "the opening")
        except ServiceError as err:
            refusal = err
    context = {
        "day": day,
        "event": day.event,
        "rules": day_rules_shown(day),
        "field": len(day_field(day)),
        "pending": day.draws.filter(applied_at__isnull=True).order_by("-created_at").first(),
        "refusal": refusal,
    }
    return render(request, "organiser/day_open.html", context, status=status)


@takes()
@organiser_only
def dashboard_live(request: HttpRequest, event_id: int) -> HttpResponse:
    """The dashboard's live part (figures, days, tables, alerts), for its script: 304 when
    nothing changed, else rendered once per version and minute (``core.conditional``)."""
    _audit_if_due(event_id)
    version, now = _live_version(event_id)

    def render_live() -> bytes:
        return _live_html(request, get_object_or_404(Event, pk=event_id), now).encode()

    return versioned_answer(
        request,
        key=f"dashboard-{event_id}",
        version=version,
        render=render_live,
        content_type="text/html; charset=utf-8",
        private=True,
    )


@takes()
@organiser_only
@require_POST
def audit_now(request: HttpRequest, event_id: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=event_id)
    check = ledger_check_run(event=event, full=True)
    messages.info(request, "Ledger audit: " + ("PASS" if check.ok else "FAIL"))
    return redirect("organiser:dashboard", event.pk)


# ------------------------------------------------------------------ device tokens


@takes(post=TokenIssueForm)
@requires("tokens.manage")
def tokens(request: HttpRequest) -> HttpResponse:
    """Device tokens of the users the organiser manages (every user, for an organiser of every
    event; their events' staff, for an organiser of one event)."""
    users = staff_manageable(request.user)
    events = events_where_can(request.user, "tokens.manage")
    issued = None
    form = TokenIssueForm(events=events, users=users)
    status = 200
    if request.method == "POST":
        form = TokenIssueForm(request.POST, events=events, users=users)
        status = 400
        if form.is_valid():
            try:
                token, key = token_issue(
                    user_id=form.cleaned_data["user"].pk,
                    name=form.cleaned_data["name"],
                    by=actor(request),
                )
                issued = {"token": token, "key": key}
                form = TokenIssueForm(events=events, users=users)
                status = 200
            except ServiceError as err:
                service_error_on(form, err)
    listing = (
        DeviceToken.objects.filter(user__in=users).select_related("user").order_by("-created_at")
    )
    context = {"tokens": listing, "form": form, "issued": issued}
    return render(request, "organiser/tokens.html", context, status=status)


@takes()
@requires("tokens.manage")
@require_POST
def token_revoke_view(request: HttpRequest, token_id: int) -> HttpResponse:
    mine = DeviceToken.objects.filter(user__in=staff_manageable(request.user))
    token = token_revoke(token=get_object_or_404(mine, pk=token_id), by=actor(request))
    messages.success(request, f"{token.name} revoked.")
    return redirect("organiser:tokens")


# ------------------------------------------------------------------ closing a day


@takes(post=DayCloseConfirmForm)
@organiser_only
def day_close(request: HttpRequest, day_id: int) -> HttpResponse:
    """Closing a day: choose who plays the next day, confirm (the close cannot be undone), then
    follow its progress and read its report. A refusal is shown on the page, in words, with the
    tables it names linked."""
    day = get_object_or_404(Day.objects.select_related("event"), pk=day_id)
    initial = {"qualify_rule": day.qualify_rule, "qualify_top": day.qualify_top}
    form = DayCloseConfirmForm(initial=initial)
    if request.method != "POST":
        day_close_nudge(day=day)
        return _day_close_page(request, day, form, status=200)
    if day.is_open:
        form = DayCloseConfirmForm(request.POST)
        if not form.is_valid():
            return _day_close_page(request, day, form, status=400)
        chosen = form.cleaned_data["qualify_rule"]
        # Nothing chosen: the rule already set for the day (in the admin, say).
        rule = chosen or day.qualify_rule
        top = form.cleaned_data["qualify_top"] if chosen else day.qualify_top
        if not form.cleaned_data["confirm"]:
            rows = day_order(day, standings(day.event, day))
            cut = day_cut(day, rows, rule=rule, top=top)
            confirm = {"rule": rule, "top": top, "preview": _cut_preview(cut, rows)}
            return _day_close_page(request, day, form, status=200, confirm=confirm)
    try:
        if day.is_open:
            day_set_qualification(day=day, rule=rule, top=top, by=actor(request))
        day_close_request(day=day, by=actor(request))
    except ServiceError as err:
        day.refresh_from_db()
        return _day_close_page(request, day, form, status=409, refusal=err)
    return redirect("organiser:day_close", day.pk)


def _cut_preview(cut: Cut, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The cut in names, ranked: who would go through and who not, each with why."""
    qualified, missed = [], []
    for r in rows:
        entry = {"rank": r["rank"], "name": r["name"], "total": r["total"]}
        if r["player"] in cut.qualified:
            qualified.append({**entry, "why": cut.qualified[r["player"]]})
        else:
            missed.append({**entry, "why": cut.missed.get(r["player"], "")})
    return {"qualified": qualified, "missed": missed, "rule": cut.rule_text}


@takes(post=RequalifyForm)
@organiser_only
@require_POST
def requalify(request: HttpRequest, day_id: int) -> HttpResponse:
    """Let a player back in for this day past the cut of the day before: the organiser's
    decision, with a reason, kept in the audit log. Answered on the close page of the day
    before."""
    day = get_object_or_404(Day.objects.select_related("event"), pk=day_id)
    before = day_before(day)
    if before is None:
        raise Http404("The first day has no cut before it")
    form = RequalifyForm(request.POST, day=day)
    if form.is_valid():
        try:
            player_requalify(
                day=day,
                player=form.cleaned_data["player"],
                reason=form.cleaned_data["reason"],
                by=actor(request),
            )
        except ServiceError as err:
            service_error_on(form, err)
        else:
            messages.success(
                request,
                f"{form.cleaned_data['player']} is let back in for day {day.number}; the "
                "reason is in the audit log.",
            )
            return redirect("organiser:day_close", before.pk)
    before = Day.objects.select_related("event").get(pk=before.pk)
    blank = DayCloseConfirmForm()
    return _day_close_page(request, before, blank, status=400, requalify_form=form)


@takes(post=CountWaiveForm)
@requires("count.waive")
@require_POST
def count_waive(request: HttpRequest, day_id: int) -> HttpResponse:
    """Close the day without (the rest of) its count: the organiser's reason, confirmed."""
    day = get_object_or_404(Day.objects.select_related("event"), pk=day_id)
    form = CountWaiveForm(request.POST)
    if form.is_valid():
        try:
            day_count_waive(day=day, reason=form.cleaned_data["reason"], by=actor(request))
        except ServiceError as err:
            service_error_on(form, err)
        else:
            messages.success(
                request,
                f"Day {day.number}'s count is waived; the reason is in the audit log. Close the "
                "day now.",
            )
            return redirect("organiser:day_close", day.pk)
    blank = DayCloseConfirmForm()
    return _day_close_page(request, day, blank, status=400, waive_form=form)


def _day_close_page(
    request: HttpRequest,
    day: Day,
    form: DayCloseForm,
    *,
    status: int,
    confirm: dict[str, Any] | None = None,
    refusal: ServiceError | None = None,
    requalify_form: RequalifyForm | None = None,
    waive_form: CountWaiveForm | None = None,
) -> HttpResponse:
    report = close_report(day)
    following = report.following
    can_requalify = (
        following is not None
        and day.status == Day.Status.CLOSED
        and following.status in (Day.Status.SCHEDULED, Day.Status.OPEN)
    )
    if can_requalify and requalify_form is None and following is not None:
        requalify_form = RequalifyForm(day=following)
    context = {
        "day": day,
        "event": day.event,
        "state": close_state(day),
        "waiting_words": WAITING_WORDS,
        "report": report,
        "following": following,
        "form": form,
        "confirm": confirm,
        "refusal": refusal,
        "requalify_form": requalify_form if can_requalify else None,
        "refusal_tables": tables_named(day, refusal.details.get("tables")) if refusal else [],
        "count": count_state(day),
        "waive_form": waive_form or CountWaiveForm(),
        "in_play": Hand.objects.filter(table__day=day, status=Hand.Status.IN_PROGRESS).count(),
        "seated": Seat.objects.filter(table__day=day, left_at__isnull=True).count(),
    }
    return render(request, "organiser/day_close.html", context, status=status)


@takes()
@organiser_only
def day_close_status(request: HttpRequest, day_id: int) -> JsonResponse:
    day = get_object_or_404(Day, pk=day_id)
    day_close_nudge(day=day)  # the close's page polls this: its close is sent again if waiting
    return JsonResponse(close_state(day))


# ------------------------------------------------------------------ exports


class Echo:
    def write(self, value: str) -> str:
        return value


def csv_stream(rows: Iterator[list[Any]], filename: str) -> StreamingHttpResponse:
    writer = csv.writer(Echo())
    response = StreamingHttpResponse(
        (writer.writerow([spreadsheet_safe(c) for c in r]) for r in rows),
        content_type="text/csv; charset=utf-8",
    )
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@takes(query=StandingsQuery)
@organiser_only
def export_standings(request: HttpRequest, event_id: int) -> HttpResponseBase:
    event = get_object_or_404(Event, pk=event_id)
    query = StandingsQuery(request.GET)
    if not query.is_valid():
        return bad_request(request, query)
    day = None
    if query.cleaned_data["day"] is not None:
        day = get_object_or_404(event.days, number=query.cleaned_data["day"])
    columns = ["rank", "name", "balance", "stack", "total", "change", "hands_played", "hands_won"]
    # "change" is over one day (the day asked for, else the day being played): its header names
    # that day. The marks and the cut are those of the same day (``players.qualify``).
    shown = day or current_day(event)
    change = f"change_day_{shown.number}" if shown else "change"
    marked, cut = standings_marked(event, day)

    def rows() -> Iterator[list[Any]]:
        yield ["player_id", *columns[:5], change, *columns[6:], "standing", "note", "cut"]
        for index, r in enumerate(marked):
            side = ""
            if cut is not None:
                side = "above the cut" if index < cut["after"] else "below the cut"
            yield [r["player"], *(r[c] for c in columns), r["standing"], r["note"], side]

    suffix = f"-day{day.number}" if day else ""
    return csv_stream(rows(), f"standings-{event.pk}{suffix}.csv")


@takes()
@organiser_only
def export_ledger(request: HttpRequest, event_id: int) -> StreamingHttpResponse:
    event = get_object_or_404(Event, pk=event_id)
    transfers = (
        Transfer.objects.filter(event=event)
        .select_related("source", "target", "action", "hand")
        .order_by("pk")
    )

    # The event's local time with its offset (2026-06-12T21:05:00+02:00), and the zone's name.
    local = zone(event.time_zone)

    def rows() -> Iterator[list[Any]]:
        yield [
            "id",
            "at",
            "time_zone",
            "kind",
            "from",
            "to",
            "amount",
            "hand",
            "action_seq",
            "reverses",
            "memo",
        ]
        for t in transfers.iterator(chunk_size=2000):
            yield [
                t.pk,
                timezone.localtime(t.created_at, local).isoformat(timespec="seconds"),
                event.time_zone,
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


@takes()
@organiser_only
def export_hands(request: HttpRequest, day_id: int) -> StreamingHttpResponse:
    """The day's hands as ``brag-hh/1`` JSON Lines with their record (each action's hash, each
    hand's head), and last the day's ``brag-day/3`` line with its own chain (the records that
    belong to no hand) and its root: the root published at the close, or, before it, the root
    of the heads as they are now."""
    day = get_object_or_404(Day.objects.select_related("event"), pk=day_id)
    hands = Hand.objects.filter(table__day=day)

    def lines() -> Iterator[str]:
        heads = []
        meta = export_meta(day)
        for hand in chains(hands):
            heads.append((hand.table, hand.number, hand.stored_head))
            doc = export_document(hand, meta)
            yield json.dumps(doc, separators=(",", ":"), ensure_ascii=False) + "\n"
        last = day_export_line(day, heads)
        yield json.dumps(last, separators=(",", ":"), ensure_ascii=False) + "\n"

    response = StreamingHttpResponse(lines(), content_type="application/x-ndjson")
    name = f"hands-{day.event.pk}-day{day.number}.jsonl"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


# ------------------------------------------------------------------ logins locked out


@takes(post=UnlockForm)
@requires("logins.unlock")
def lockouts(request: HttpRequest) -> HttpResponse:
    """Logins locked after too many wrong passwords (django-axes), the latest failures, and
    lifting a lock."""
    status = 200
    form = UnlockForm()
    if request.method == "POST":
        form = UnlockForm(request.POST)
        status = 400
        if form.is_valid():
            try:
                login_unlock(
                    username=form.cleaned_data["username"],
                    ip_address=form.cleaned_data["ip_address"],
                    by=actor(request),
                )
                messages.success(
                    request,
                    f"{form.cleaned_data['username']} can log in again from "
                    f"{form.cleaned_data['ip_address']}.",
                )
                return redirect("organiser:lockouts")
            except ServiceError as err:
                service_error_on(form, err)
    context = {
        "lockouts": login_lockouts(),
        "failures": login_failures_recent(),
        "form": form,
        "limit": settings.AXES_FAILURE_LIMIT,
        "minutes": int(settings.AXES_COOLOFF_TIME.total_seconds() // 60),
    }
    return render(request, "organiser/lockouts.html", context, status=status)
