"""The monitor's records in the admin: read-only (runs and flags are the monitor's, refused
entries are append-only)."""

from __future__ import annotations

from django.contrib import admin

from brag_event.core.admin import ReadOnlyAdmin

from .models import IntegrityFlag, IntegrityRun, RefusedEntry


@admin.register(IntegrityRun)
class IntegrityRunAdmin(ReadOnlyAdmin):
    list_display = ("__str__", "event", "trigger", "hands", "at")
    list_filter = ("trigger", "event")


@admin.register(IntegrityFlag)
class IntegrityFlagAdmin(ReadOnlyAdmin):
    list_display = ("kind", "subject", "p_value", "run")
    list_filter = ("kind",)


@admin.register(RefusedEntry)
class RefusedEntryAdmin(ReadOnlyAdmin):
    list_display = ("at", "table", "hand", "seq", "code", "status", "user", "device")
    list_filter = ("code", "status")
