"""Staff of one event: read-only in the admin (organisers manage them on the event's staff
page, ``/organiser/events/<id>/staff/``, where every change is in the audit log)."""

from __future__ import annotations

from django.contrib import admin

from brag_event.core.admin import ReadOnlyAdmin

from .models import StaffRole


@admin.register(StaffRole)
class StaffRoleAdmin(ReadOnlyAdmin):
    list_display = ("user", "role", "event", "created_at", "created_by")
    list_filter = ("role", "event")
    list_select_related = ("user", "event", "created_by")
    search_fields = ("user__username", "user__first_name", "user__last_name")
    fields = ("user", "role", "event", "created_at", "created_by")
    readonly_fields = fields
