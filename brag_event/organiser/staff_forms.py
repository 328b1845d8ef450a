"""The staff page's forms: a new account of the event's staff, a new password, an account
switched off or on."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth import get_user_model

from brag_event.access.models import StaffRole
from brag_event.core.forms import IdChoiceField
from brag_event.core.words import at_most

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

    user = IdChoiceField(queryset=get_user_model().objects.none(), widget=forms.HiddenInput)

    def __init__(self, *args: Any, users: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["user"].queryset = users  # type: ignore[attr-defined]


class StaffPasswordForm(StaffMemberForm):
    password = forms.CharField(
        label="New password",
        max_length=PASSWORD_MAX,
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )
