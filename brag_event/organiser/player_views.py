"""The players' pages: the list (search, register, import with its report, issue money) and one
player's page (correct the name, withdraw or take the withdrawal back). Thin: parse a form, call
a service, render."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render

from brag_event.audit.models import AuditEntry, Verb
from brag_event.core.errors import ServiceError
from brag_event.core.forms import bad_request, posted_form, takes
from brag_event.events.models import Event
from brag_event.players.models import Player
from brag_event.players.roster import player_rename, players_search
from brag_event.players.selectors import standings
from brag_event.players.services import player_issue_money, player_register, players_import
from brag_event.tables.models import Seat
from brag_event.tables.withdraw import player_reinstate, player_withdraw

from .access import organiser_only
from .forms import (
    IssueMoneyForm,
    PlayerImportForm,
    PlayerRegisterForm,
    PlayerReinstateForm,
    PlayerRenameForm,
    PlayerSearchQuery,
    PlayerWithdrawForm,
    service_error_on,
)
from .views import actor

PLAYER_FORMS: dict[str, type[forms.Form]] = {
    "register": PlayerRegisterForm,
    "import": PlayerImportForm,
    "issue": IssueMoneyForm,
}


@takes(query=PlayerSearchQuery, post=PLAYER_FORMS)
@organiser_only
def players(request: HttpRequest, event_id: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=event_id)
    query = PlayerSearchQuery(request.GET)
    if not query.is_valid():
        return bad_request(request, query)
    report = None
    shown: dict[str, forms.BaseForm] = {
        "register": PlayerRegisterForm(),
        "import": PlayerImportForm(),
        "issue": IssueMoneyForm(event=event),
    }
    status = 200
    if request.method == "POST":
        which = posted_form(request, PLAYER_FORMS)
        if which is None:
            return bad_request(request)
        if which == "issue":
            form: forms.BaseForm = IssueMoneyForm(request.POST, event=event)
        else:
            form = PLAYER_FORMS[which](request.POST, request.FILES)
        shown[which] = form
        status = 400
        if form.is_valid():
            data = form.cleaned_data
            try:
                if which == "import":
                    report = players_import(
                        event=event,
                        text=data["text"],
                        by=actor(request),
                        default_money=data["default_money"],
                    )
                    shown[which] = PlayerImportForm()
                    status = 200
                elif which == "issue":
                    player = data["player"]
                    amount = data["amount"]
                    player_issue_money(
                        player=player, amount=amount, by=actor(request), memo="issued"
                    )
                    messages.success(request, f"{amount} issued to {player.name}.")
                    return redirect("organiser:players", event.pk)
                else:
                    player = player_register(
                        event=event,
                        name=data["name"],
                        starting_money=data["starting_money"],
                        by=actor(request),
                    )
                    messages.success(request, f"{player.name} registered.")
                    return redirect("organiser:players", event.pk)
            except ServiceError as err:
                service_error_on(form, err)
    text = query.cleaned_data["q"]
    rows = standings(event)
    withdrawn = set(
        Player.objects.filter(event=event, withdrawn_at__isnull=False).values_list("pk", flat=True)
    )
    for row in rows:
        row["withdrawn"] = row["player"] in withdrawn
    if text:
        found = set(players_search(event=event, text=text).values_list("pk", flat=True))
        rows = [r for r in rows if r["player"] in found]
    context = {
        "event": event,
        "rows": rows,
        "report": report,
        "forms": shown,
        "query": query,
        "searched": text,
        "tab": "players",
    }
    return render(request, "organiser/players.html", context, status=status)


PLAYER_PAGE_FORMS: dict[str, type[forms.Form]] = {
    "rename": PlayerRenameForm,
    "withdraw": PlayerWithdrawForm,
    "reinstate": PlayerReinstateForm,
}


@takes(post=PLAYER_PAGE_FORMS)
@organiser_only
def player(request: HttpRequest, player_id: int) -> HttpResponse:
    found = get_object_or_404(Player.objects.select_related("event"), pk=player_id)
    shown: dict[str, forms.BaseForm] = {
        "rename": PlayerRenameForm(initial={"name": found.name}),
        "withdraw": PlayerWithdrawForm(),
        "reinstate": PlayerReinstateForm(),
    }
    status = 200
    if request.method == "POST":
        which = posted_form(request, PLAYER_PAGE_FORMS)
        if which is None:
            return bad_request(request)
        form = PLAYER_PAGE_FORMS[which](request.POST)
        shown[which] = form
        status = 400
        if form.is_valid():
            try:
                if which == "rename":
                    before = found.name
                    renamed = player_rename(
                        player=found, name=form.cleaned_data["name"], by=actor(request)
                    )
                    if renamed.name != before:
                        messages.success(request, f"“{before}” is now “{renamed.name}”.")
                elif which == "withdraw":
                    player_withdraw(
                        player=found, reason=form.cleaned_data["reason"], by=actor(request)
                    )
                    messages.success(
                        request,
                        f"{found.name} is withdrawn: not drawn or seated again; their money "
                        "stays theirs.",
                    )
                else:
                    player_reinstate(player=found, by=actor(request))
                    messages.success(request, f"{found.name} can be drawn and seated again.")
                return redirect("organiser:player", found.pk)
            except ServiceError as err:
                service_error_on(form, err)
    seat = (
        Seat.objects.filter(player=found, left_at__isnull=True).select_related("table__day").first()
    )
    history = AuditEntry.objects.filter(
        event_id=found.event_id,
        player=found,
        verb__in=(
            Verb.PLAYER_REGISTER,
            Verb.PLAYER_RENAME,
            Verb.PLAYER_WITHDRAW,
            Verb.PLAYER_REINSTATE,
        ),
    ).select_related("actor")
    context = {
        "event": found.event,
        "player": found,
        "seat": seat,
        "forms": shown,
        "history": history.order_by("-at", "-id")[:50],
        "qualified": list(found.qualifications.select_related("day").order_by("day__number")),
        "tab": "players",
    }
    return render(request, "organiser/player.html", context, status=status)
