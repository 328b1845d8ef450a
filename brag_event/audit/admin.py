"""The audit log: read-only in the admin."""

from __future__ import annotations

from django.contrib import admin

from brag_event.core.admin import ReadOnlyAdmin

from .models import AuditEntry


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdmin):
    list_display = ("at", "actor", "verb", "target", "device")
    list_filter = ("verb", "actor")
    list_select_related = ("actor",)
    search_fields = ("verb", "target", "device", "actor__username")
    fields = ("at", "actor", "verb", "target", "device", "data")
    readonly_fields = fields
