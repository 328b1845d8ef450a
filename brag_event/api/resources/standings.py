"""An event's public standings (overall, or of one day)."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.decorators import method_decorator
from django.views.decorators.gzip import gzip_page
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.request import Request
from rest_framework.views import APIView

from brag_event.core.errors import ServiceError
from brag_event.events.models import Event
from brag_event.players.selectors import current_day
from brag_event.standings.results import since_close, standings_marked
from brag_event.tables.versions import standings_version

from .common import IF_NONE_MATCH, NOT_MODIFIED, json_answer, nullable_int
from .fields import WholeNumberField

# ------------------------------------------------------------------ inputs


class StandingsQueryIn(serializers.Serializer):
    day = WholeNumberField(
        required=False, min_value=1, max_value=1000, help_text="A day's number: that day's figures"
    )


# ------------------------------------------------------------------ answers


class StandingOut(serializers.Serializer):
    rank = nullable_int(help_text="None for a disqualified player (outside the ranking)")
    player = serializers.IntegerField()
    name = serializers.CharField()
    balance = serializers.IntegerField()
    stack = serializers.IntegerField()
    table = nullable_int(help_text="The table number where the player sits")
    total = serializers.IntegerField()
    change = serializers.IntegerField(help_text="Since the start of the day")
    hands_played = serializers.IntegerField()
    hands_won = serializers.IntegerField()
    disqualified = serializers.BooleanField(
        help_text="Disqualified (RULES §4b): listed last, outside the ranking"
    )
    standing = serializers.ChoiceField(
        choices=["qualified", "in", "out", "disqualified"],
        help_text="qualified: for the next day by the close of the day shown; in: plays the "
        "day shown, not yet cut; out: missed a cut or withdrew; disqualified",
    )
    note = serializers.CharField(
        help_text="The standing in words, e.g. 'qualified for day 2' ('' if in)"
    )


class CutOut(serializers.Serializer):
    after = serializers.IntegerField(
        help_text="How many rows (in the order given) lie above the cut"
    )
    text = serializers.CharField(help_text="The cut in words")


class SinceCloseOut(serializers.Serializer):
    player = serializers.IntegerField()
    name = serializers.CharField()
    text = serializers.CharField(help_text="The decision in words, e.g. 'let back in for day 2'")


class StandingsOut(serializers.Serializer):
    event = serializers.IntegerField()
    name = serializers.CharField()
    currency = serializers.CharField()
    day = nullable_int()
    scope = serializers.ChoiceField(choices=["day", "event"])
    standings = StandingOut(many=True)
    cut = CutOut(
        allow_null=True,
        help_text="Where the cut line falls (the close's, or where it would fall if the day "
        "closed now); null on the last day",
    )
    since_close = SinceCloseOut(
        many=True,
        help_text="A closed day's standings never change: the organiser's decisions since its "
        "close (players let back in for the next day) are listed here, beside them",
    )


# ------------------------------------------------------------------ views


# Compressed here for nginx's copy of the public reads (see public.views.standings_page).
@method_decorator(gzip_page, name="dispatch")
class EventStandings(APIView):
    permission_classes = [permissions.AllowAny]
    authentication_classes: list[Any] = []

    @extend_schema(
        responses={200: StandingsOut, 304: NOT_MODIFIED},
        summary="Public standings: balance plus table stack (a hand in play counts when it "
        "ends), change today, hands played and won (overall, or of one day with ?day=N)",
        parameters=[StandingsQueryIn, IF_NONE_MATCH],
    )
    def get(self, request: Request, event_id: int) -> HttpResponse:
        query = StandingsQueryIn(data=request.query_params)
        if not query.is_valid():
            raise ServiceError(
                "invalid_day",
                "day is a day's number, e.g. ?day=1",
                details={"field": "day", "fields": query.errors},
            )
        number: int | None = query.validated_data.get("day")
        version = standings_version(event_id)  # first: what follows is at least this new
        if version is None:
            raise Http404

        def data() -> dict[str, Any]:
            event = get_object_or_404(Event, pk=event_id)
            day = get_object_or_404(event.days, number=number) if number is not None else None
            current = day or current_day(event)
            rows, cut = standings_marked(event, day)
            return {
                "event": event.pk,
                "name": event.name,
                "currency": event.currency,
                "day": current.number if current else None,
                "scope": "day" if day else "event",
                "standings": rows,
                "cut": cut,
                "since_close": since_close(day) if day else [],
            }

        return json_answer(
            request,
            key=f"standings-{event_id}" + (f"-day{number}" if number is not None else ""),
            version="{}.{}".format(*version),
            data=data,
            private=False,
        )
