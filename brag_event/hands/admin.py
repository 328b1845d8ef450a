"""Hands, their action logs and voids: read-only in the admin (append-only records; the
dealer's tablet and the API play hands through the hand services)."""

from __future__ import annotations

from django.contrib import admin

from brag_event.core.admin import ReadOnlyAdmin, ReadOnlyTabularInline

from .models import ENTRY_FIELDS, ActionVoid, Hand, HandAction

# An action in a row (the inline under its hand, and the actions' own list).
ACTION_COLUMNS = (*ENTRY_FIELDS, "voided", "entered_by", "device", "entered_at")


class HandActionInline(ReadOnlyTabularInline):
    model = HandAction
    fields = ACTION_COLUMNS
    readonly_fields = fields
    ordering = ("seq",)

    @admin.display(description="voided", boolean=True)
    def voided(self, obj: HandAction) -> bool:
        return hasattr(obj, "void")


@admin.register(Hand)
class HandAdmin(ReadOnlyAdmin):
    list_display = (
        "__str__",
        "table",
        "number",
        "status",
        "dealer_seat",
        "carried_pot",
        "next_seq",
        "started_by",
        "started_at",
        "settled_at",
    )
    list_filter = ("status", "table__day__event", "table__day", "table")
    list_select_related = ("table__day__event", "started_by")
    inlines = (HandActionInline,)


@admin.register(HandAction)
class HandActionAdmin(ReadOnlyAdmin):
    list_display = ("hand", *ACTION_COLUMNS)
    list_filter = ("action", "hand__table__day")
    list_select_related = ("hand__table", "entered_by", "void")
    search_fields = ("device", "cards")

    @admin.display(description="voided", boolean=True)
    def voided(self, obj: HandAction) -> bool:
        return hasattr(obj, "void")


@admin.register(ActionVoid)
class ActionVoidAdmin(ReadOnlyAdmin):
    list_display = ("action", "hand", "reason", "voided_by", "voided_at")
    list_select_related = ("action__hand__table", "voided_by")
    search_fields = ("reason",)

    @admin.display(description="hand")
    def hand(self, obj: ActionVoid) -> str:
        return str(obj.action.hand)
