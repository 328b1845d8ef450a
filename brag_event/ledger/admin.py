"""The ledger: read-only in the admin. Money moves only through the services, which post
transfers; nothing here writes a ledger row."""

from __future__ import annotations

from django.contrib import admin
from django.db.models import BigIntegerField, OuterRef, QuerySet, Subquery, Sum, Value
from django.db.models.functions import Coalesce
from django.http import HttpRequest

from brag_event.core.admin import ReadOnlyAdmin

from .models import Account, Transfer

# Related rows the accounts' names are made of (``Account.__str__``).
_ACCOUNT_NAME = (
    "event",
    "player",
    "seat__player",
    "seat__table",
    "table__day__event",
    "hand__table",
)


def _total(direction: str) -> Subquery:
    """Sum of the transfers into (``target``) or out of (``source``) the outer account."""
    rows = (
        Transfer.objects.filter(**{direction: OuterRef("pk")})
        .order_by()
        .values(direction)
        .annotate(total=Sum("amount"))
        .values("total")
    )
    return Subquery(rows, output_field=BigIntegerField())


@admin.register(Account)
class AccountAdmin(ReadOnlyAdmin):
    list_display = ("__str__", "kind", "event", "ledger_balance")
    list_filter = ("kind", "event")
    list_select_related = _ACCOUNT_NAME
    search_fields = ("player__name", "seat__player__name")

    def get_queryset(self, request: HttpRequest) -> QuerySet[Account]:
        return (
            super()
            .get_queryset(request)
            .annotate(
                money_in=Coalesce(_total("target"), Value(0), output_field=BigIntegerField()),
                money_out=Coalesce(_total("source"), Value(0), output_field=BigIntegerField()),
            )
        )

    @admin.display(description="balance (from the ledger)")
    def ledger_balance(self, obj: Account) -> int:
        return int(getattr(obj, "money_in", 0)) - int(getattr(obj, "money_out", 0))


@admin.register(Transfer)
class TransferAdmin(ReadOnlyAdmin):
    list_display = (
        "id",
        "kind",
        "amount",
        "source",
        "target",
        "hand",
        "created_at",
        "created_by",
        "memo",
    )
    list_filter = ("kind", "event")
    list_select_related = (
        *(f"source__{name}" for name in _ACCOUNT_NAME),
        *(f"target__{name}" for name in _ACCOUNT_NAME),
        "hand__table",
        "created_by",
    )
    search_fields = ("memo", "source__player__name", "target__player__name")
