"""The audit log: read-only in the admin (organisers filter it on their own page too,
``/organiser/events/<id>/audit/``)."""

from __future__ import annotations

from django.contrib import admin

from brag_event.core.admin import ReadOnlyAdmin

from .models import AuditEntry


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdmin):
    list_display = ("at", "actor", "verb", "target", "table", "player", "device")
    list_filter = ("verb", "event", "actor")
    list_select_related = ("actor", "table", "player")
    search_fields = ("target", "device", "actor__username")
    fields = (
        "at",
        "actor",
        "device",
        "device_token",
        "verb",
        "target",
        "event",
        "day",
        "table",
        "hand",
        "seat",
        "player",
        "token",
        "data",
    )
    readonly_fields = fields
