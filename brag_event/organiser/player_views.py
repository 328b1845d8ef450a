"""The players' pages: the list (search, register, load a file to import, issue money), a file's
import page (its preview and confirmation, then its undo) and one player's page (correct the
name, withdraw or take the withdrawal back, remove one registered by mistake). Thin: parse a
form, call a service, render."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.db.models import Count
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render

from brag_event.access.web import requires
from brag_event.audit.models import AuditEntry, Verb
from brag_event.core.errors import ServiceError
from brag_event.core.forms import bad_request, posted_form, takes
from brag_event.core.public_urls import public_url
from brag_event.core.words import counted
from brag_event.events.models import Event
from brag_event.players.imports import (
    import_undo_summary,
    player_remove,
    players_import_confirm,
    players_import_preview,
    players_import_undo,
    players_who_played,
    row_question,
)
from brag_event.players.links import player_link_reissue, player_path
from brag_event.players.models import ImportBatch, Person, Player
from brag_event.players.roster import player_regroup, player_rename, players_search
from brag_event.players.services import player_issue_money, player_register
from brag_event.standings.selectors import standings
from brag_event.tables.models import Seat
from brag_event.tables.withdraw import player_reinstate, player_withdraw

from .access import organiser_only
from .forms import (
    RETURNING_NEW,
    ImportConfirmForm,
    ImportPageQuery,
    ImportUndoForm,
    IssueMoneyForm,
    PlayerGroupForm,
    PlayerImportForm,
    PlayerLinkQuery,
    PlayerLinkReissueForm,
    PlayerRegisterForm,
    PlayerReinstateForm,
    PlayerRemoveForm,
    PlayerRenameForm,
    PlayerSearchQuery,
    PlayerWithdrawForm,
    service_error_on,
)
from .qr import qr_svg
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
    shown: dict[str, forms.BaseForm] = {
        "register": PlayerRegisterForm(event=event),
        "import": PlayerImportForm(),
        "issue": IssueMoneyForm(event=event),
    }
    status = 200
    if request.method == "POST":
        which = posted_form(request, PLAYER_FORMS)
        if which is None:
            return bad_request(request)
        if which in ("issue", "register"):
            form: forms.BaseForm = PLAYER_FORMS[which](request.POST, event=event)  # type: ignore[call-arg]
        else:
            form = PLAYER_FORMS[which](request.POST, request.FILES)
        shown[which] = form
        status = 400
        if form.is_valid():
            data = form.cleaned_data
            try:
                if which == "import":
                    batch = players_import_preview(
                        event=event,
                        data=data["data"],
                        file_name=data["file_name"],
                        by=actor(request),
                    )
                    return redirect("organiser:import_batch", batch.pk)
                elif which == "issue":
                    player = data["player"]
                    amount = data["amount"]
                    player_issue_money(
                        player=player, amount=amount, by=actor(request), memo="issued"
                    )
                    messages.success(request, f"{amount:,} issued to {player.name}.")
                    return redirect("organiser:players", event.pk)
                else:
                    returning = data["returning"]
                    player = player_register(
                        event=event,
                        name=data["name"],
                        starting_money=data["starting_money"],
                        group=data["group"],
                        person=Person.objects.get(pk=int(returning))
                        if returning and returning != RETURNING_NEW
                        else None,
                        number=data["number"],
                        ask_returning=not returning,
                        look_alike_confirmed=data["look_alike_confirmed"],
                        by=actor(request),
                    )
                    messages.success(
                        request,
                        f"{player.name} (no. {player.person.number}) registered with "
                        f"{player.balance:,} {event.currency}.",
                    )
                    return redirect("organiser:players", event.pk)
            except ServiceError as err:
                if err.code == "person_matches":
                    form.asks_returning = True  # type: ignore[attr-defined]
                if err.code == "player_exists":
                    form.asks_look_alike = True  # type: ignore[attr-defined]
                service_error_on(form, err)
    text = query.cleaned_data["q"]
    rows = standings(event)
    withdrawn = set(
        Player.objects.filter(event=event, withdrawn_at__isnull=False).values_list("pk", flat=True)
    )
    groups = dict(Player.objects.filter(event=event).exclude(group="").values_list("pk", "group"))
    for row in rows:
        row["withdrawn"] = row["player"] in withdrawn
        row["group"] = groups.get(row["player"], "")
    if text:
        found = set(players_search(event=event, text=text).values_list("pk", flat=True))
        rows = [r for r in rows if r["player"] in found]
    imports = list(
        ImportBatch.objects.filter(event=event)
        .exclude(status=ImportBatch.Status.PREVIEWED)
        .annotate(registered=Count("players"))
        .order_by("-created_at", "-pk")[:5]
    )
    context = {
        "event": event,
        "rows": rows,
        "forms": shown,
        "query": query,
        "searched": text,
        "imports": imports,
        "tab": "players",
    }
    return render(request, "organiser/players.html", context, status=status)


IMPORT_FORMS: dict[str, type[forms.Form]] = {
    "confirm": ImportConfirmForm,
    "undo": ImportUndoForm,
}


@takes(query=ImportPageQuery, post=IMPORT_FORMS)
@organiser_only
def import_batch(request: HttpRequest, batch_id: int) -> HttpResponse:
    """A file's preview (every row: will register, or refused and why) with its one
    confirmation; once imported, what it registered and its undo (asked once)."""
    batch = get_object_or_404(ImportBatch.objects.select_related("event"), pk=batch_id)
    event = batch.event
    query = ImportPageQuery(request.GET)
    if not query.is_valid():
        return bad_request(request, query)
    error = ""
    status = 200
    confirm_form = ImportConfirmForm(batch=batch)
    if request.method == "POST":
        which = posted_form(request, IMPORT_FORMS)
        if which == "confirm":
            posted: forms.Form = ImportConfirmForm(request.POST, batch=batch)
        elif which is not None:
            posted = IMPORT_FORMS[which](request.POST)
        if which is None or not posted.is_valid():
            return bad_request(request, None if which is None else posted)
        try:
            if which == "confirm":
                assert isinstance(posted, ImportConfirmForm)
                confirm_form = posted
                registered = players_import_confirm(
                    batch=batch, decisions=posted.decisions(), by=actor(request)
                )
                messages.success(
                    request,
                    f"{counted(len(registered), 'player')} registered. You can undo this "
                    "import until one of them plays.",
                )
            else:
                removed = players_import_undo(batch=batch, by=actor(request))
                messages.success(
                    request,
                    f"Import undone: {counted(removed, 'player')} withdrawn and their starting "
                    "money taken back.",
                )
            return redirect("organiser:import_batch", batch.pk)
        except ServiceError as err:
            error = err.message
            status = 409 if err.status == 409 else 400
            batch.refresh_from_db()
    rows = [
        {**r, "question": row_question(r), "field": confirm_form[f"decide_{r['line']}"]}
        if row_question(r) and batch.status == ImportBatch.Status.PREVIEWED
        else r
        for r in batch.rows
    ]
    will = [r for r in rows if not r["refused"]]
    context = {
        "event": event,
        "batch": batch,
        "rows": rows,
        "has_groups": any(r.get("group") for r in rows),
        "will": len(will),
        "refused": len(rows) - len(will),
        "money": sum(int(r["money"] or 0) for r in will),
        "columns": batch.columns.get("columns", []),
        "empty_lines": batch.columns.get("empty_lines", 0),
        "error": error,
        "questions": len(confirm_form.questions),
        "ask_undo": query.cleaned_data["ask"] == "undo",
        "undo": import_undo_summary(batch)
        if batch.status == ImportBatch.Status.CONFIRMED
        else None,
        "registered": batch.players.order_by("name_key")
        if batch.status != ImportBatch.Status.PREVIEWED
        else None,
        "tab": "players",
    }
    return render(request, "organiser/import.html", context, status=status)


PLAYER_PAGE_FORMS: dict[str, type[forms.Form]] = {
    "rename": PlayerRenameForm,
    "group": PlayerGroupForm,
    "withdraw": PlayerWithdrawForm,
    "reinstate": PlayerReinstateForm,
    "remove": PlayerRemoveForm,
}


@takes(post=PLAYER_PAGE_FORMS)
@organiser_only
def player(request: HttpRequest, player_id: int) -> HttpResponse:
    found = get_object_or_404(Player.objects.select_related("event"), pk=player_id)
    shown: dict[str, forms.BaseForm] = {
        "rename": PlayerRenameForm(initial={"name": found.name}),
        "group": PlayerGroupForm(initial={"group": found.group}),
        "withdraw": PlayerWithdrawForm(),
        "reinstate": PlayerReinstateForm(),
        "remove": PlayerRemoveForm(),
    }
    status = 200
    asking_remove = False
    if request.method == "POST":
        which = posted_form(request, PLAYER_PAGE_FORMS)
        if which is None:
            return bad_request(request)
        form = PLAYER_PAGE_FORMS[which](request.POST)
        shown[which] = form
        status = 400
        if which == "remove" and form.is_valid() and not form.cleaned_data["confirm"]:
            # Asked once: what removing does, with the reason given, and "Yes, remove".
            shown["remove"] = PlayerRemoveForm(
                initial={"reason": form.cleaned_data["reason"], "confirm": True}
            )
            asking_remove, status = True, 200
        elif form.is_valid():
            try:
                if which == "rename":
                    before = found.name
                    renamed = player_rename(
                        player=found, name=form.cleaned_data["name"], by=actor(request)
                    )
                    if renamed.name != before:
                        messages.success(request, f"“{before}” is now “{renamed.name}”.")
                elif which == "group":
                    regrouped = player_regroup(
                        player=found, group=form.cleaned_data["group"], by=actor(request)
                    )
                    messages.success(
                        request,
                        f"{regrouped.name} is in “{regrouped.group}”: drawn apart from its other "
                        "players."
                        if regrouped.group
                        else f"{regrouped.name} is in no club or group.",
                    )
                elif which == "withdraw":
                    player_withdraw(
                        player=found, reason=form.cleaned_data["reason"], by=actor(request)
                    )
                    messages.success(
                        request,
                        f"{found.name} is withdrawn: not drawn or seated again; their money "
                        "stays theirs.",
                    )
                elif which == "remove":
                    money = found.balance
                    player_remove(
                        player=found, reason=form.cleaned_data["reason"], by=actor(request)
                    )
                    messages.success(
                        request,
                        f"{found.name} is removed: withdrawn, {money:,} {found.event.currency} "
                        "taken back, and the name is free to register again.",
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
            Verb.PLAYER_UPDATE,
            Verb.PLAYER_WITHDRAW,
            Verb.PLAYER_REINSTATE,
            Verb.PLAYER_REMOVE,
            Verb.PLAYER_LINK_REISSUE,
        ),
    ).select_related("actor")
    context = {
        "event": found.event,
        "player": found,
        "seat": seat,
        "forms": shown,
        "history": history.order_by("-at", "-id")[:50],
        "qualified": list(found.qualifications.select_related("day").order_by("day__number")),
        "played": bool(players_who_played([found.pk])),
        "asking_remove": asking_remove,
        "tab": "players",
    }
    return render(request, "organiser/player.html", context, status=status)


@takes(query=PlayerLinkQuery, post=PlayerLinkReissueForm)
@requires("player.link")
def player_link(request: HttpRequest, player_id: int) -> HttpResponse:
    """A player's private link and its QR code, to print and hand over; and replacing it (asked
    once, ``?ask=replace``) when it went astray: every earlier link then says it was replaced."""
    found = get_object_or_404(Player.objects.select_related("event"), pk=player_id)
    query = PlayerLinkQuery(request.GET)
    if not query.is_valid():
        return bad_request(request, query)
    if request.method == "POST":
        if not PlayerLinkReissueForm(request.POST).is_valid():
            return bad_request(request)
        found = player_link_reissue(player=found, by=actor(request))
        messages.success(
            request,
            f"{found.name}’s link is replaced: the old one no longer opens their page. Print "
            "the new one below and give it to them.",
        )
        return redirect("organiser:player_link", found.pk)
    url = public_url(request, player_path(found))
    context = {
        "event": found.event,
        "player": found,
        "url": url,
        "qr": qr_svg(url),
        "replaced": found.link_generation - 1,
        "ask_replace": query.cleaned_data["ask"] == "replace",
        "tab": "players",
    }
    return render(request, "organiser/player_link.html", context)
