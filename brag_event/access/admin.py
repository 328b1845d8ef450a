"""Staff of one event: read-only in the admin (organisers manage them on the event's staff
page, ``/organiser/events/<id>/staff/``, where every change is in the audit log). Accounts
made or renamed in the admin pass the same user-name check as the staff page's (no invisible
characters, nothing that looks the same as another account: ``services.username_checked``)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.forms import AdminUserCreationForm, UserChangeForm

from brag_event.core.admin import ReadOnlyAdmin
from brag_event.core.errors import ServiceError

from .models import StaffRole
from .services import username_checked


@admin.register(StaffRole)
class StaffRoleAdmin(ReadOnlyAdmin):
    list_display = ("user", "role", "event", "created_at", "created_by")
    list_filter = ("role", "event")
    list_select_related = ("user", "event", "created_by")
    search_fields = ("user__username", "user__first_name", "user__last_name")
    fields = ("user", "role", "event", "created_at", "created_by")
    readonly_fields = fields


def _username(form: forms.ModelForm[Any]) -> str:
    """The form's user name, refused in the staff page's words when it is not one."""
    name = str(form.cleaned_data.get("username") or "")
    try:
        username_checked(name, other_than=form.instance.pk)
    except ServiceError as err:
        raise forms.ValidationError(err.message, code=err.code) from None
    return name


class CheckedCreationForm(AdminUserCreationForm):  # type: ignore[type-arg]
    def clean_username(self) -> str:
        _username(self)  # the staff page's words first
        return str(super().clean_username())


class CheckedChangeForm(UserChangeForm):  # type: ignore[type-arg]
    def clean_username(self) -> str:
        return _username(self)


User = get_user_model()
admin.site.unregister(User)


@admin.register(User)
class CheckedUserAdmin(UserAdmin):  # type: ignore[type-arg]
    add_form = CheckedCreationForm
    form = CheckedChangeForm
