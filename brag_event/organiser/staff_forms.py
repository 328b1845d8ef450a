"""The staff page's forms: a new account of the event's staff, a new password, an account
switched off or on."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings

from brag_event.access.models import StaffRole
from brag_event.access.scoping import EventScopedChoiceField
from brag_event.core.words import at_most
from brag_event.events.models import Event

PASSWORD_MAX = 128


class StaffCreateForm(forms.Form):
    role = forms.ChoiceField(label="Role", choices=StaffRole.Role.choices, initial="dealer")
    username = forms.CharField(
        label="User name (to sign in)",
        max_length=150,
        error_messages={"max_length": at_most("A user name", 150)},
        widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "none"}),
    )
    full_name = forms.CharField(
        label="Full name",
        max_length=150,
        required=False,
        error_messages={"max_length": at_most("A full name", 150)},
    )
    password = forms.CharField(
        label="Password",
        max_length=PASSWORD_MAX,
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )


class StaffMemberForm(forms.Form):
    """One member of the page's staff (switching off or on)."""

    user = EventScopedChoiceField(model=settings.AUTH_USER_MODEL, widget=forms.HiddenInput)

    def __init__(self, *args: Any, event: Event, users: Any, **kwargs: Any) -> None:
        """``users``: the event's staff whom the organiser manages."""
        super().__init__(*args, **kwargs)
        self.fields["user"].scope(event, among=users)  # type: ignore[attr-defined]


class StaffPasswordForm(StaffMemberForm):
    password = forms.CharField(
        label="New password",
        max_length=PASSWORD_MAX,
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )
