"""The organisers' audit log page: everything that happened in an event, filtered by table,
player, actor and kind, a page at a time. Thin: the query form, the selector, the template."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django import forms
from django.conf import settings
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from brag_event.access.scoping import EventScopedChoiceField
from brag_event.audit.models import Verb
from brag_event.audit.selectors import audit_actors, audit_entries
from brag_event.core.forms import WholeNumberField, bad_request, takes
from brag_event.events.models import Event
from brag_event.players.models import Player
from brag_event.players.selectors import event_names_shown
from brag_event.tables.models import Table

from .audit_words import Names, audit_sentence
from .views import organiser_only

PER_PAGE = 50


class TableChoiceField(EventScopedChoiceField):
    def label_from_instance(self, obj: Any) -> str:
        return f"day {obj.day.number}, table {obj.number}"


class AuditLogQuery(forms.Form):
    """``?table=&player=&actor=&verb=&page=``: every filter is optional."""

    table = TableChoiceField(
        model="tables.Table", label="Table", required=False, empty_label="any table"
    )
    player = EventScopedChoiceField(
        model="players.Player", label="Player", required=False, empty_label="anyone"
    )
    actor = EventScopedChoiceField(
        model=settings.AUTH_USER_MODEL, label="Done by", required=False, empty_label="anybody"
    )
    verb = forms.ChoiceField(
        label="What", choices=[("", "anything"), *Verb.choices], required=False
    )
    page = WholeNumberField(min_value=1, max_value=1_000_000, required=False)

    def __init__(self, *args: Any, event: Event, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        tables = Table.objects.select_related("day").order_by("day__number", "number")
        self.fields["table"].scope(event, among=tables)  # type: ignore[attr-defined]
        self.fields["player"].scope(event, among=Player.objects.order_by("name", "pk"))  # type: ignore[attr-defined]
        # Two Harvey Prices told apart by their numbers; a player removed as registered by
        # mistake said so (their name may be someone else's now).
        shown = event_names_shown(event.pk)
        self.fields["player"].label_from_instance = lambda p: (  # type: ignore[attr-defined]
            f"{p.name} (removed)" if p.removed_at else shown.get(p.pk, p.name)
        )
        self.fields["actor"].scope(event, among=audit_actors(event_id=event.pk))  # type: ignore[attr-defined]


@takes(query=AuditLogQuery)
@organiser_only
def audit_log(request: HttpRequest, event_id: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=event_id)
    query = AuditLogQuery(request.GET, event=event)
    if not query.is_valid():
        return bad_request(request, query)
    given = query.cleaned_data
    entries = audit_entries(
        event_id=event.pk,
        table_id=given["table"].pk if given["table"] else None,
        player_id=given["player"].pk if given["player"] else None,
        actor_id=given["actor"].pk if given["actor"] else None,
        verb=given["verb"] or None,
    )
    page = Paginator(entries, PER_PAGE).get_page(given["page"] or 1)
    names = Names(page.object_list)
    rows = [(entry, audit_sentence(entry, names)) for entry in page.object_list]
    # The filters as they were chosen, for the pages' links (each link changes only the page).
    filters = {
        name: getattr(value, "pk", value)
        for name, value in given.items()
        if name != "page" and value
    }
    context = {
        "event": event,
        "form": query,
        "page": page,
        "rows": rows,
        "filters": urlencode(filters),
        "verbs": dict(Verb.choices),
    }
    return render(request, "organiser/audit.html", context)
