"""Input shapes (parsed by DRF, documented in the OpenAPI schema). Shapes only: whether an
action, an amount or a seat is allowed is the engine's and the services' to say."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from brag_event.audit.models import Verb
from brag_event.engine import ACTIONS, MONEY_MAX


class WholeNumberField(serializers.IntegerField):
    """A whole number: a JSON integer, or a string of the digits 0–9 (DRF's own field also takes
    "²", "١٢", "1_000" and 7.0)."""

    default_error_messages = {"invalid": "A whole number is required (digits 0–9)."}

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, bool) or not isinstance(data, int | str):
            self.fail("invalid")
        if isinstance(data, str):
            text = data.strip()
            if not (text.isascii() and text.isdigit()) or len(text) > 30:
                self.fail("invalid")
            data = int(text)
        return int(super().to_internal_value(data))


@extend_schema_field({"type": "string", "enum": [a for a in ACTIONS if a != "show"]})
class ActionNameField(serializers.CharField):
    """An action's name: a string here; whether it names an action is the engine's to say."""


class ActionIn(serializers.Serializer):
    """The shape of an action. Everything else — the name, the seat, the amount, whether it is
    legal now — is the engine's to check (``HandState.apply``), once, with its coded errors."""

    expected_seq = WholeNumberField(
        min_value=1, help_text="The sequence number this action is expected to get"
    )
    action = ActionNameField(max_length=20)
    seat = WholeNumberField(required=False, allow_null=True, help_text="Not for showdown")
    amount = WholeNumberField(
        required=False, allow_null=True, help_text="What the player pays now (bet, see, cover)"
    )
    hand = serializers.CharField(
        required=False, allow_null=True, max_length=10, help_text="old or new (blind hands)"
    )


class CardsIn(serializers.Serializer):
    expected_seq = WholeNumberField(min_value=1)
    seat = WholeNumberField()
    cards = serializers.CharField(max_length=40, help_text="e.g. 'As 10d 3c'")


class VoidIn(serializers.Serializer):
    expected_seq = WholeNumberField(min_value=1, required=False)
    reason = serializers.CharField(max_length=200)


class TakeBackIn(serializers.Serializer):
    expected_seq = WholeNumberField(
        min_value=1,
        required=False,
        help_text="The hand's next sequence number as the tablet saw it",
    )
    reason = serializers.CharField(
        max_length=20,
        help_text="Why the dealer takes the entry back: wrong_seat, wrong_amount, wrong_action "
        "or other",
    )


class BuyInIn(serializers.Serializer):
    seat = WholeNumberField(min_value=1, max_value=10)
    player = WholeNumberField(min_value=1, help_text="Player id")
    amount = WholeNumberField(min_value=0, max_value=MONEY_MAX)


class RebuyIn(serializers.Serializer):
    consenting = serializers.ListField(
        child=WholeNumberField(min_value=1),
        allow_empty=True,
        max_length=20,
        help_text="Ids of the other seated players who agree",
    )


class SitOutIn(serializers.Serializer):
    sitting_out = serializers.BooleanField()


class LoginIn(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=200, trim_whitespace=False)


class TokenIn(serializers.Serializer):
    user = WholeNumberField(min_value=1, help_text="The user the device acts as")
    name = serializers.CharField(max_length=80)


class StandingsQueryIn(serializers.Serializer):
    day = WholeNumberField(
        required=False, min_value=1, max_value=1000, help_text="A day's number: that day's figures"
    )


class AuditQueryIn(serializers.Serializer):
    """``?table=&player=&actor=&verb=``, as on the organisers' audit page: every filter optional."""

    table = WholeNumberField(required=False, min_value=1, help_text="A table's id: its entries")
    player = WholeNumberField(required=False, min_value=1, help_text="A player's id")
    actor = WholeNumberField(required=False, min_value=1, help_text="The id of the user who did it")
    verb = serializers.ChoiceField(
        choices=Verb.choices, required=False, help_text="The kind of change"
    )
