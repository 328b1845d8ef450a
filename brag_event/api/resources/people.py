"""People in the API (players/people.py): registering a player into an event — asking, as the
console does, about returning people and look-alike names — and a person's page (their
events, days and results, and their contact details: organisers of every event only). Thin
views: parse (a serializer), call a service or a selector, present."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from brag_event.events.models import Event
from brag_event.players.models import CLUB_MAX, Person
from brag_event.players.names import GROUP_TOO_LONG, NAME_MAX, NAME_TOO_LONG
from brag_event.players.people import NUMBER_MAX, person_by_number
from brag_event.players.services import player_register
from brag_event.standings.selectors import person_history

from ..idempotency import idempotent
from ..permissions import Can
from .common import actor, valid
from .fields import WholeNumberField

S = serializers

# ------------------------------------------------------------------ inputs


class PlayerRegisterIn(S.Serializer):
    name = S.CharField(max_length=NAME_MAX * 3, error_messages={"max_length": NAME_TOO_LONG})
    starting_money = WholeNumberField(
        min_value=0, required=False, help_text="Omitted: the event's starting money"
    )
    number = WholeNumberField(
        min_value=1,
        max_value=NUMBER_MAX,
        required=False,
        help_text="A returning person's membership number, or a new person's; omitted: given",
    )
    club = S.CharField(
        max_length=CLUB_MAX,
        required=False,
        allow_blank=True,
        default="",
        error_messages={"max_length": GROUP_TOO_LONG},
    )
    person = WholeNumberField(
        min_value=1, required=False, help_text="The returning person (their id) this is"
    )
    someone_new = S.BooleanField(
        default=False,
        help_text="Registered people's names look the same, and this is someone new",
    )
    look_alike_confirmed = S.BooleanField(
        default=False,
        help_text="A player of the event has a name that looks the same, and this is another "
        "person (recorded in the audit log)",
    )


# ------------------------------------------------------------------ answers


class PersonRefOut(S.Serializer):
    id = S.IntegerField()
    number = S.IntegerField(help_text="Membership number")
    club = S.CharField()


class PlayerRegisteredOut(S.Serializer):
    id = S.IntegerField()
    name = S.CharField()
    balance = S.IntegerField()
    look_alike_confirmed = S.BooleanField()
    person = PersonRefOut()


class PersonDayOut(S.Serializer):
    day = S.IntegerField()
    date = S.DateField(allow_null=True)
    status = S.CharField()
    closed = S.BooleanField()
    rank = S.IntegerField(allow_null=True)
    total = S.IntegerField(allow_null=True)
    change = S.IntegerField(allow_null=True)
    hands_played = S.IntegerField(allow_null=True)
    qualified_next = S.BooleanField(allow_null=True)


class PersonEventOut(S.Serializer):
    player = S.IntegerField()
    event = S.IntegerField()
    event_name = S.CharField()
    currency = S.CharField()
    name = S.CharField(help_text="The name the event registered")
    registered_at = S.DateTimeField()
    money = S.IntegerField(allow_null=True, help_text="Balance plus table stacks now")
    rank = S.IntegerField(allow_null=True)
    withdrawn = S.BooleanField()
    removed = S.BooleanField()
    days = PersonDayOut(many=True)


class PersonOut(S.Serializer):
    id = S.IntegerField()
    name = S.CharField()
    number = S.IntegerField()
    club = S.CharField()
    email = S.CharField(help_text="Organisers only")
    phone = S.CharField(help_text="Organisers only")
    events = PersonEventOut(many=True)


# ------------------------------------------------------------------ views


class EventPlayers(APIView):
    permission_classes = [Can("players.register")]

    @extend_schema(
        request=PlayerRegisterIn,
        responses={201: PlayerRegisteredOut},
        summary="Register a player (a new or returning person) into the event",
    )
    @idempotent
    def post(self, request: Request, event_id: int) -> Response:
        event = get_object_or_404(Event, pk=event_id)
        data = valid(PlayerRegisterIn, request)
        person = None
        if data.get("person") is not None:
            person = get_object_or_404(Person, pk=data["person"])
            person = person_by_number(person.number)  # merged: the person kept
        player = player_register(
            event=event,
            name=data["name"],
            starting_money=data.get("starting_money"),
            person=person,
            number=data.get("number"),
            club=data["club"],
            ask_returning=not data["someone_new"],
            look_alike_confirmed=data["look_alike_confirmed"],
            by=actor(request),
        )
        return Response(
            {
                "id": player.pk,
                "name": player.name,
                "balance": player.balance,
                "look_alike_confirmed": player.look_alike_confirmed,
                "person": {
                    "id": player.person_id,
                    "number": player.person.number,
                    "club": player.person.club,
                },
            },
            status=201,
        )


class PersonDetail(APIView):
    permission_classes = [
        Can("people.manage", "Only organisers of every event see people's pages.")
    ]

    @extend_schema(responses={200: PersonOut}, summary="A person: events, days and results")
    def get(self, request: Request, person_id: int) -> Response:
        found = get_object_or_404(Person, pk=person_id)
        kept = person_by_number(found.number) or found
        events = [
            {
                **e,
                "registered_at": e["registered_at"].isoformat(),
                "days": [
                    {**d, "date": d["date"].isoformat() if d["date"] else None} for d in e["days"]
                ],
            }
            for e in person_history(kept)
        ]
        return Response(
            {
                "id": kept.pk,
                "name": kept.name,
                "number": kept.number,
                "club": kept.club,
                "email": kept.email,
                "phone": kept.phone,
                "events": events,
            }
        )
