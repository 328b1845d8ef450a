"""The results exchange file in the API (docs/results-exchange.md): an event's file for its
organisers, and a file imported as a past event by organisers of every event. Thin views: the
export is a selector (``closing.exchange.document``), the import a service
(``closing.exchange.services``) that reads the document leniently and refuses in words."""

from __future__ import annotations

from django.conf import settings
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from brag_event.closing.exchange.document import FORMAT, event_results_document
from brag_event.closing.exchange.reader import whole_or_long
from brag_event.closing.exchange.services import MAX_BYTES, event_import_results
from brag_event.events.models import Event

from ..idempotency import idempotent
from ..parsers import LimitedJSONParser
from ..permissions import Can
from .common import ErrorOut, actor

S = serializers

ABOUT = (
    f"A results exchange file ({FORMAT}): the event, its people (membership number, name, "
    "club; never contact details), its days with their rules, results, field and published "
    "roots, and the floor's rulings that gave penalties. Every field is described by the JSON "
    "Schema docs/results-exchange.schema.json; docs/results-exchange.md says what each means. "
    "A reader ignores fields it does not know."
)


class ResultsDocument(S.Serializer):
    format = S.CharField(help_text=f"Always {FORMAT}")
    exported_at = S.DateTimeField(required=False)
    source = S.DictField(  # type: ignore[assignment]  # the document's field, not DRF's
        required=False, help_text="software, site, imported_from"
    )
    event = S.DictField(help_text="uid, name, currency, time_zone, starting_money")
    people = S.ListField(child=S.DictField(), help_text="number, uid, name, club, group, withdrawn")
    days = S.ListField(
        child=S.DictField(),
        help_text="number, date, closed_at, rules, qualification, root, field, results",
    )
    rulings = S.ListField(
        child=S.DictField(),
        required=False,
        help_text="at, what_happened, decision, penalties (number, day, kind, hands, lifted)",
    )

    class Meta:
        ref_name = "ResultsDocument"


ResultsDocument.__doc__ = ABOUT


class ResultsImportedOut(S.Serializer):
    event = S.IntegerField(help_text="The past event made here")
    name = S.CharField()
    days = S.IntegerField()
    people_new = S.ListField(child=S.IntegerField(), help_text="Membership numbers new here")
    people_known = S.ListField(
        child=S.IntegerField(), help_text="Membership numbers of people registered here already"
    )
    renumbered = S.DictField(
        child=S.IntegerField(),
        help_text="New people whose number in the file is someone else's here: the file's "
        "number → the number given here (numbers are each installation's labels; the file's "
        "uid says who a person is)",
    )
    message = S.CharField(help_text="What was imported, in words")


class EventResultsExchange(APIView):
    permission_classes = [Can("results.exchange")]

    @extend_schema(
        responses={
            200: ResultsDocument,
            409: OpenApiResponse(
                ErrorOut,
                description="A day of the event has not closed yet (exchange_not_finished)",
            ),
        },
        summary="The event's results exchange file (once its last day has closed)",
        description=ABOUT,
    )
    def get(self, request: Request, event_id: int) -> Response:
        event = get_object_or_404(Event, pk=event_id)
        return Response(event_results_document(event))


class ResultsFileParser(LimitedJSONParser):
    """A results file as the body (an event of 300 players over three days is over 100 KB;
    every other body of the API stays under its 64 KB): up to the file's own limit, and within
    Django's limit on a request's body (``DATA_UPLOAD_MAX_MEMORY_SIZE``, 2.5 MB), which a body
    read in full meets first. The console's upload takes files up to the 4 MB."""

    def limit(self) -> int:
        return min(MAX_BYTES, int(settings.DATA_UPLOAD_MAX_MEMORY_SIZE))

    # Whole numbers read as the console and the command read a file's: a 5,001-digit number
    # refused where it stands, in words, not as JSON the API cannot parse.
    parse_int = staticmethod(whole_or_long)


class ResultsExchangeImport(APIView):
    permission_classes = [
        Can("event.create", "Only organisers of every event import a past event.")
    ]
    parser_classes = [ResultsFileParser]

    @extend_schema(
        request=ResultsDocument,
        responses={201: ResultsImportedOut},
        summary="Import a results exchange file as a past event",
        description="The body is the file's JSON document. It is read leniently (fields not "
        "known are ignored; missing optional ones take their defaults); every refusal is an "
        "exchange_… code with a sentence and details.at, the place in the document (a JSON "
        "pointer), and changes nothing.",
    )
    @idempotent
    def post(self, request: Request) -> Response:
        made = event_import_results(document=request.data, by=actor(request))
        return Response(
            {
                "event": made.event.pk,
                "name": made.event.name,
                "days": made.event.days.count(),
                "people_new": made.people_new,
                "people_known": made.people_known,
                "renumbered": {str(a): b for a, b in made.renumbered.items()},
                "message": made.summary,
            },
            status=201,
        )
