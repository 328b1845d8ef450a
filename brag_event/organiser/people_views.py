"""People in the console: the list (find by name or membership number) and a person's page —
their details and contact (organisers of every event only: ``people.manage``), every event
they were entered in with its days and results, correcting the details, and merging a
duplicate into them (asked once). Thin: parse a form, call a service, render."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render

from brag_event.access.web import requires
from brag_event.core.errors import ServiceError
from brag_event.core.forms import bad_request, posted_form, takes
from brag_event.players.models import Person
from brag_event.players.people import (
    people_search,
    person_by_number,
    person_described,
    person_merge,
    person_update,
)
from brag_event.standings.selectors import person_history

from .forms import PeopleSearchQuery, PersonEditForm, PersonMergeForm, service_error_on
from .views import actor

people_only = requires("people.manage", allowed="organisers of every event")

PEOPLE_SHOWN = 200


@takes(query=PeopleSearchQuery)
@people_only
def people(request: HttpRequest) -> HttpResponse:
    query = PeopleSearchQuery(request.GET)
    if not query.is_valid():
        return bad_request(request, query)
    text = query.cleaned_data["q"]
    found = people_search(text=text)
    count = found.count()
    context = {
        "query": query,
        "searched": text,
        "people": found.prefetch_related("entries__event")[:PEOPLE_SHOWN],
        "count": count,
        "shown_max": PEOPLE_SHOWN,
        "tab": "people",
    }
    return render(request, "organiser/people.html", context)


PERSON_FORMS: dict[str, type[forms.Form]] = {"edit": PersonEditForm, "merge": PersonMergeForm}


@takes(post=PERSON_FORMS)
@people_only
def person(request: HttpRequest, person_id: int) -> HttpResponse:
    found = get_object_or_404(Person, pk=person_id)
    if found.merged_into_id is not None:
        kept = person_by_number(found.number)
        if kept is not None:
            messages.info(request, f"No. {found.number} was merged into {person_described(kept)}.")
            return redirect("organiser:person", kept.pk)
    shown: dict[str, forms.BaseForm] = {
        "edit": PersonEditForm(
            initial={
                "name": found.name,
                "club": found.club,
                "email": found.email,
                "phone": found.phone,
            }
        ),
        "merge": PersonMergeForm(),
    }
    duplicate: Person | None = None
    status = 200
    if request.method == "POST":
        which = posted_form(request, PERSON_FORMS)
        if which is None:
            return bad_request(request)
        form = PERSON_FORMS[which](request.POST)
        shown[which] = form
        status = 400
        if form.is_valid():
            data = form.cleaned_data
            try:
                if which == "edit":
                    person_update(
                        person=found,
                        name=data["name"],
                        club=data["club"],
                        email=data["email"],
                        phone=data["phone"],
                        by=actor(request),
                    )
                    messages.success(request, "Details saved.")
                    return redirect("organiser:person", found.pk)
                duplicate = person_by_number(data["number"])
                if duplicate is None:
                    form.add_error("number", f"No person has membership number {data['number']}.")
                elif duplicate.pk == found.pk:
                    form.add_error("number", "That is this person's own number.")
                elif data["confirm"]:
                    person_merge(keep=found, remove=duplicate, by=actor(request))
                    messages.success(
                        request,
                        f"{person_described(duplicate)} merged into {person_described(found)}: "
                        "their events are listed here.",
                    )
                    return redirect("organiser:person", found.pk)
                else:
                    status = 200  # asks once: what the merge will do
            except ServiceError as err:
                service_error_on(form, err)
                duplicate = None
    history = person_history(found)
    context = {
        "person": found,
        "history": history,
        # Events, not entries: an entry removed as registered by mistake is listed but counts
        # no event (after a merge, one event may hold the removed entry and the one kept).
        "events_count": len({e["event"] for e in history if not e["removed"]}),
        "forms": shown,
        "duplicate": duplicate,
        "duplicate_history": person_history(duplicate) if duplicate is not None else [],
        "merged": Person.objects.filter(merged_into=found).order_by("number"),
        "tab": "people",
    }
    return render(request, "organiser/person.html", context, status=status)
