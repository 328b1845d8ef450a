"""The results exchange file in the console (docs/results-exchange.md): an event's file,
downloaded from its final results once its last day has closed, and a file imported as a past
event by organisers of every event. Thin: the export is a selector, the import a service
whose refusal (in words) is shown on the form."""

from __future__ import annotations

import json

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render

from brag_event.access.web import requires
from brag_event.closing.exchange.document import event_results_document
from brag_event.closing.exchange.services import (
    MAX_BYTES,
    document_from_file,
    event_import_results,
)
from brag_event.core.errors import ServiceError
from brag_event.core.forms import takes
from brag_event.events.models import Event

from .access import organiser_only
from .forms import ResultsImportForm, service_error_on
from .views import actor

importers_only = requires("event.create", allowed="organisers of every event")


def exchange_file_name(event: Event) -> str:
    return f"results-{event.pk}-{event.uid.hex[:8]}.json"


@takes()
@organiser_only
def results_exchange(request: HttpRequest, event_id: int) -> HttpResponse:
    """The event's results exchange file (JSON), once its last day has closed; before, back to
    the final results page, which says why."""
    event = get_object_or_404(Event, pk=event_id)
    try:
        document = event_results_document(event)
    except ServiceError as err:
        messages.error(request, err.message)
        return redirect("organiser:results_event", event.pk)
    body = json.dumps(document, ensure_ascii=False, indent=2) + "\n"
    response = HttpResponse(body.encode("utf-8"), content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{exchange_file_name(event)}"'
    return response


@takes(post=ResultsImportForm)
@importers_only
def results_import(request: HttpRequest) -> HttpResponse:
    """Import a results file as a past event: its final results page follows."""
    form = ResultsImportForm()
    status = 200
    if request.method == "POST":
        form = ResultsImportForm(request.POST, request.FILES)
        status = 400
        if form.is_valid():
            try:
                made = event_import_results(
                    document=document_from_file(form.cleaned_data["data"]),
                    by=actor(request),
                    file_name=form.cleaned_data["file_name"],
                )
            except ServiceError as err:
                service_error_on(form, err)
                status = err.status if err.status < 500 else 400
            else:
                messages.success(request, made.summary)
                return redirect("organiser:results_event", made.event.pk)
    context = {"form": form, "max_mb": MAX_BYTES // (1024 * 1024)}
    return render(request, "organiser/results_import.html", context, status=status)
