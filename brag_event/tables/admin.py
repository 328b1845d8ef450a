"""Organisers' admin for tables, seats and re-buy consents.

Tables are created through ``table_create``; afterwards only their dealers are edited here (the
button, shuffle and carried pot belong to the hands). Seats hold money, so they are never created
or edited here: a buy-in (``seat_buy_in``, from the dealer's tablet or the API) creates a seat and
moves the money. Sitting out and leaving go through their services."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import Count, Q, QuerySet
from django.http import HttpRequest, HttpResponse

from brag_event.audit.models import Verb
from brag_event.audit.services import audit_record
from brag_event.core.admin import (
    ReadOnlyAdmin,
    ReadOnlyTabularInline,
    ServiceErrorsMixin,
    admin_actor,
)
from brag_event.core.errors import ServiceError
from brag_event.events.states import refuse_unless_open

from . import versions
from .models import RebuyConsent, Seat, Table
from .services import seat_leave, seat_sit_out, table_create

SEATS_HELP = (
    "Seats are created by a buy-in (the seat_buy_in service, used by the dealer's tablet and the "
    "API): it checks the day's table minimum and maximum, takes the house fee and moves the money "
    "from the player's balance through the ledger. They cannot be added or edited here; use the "
    "action below to let a player leave (the stack goes back to their balance)."
)


class TableForm(forms.ModelForm):
    class Meta:
        model = Table
        fields = ("day", "number", "dealers")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        number = self.fields.get("number")
        if number is not None:
            number.required = False
            number.help_text = "Leave empty for the next free number of the day."

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        day = cleaned.get("day")
        if "day" in self.fields and day is not None:
            try:
                refuse_unless_open(day, "new tables")
            except ServiceError as err:
                self.add_error("day", err.message)
        return cleaned


class SeatInline(ReadOnlyTabularInline):
    model = Seat
    fields = ("number", "player", "stack", "buy_in", "sitting_out", "joined_at", "left_at")
    readonly_fields = fields
    ordering = ("left_at", "number")


@admin.register(Table)
class TableAdmin(ServiceErrorsMixin, admin.ModelAdmin):
    form = TableForm
    list_display = (
        "__str__",
        "number",
        "day",
        "seated",
        "button",
        "shuffle_next",
        "carried_pot",
        "carried_seat",
    )
    list_filter = ("day__event", "day")
    list_select_related = ("day__event",)
    filter_horizontal = ("dealers",)
    inlines = (SeatInline,)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Table]:
        return (
            super()
            .get_queryset(request)
            .annotate(n_seated=Count("seats", filter=Q(seats__left_at__isnull=True)))
        )

    @admin.display(description="seated", ordering="n_seated")
    def seated(self, obj: Table) -> int:
        return int(getattr(obj, "n_seated", 0))

    def get_fields(self, request: HttpRequest, obj: Table | None = None) -> Any:
        if obj is None:
            return ("day", "number", "dealers")
        return (
            "day",
            "number",
            "dealers",
            "button",
            "shuffle_next",
            "carried_pot",
            "carried_seat",
            "created_at",
        )

    def get_readonly_fields(self, request: HttpRequest, obj: Table | None = None) -> Any:
        if obj is None:
            return ()
        # Kept by the hands and the ledger: read-only. Only the dealers are edited here.
        return (
            "day",
            "number",
            "button",
            "shuffle_next",
            "carried_pot",
            "carried_seat",
            "created_at",
        )

    def save_model(self, request: HttpRequest, obj: Table, form: Any, change: bool) -> None:
        if change:
            return  # only the dealers (many-to-many) are editable: saved by save_related
        table = table_create(
            day=form.cleaned_data["day"],
            number=form.cleaned_data.get("number"),
            by=admin_actor(request),
        )
        # The admin goes on with ``obj`` (dealers, messages, redirect): make it the new row.
        obj.pk = table.pk
        obj.number = table.number
        obj.created_at = table.created_at
        obj._state.adding = False
        obj._state.db = table._state.db

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        super().save_related(request, form, formsets, change)
        if "dealers" in form.changed_data:
            table = form.instance
            versions.table_changed(table.pk)  # the dashboard names the dealers
            audit_record(
                by=admin_actor(request),
                verb=Verb.TABLE_DEALERS,
                subject=table,
                data={"dealers": sorted(u.get_username() for u in table.dealers.all())},
            )


class LeftFilter(admin.SimpleListFilter):
    title = "seated"
    parameter_name = "seated"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("yes", "Seated now"), ("no", "Left")]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        if self.value() == "yes":
            return queryset.filter(left_at__isnull=True)
        if self.value() == "no":
            return queryset.filter(left_at__isnull=False)
        return queryset


@admin.register(Seat)
class SeatAdmin(ServiceErrorsMixin, admin.ModelAdmin):
    list_display = (
        "player",
        "table",
        "number",
        "stack",
        "buy_in",
        "sitting_out",
        "joined_at",
        "left_at",
    )
    list_filter = (LeftFilter, "table__day", "table", "sitting_out", "left_at")
    list_select_related = ("player", "table__day__event")
    search_fields = ("player__name",)
    readonly_fields = ("table", "number", "player", "stack", "buy_in", "joined_at", "left_at")
    fieldsets = (
        (
            None,
            {
                "description": SEATS_HELP,
                "fields": (
                    "table",
                    "number",
                    "player",
                    "stack",
                    "buy_in",
                    "sitting_out",
                    "joined_at",
                    "left_at",
                ),
            },
        ),
    )
    actions = ("leave_table",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # a seat comes with money: only a buy-in creates one (see SEATS_HELP)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def changelist_view(
        self, request: HttpRequest, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        return super().changelist_view(request, {"subtitle": SEATS_HELP, **(extra_context or {})})

    def save_model(self, request: HttpRequest, obj: Seat, form: Any, change: bool) -> None:
        # Never a plain save: the stack is the ledger's. Sitting out is logged by its service.
        if "sitting_out" in form.changed_data:
            seat_sit_out(
                seat=obj, sitting_out=form.cleaned_data["sitting_out"], by=admin_actor(request)
            )

    @admin.action(description="Leave the table (the stack goes back to the player's balance)")
    def leave_table(self, request: HttpRequest, queryset: QuerySet[Seat]) -> None:
        left = 0
        for seat in queryset.filter(left_at__isnull=True):
            try:
                seat_leave(seat=seat, by=admin_actor(request))
            except ServiceError as err:
                self.message_user(request, f"{seat}: {err.message}", messages.ERROR)
            else:
                left += 1
        if left:
            self.message_user(request, f"{left} player(s) left their table.", messages.SUCCESS)


@admin.register(RebuyConsent)
class RebuyConsentAdmin(ReadOnlyAdmin):
    list_display = ("rebuy_seat", "transfer_id", "consenting", "recorded_by", "at")
    list_select_related = ("rebuy_seat__player", "rebuy_seat__table", "consenting", "recorded_by")
    search_fields = ("consenting__name", "rebuy_seat__player__name")
