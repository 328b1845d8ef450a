"""An event's ledger transfers (organisers)."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from brag_event.events.models import Event
from brag_event.ledger.models import Transfer

from ..permissions import Can
from .common import PAGE_PARAMETERS, nullable_int, page_of, paged

# ------------------------------------------------------------------ answers


class TransferOut(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=Transfer.Kind.choices)
    amount = serializers.IntegerField()
    source = serializers.IntegerField()  # type: ignore[assignment]  # a field, not Field.source
    target = serializers.IntegerField()
    hand = nullable_int()
    action = nullable_int()
    reverses = nullable_int()
    memo = serializers.CharField(allow_blank=True)
    at = serializers.DateTimeField()


TransferPage = page_of(TransferOut, "TransferPage")


# ------------------------------------------------------------------ views


class EventLedger(APIView):
    permission_classes = [Can("ledger.read")]

    @extend_schema(
        responses={200: TransferPage},
        parameters=PAGE_PARAMETERS,
        summary="Ledger transfers (organisers)",
    )
    def get(self, request: Request, event_id: int) -> Response:
        event = get_object_or_404(Event, pk=event_id)
        rows = Transfer.objects.filter(event=event).order_by("id")

        def shape(t: Transfer) -> dict[str, Any]:
            return {
                "id": t.pk,
                "kind": t.kind,
                "amount": t.amount,
                "source": t.source_id,
                "target": t.target_id,
                "hand": t.hand_id,
                "action": t.action_id,
                "reverses": t.reverses_id,
                "memo": t.memo,
                "at": t.created_at.isoformat(),
            }

        return paged(request, self, rows, shape)
