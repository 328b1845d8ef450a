"""Input shapes (validated by DRF, documented in the OpenAPI schema)."""

from __future__ import annotations

import copy
from typing import Any

from rest_framework import serializers

from brag_event.engine import ACTIONS


class FlatSerializer(serializers.Serializer):
    """For flat input shapes (plain fields, nothing nested): DRF deep-copies every declared
    field — re-running each field's constructor — whenever a serializer is made, a large part
    of a tablet action's CPU. A shallow copy per field gives the same validation."""

    def get_fields(self) -> dict[str, Any]:
        return {name: copy.copy(field) for name, field in self._declared_fields.items()}


class ActionIn(FlatSerializer):
    expected_seq = serializers.IntegerField(
        min_value=1, help_text="The sequence number this action is expected to get"
    )
    action = serializers.ChoiceField(choices=[a for a in ACTIONS if a != "show"])
    seat = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=10)
    amount = serializers.IntegerField(required=False, allow_null=True, min_value=0)
    hand = serializers.ChoiceField(choices=["old", "new"], required=False, allow_null=True)


class CardsIn(FlatSerializer):
    expected_seq = serializers.IntegerField(min_value=1)
    seat = serializers.IntegerField(min_value=1, max_value=10)
    cards = serializers.CharField(max_length=40, help_text="e.g. 'As 10d 3c'")


class VoidIn(serializers.Serializer):
    expected_seq = serializers.IntegerField(min_value=1, required=False)
    reason = serializers.CharField(max_length=200)


class BuyInIn(serializers.Serializer):
    seat = serializers.IntegerField(min_value=1, max_value=10)
    player = serializers.IntegerField(min_value=1, help_text="Player id")
    amount = serializers.IntegerField(min_value=0, max_value=10**9)


class RebuyIn(serializers.Serializer):
    consenting = serializers.ListField(
        child=serializers.IntegerField(min_value=1),
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
    user = serializers.IntegerField(min_value=1, help_text="The user the device acts as")
    name = serializers.CharField(max_length=80)
