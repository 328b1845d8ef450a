"""Organisers' admin for events and days.

A day's rules are checked once, by the engine (``events.forms.DayForm`` → ``Day.clean`` →
``Rules.problems``), so each bad field gets its own message. Changing the rules of an
existing day goes through ``day_update_rules``: the change is logged (a ``DayRulesChange``
and an audit entry)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.http import HttpRequest

from brag_event.audit.models import Verb
from brag_event.audit.services import audit_record
from brag_event.core.admin import (
    ReadOnlyAdmin,
    ReadOnlyTabularInline,
    ServiceErrorsMixin,
    admin_actor,
    audit_admin_edit,
)
from brag_event.core.errors import ServiceError
from brag_event.tables import versions

from .forms import DayForm, EventForm
from .models import DAY_SETTINGS, RULE_AMOUNTS, Day, DayRulesChange, Event
from .services import day_open, day_update_rules


def rules_changed(change: DayRulesChange) -> str:
    """``ante: 5 → 10; max_bet: 20 → 40`` for one logged change."""
    before = change.before or {}
    after = change.after or {}
    parts = [
        f"{name}: {before.get(name)} → {after.get(name)}"
        for name in after
        if before.get(name) != after.get(name)
    ]
    return "; ".join(parts) or "—"


# A day in a row: its number, date and state, then the rules that are amounts.
DAY_COLUMNS = ("number", "date", "status", *RULE_AMOUNTS)


class DayRulesChangeInline(ReadOnlyTabularInline):
    model = DayRulesChange
    fields = ("changed_at", "changed_by", "reason", "changes")
    readonly_fields = fields
    ordering = ("-changed_at", "-id")
    verbose_name = "rules change"
    verbose_name_plural = "rules changes (logged)"

    @admin.display(description="changes")
    def changes(self, obj: DayRulesChange) -> str:
        return rules_changed(obj)


class DayInline(ReadOnlyTabularInline):
    """The event's days, for reading; each links to its own page where the rules are edited."""

    model = Day
    fields = DAY_COLUMNS
    readonly_fields = fields
    ordering = ("number",)


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    form = EventForm
    list_display = ("name", "currency", "time_zone", "created_at")
    search_fields = ("name",)
    # The identity every root of the event's record starts from: shown, never edited.
    readonly_fields = ("uid", "created_at")
    inlines = (DayInline,)

    def save_model(self, request: HttpRequest, obj: Event, form: Any, change: bool) -> None:
        super().save_model(request, obj, form, change)
        if change:
            versions.event_changed(obj.pk, tables=True)  # its name, currency and zone are shown
            audit_admin_edit(request, obj, form, verb=Verb.EVENT_UPDATE)
        else:
            audit_record(
                by=admin_actor(request),
                verb=Verb.EVENT_CREATE,
                subject=obj,
                data={"currency": obj.currency, "via": "admin"},
            )


@admin.register(Day)
class DayAdmin(ServiceErrorsMixin, admin.ModelAdmin):
    form = DayForm
    list_display = ("__str__", *DAY_COLUMNS, "seats")
    list_filter = ("event", "status")
    list_select_related = ("event",)
    inlines = (DayRulesChangeInline,)
    fieldsets = (
        (None, {"fields": ("event", "number", "date", "status")}),
        (
            "Betting",
            {
                "fields": (
                    "ante",
                    "min_bet",
                    "max_bet",
                    "max_raise",
                    "blind_allowed",
                    "see_cost",
                    "pot_limit",
                    "cover_allowed",
                )
            },
        ),
        (
            "Sitting down",
            {
                "fields": (
                    "house_fee",
                    "table_min",
                    "table_max",
                    "seats",
                    "rebuy_needs_consent",
                    "rebuy_pays_fee",
                )
            },
        ),
        ("Rake", {"fields": ("rake_percent", "rake_cap")}),
        # A floor procedure, not a rule of the game: the engine never sees it (events.models).
        ("The floor", {"fields": ("award_confirm_from",)}),
    )

    actions = ("open_days",)

    def get_readonly_fields(self, request: HttpRequest, obj: Day | None = None) -> Any:
        # A day's state changes only through the services (opening, closing): never by hand.
        if obj is None:
            return ("status",)
        if obj.status in (Day.Status.CLOSING, Day.Status.CLOSED):
            # A closing or closed day's rules are final (day_update_rules refuses them).
            return ("event", "number", "status", *DAY_SETTINGS)
        if obj.status == Day.Status.OPEN:
            # Once open, the day's number is in its record (its own chain's genesis, its root):
            # renumbering it would break them (the database refuses it too).
            return ("event", "number", "status")
        # Moving a day to another event would mix two events' players and money.
        return ("event", "status")

    @admin.action(description="Open the selected days for play")
    def open_days(self, request: HttpRequest, queryset: Any) -> None:
        """``day_open`` for each day, in order; a refusal is shown in words."""
        for day in queryset.order_by("event", "number"):
            try:
                day_open(day=day, by=admin_actor(request))
                messages.success(request, f"{day} is open.")
            except ServiceError as err:
                messages.error(request, f"{day}: {err.message}")

    def save_model(self, request: HttpRequest, obj: Day, form: Any, change: bool) -> None:
        actor = admin_actor(request)
        if not change:
            super().save_model(request, obj, form, change)
            versions.event_changed(obj.event_id)
            audit_record(
                by=actor,
                verb=Verb.DAY_CREATE,
                subject=obj,
                data={"rules": obj.rules_dict(), "via": "admin"},
            )
            return
        changes = {
            name: form.cleaned_data[name] for name in form.changed_data if name in DAY_SETTINGS
        }
        if changes:
            # Logged: a DayRulesChange and an audit entry. Raises ServiceError if refused.
            day_update_rules(day=obj, changes=changes, reason="changed in admin", by=actor)
        others = [name for name in form.changed_data if name not in DAY_SETTINGS]
        if others:
            obj.save(update_fields=others)
            versions.event_changed(obj.event_id, tables=True)  # a day's status is shown
            audit_admin_edit(request, obj, form, verb=Verb.DAY_UPDATE, fields=others)


@admin.register(DayRulesChange)
class DayRulesChangeAdmin(ReadOnlyAdmin):
    list_display = ("day", "changed_at", "changed_by", "reason", "changes")
    list_filter = ("day__event", "day")
    list_select_related = ("day__event", "changed_by")
    search_fields = ("reason",)
    fields = ("day", "changed_at", "changed_by", "reason", "changes", "before", "after")
    readonly_fields = fields

    @admin.display(description="changes")
    def changes(self, obj: DayRulesChange) -> str:
        return rules_changed(obj)
