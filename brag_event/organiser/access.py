"""Signing in to the organiser's console, signing out, and who may see its pages.

The console's own login page is for the event's staff who run it (organisers, and supervisors
for the integrity monitor); django-axes throttles it like every other login (it counts every
failed ``authenticate()``). Anybody else who opens a console page gets a page that says where to
go instead — a dealer is sent to the tablet — not a bare 403."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.views import LoginView
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.http import require_POST

from brag_event.access.roles import DEALER, ORGANISER, SUPERVISOR, role_of
from brag_event.access.web import refused, requires, visible_events
from brag_event.core.forms import takes
from brag_event.events.models import Day

__all__ = ["organiser_only", "refused"]

CONSOLE_ROLES = (ORGANISER, SUPERVISOR)


def console_login_url() -> str:
    return reverse("organiser:login")


# Organisers of the page's event (``access.rules``: "event.manage"): anonymous users go to the
# console's login page, anybody else gets a page saying where to go instead (403).
organiser_only = requires("event.manage")


class ConsoleLoginForm(AuthenticationForm):
    """Django's login form (``authenticate()``, so django-axes counts and locks), for staff who
    run the event only."""

    error_messages = {
        **AuthenticationForm.error_messages,
        "invalid_login": "That user name and password do not match. Both are case-sensitive.",
        "dealer": "Dealers enter hands on the tablet: sign in there.",
        "not_staff": "This console is for the event's organisers and supervisors.",
    }

    # Where to go after signing in; LoginView reads it and keeps it to this site.
    next = forms.CharField(required=False, max_length=2000, widget=forms.HiddenInput)

    def confirm_login_allowed(self, user: Any) -> None:
        super().confirm_login_allowed(user)
        role = role_of(user)
        if role == DEALER:
            raise ValidationError(self.error_messages["dealer"], code="dealer")
        if role not in CONSOLE_ROLES:
            raise ValidationError(self.error_messages["not_staff"], code="not_staff")


def landing_url(user: Any) -> str:
    """Where signing in leads: the dashboard of the one event still being played (one click
    saved), else the list of events; a supervisor to the events' integrity pages."""
    not_closed = [Day.Status.SCHEDULED, Day.Status.OPEN, Day.Status.CLOSING]
    mine = visible_events(user)
    running = list(mine.filter(days__status__in=not_closed).distinct()[:2])
    if role_of(user) == ORGANISER and len(running) == 1:
        return reverse("organiser:dashboard", args=[running[0].pk])
    if role_of(user) == SUPERVISOR and len(running) == 1:
        return reverse("integrity:overview", args=[running[0].pk])
    return reverse("organiser:events")


class ConsoleLoginView(LoginView):
    template_name = "organiser/login.html"
    authentication_form = ConsoleLoginForm
    redirect_authenticated_user = False

    def get_default_redirect_url(self) -> str:
        return landing_url(self.request.user)

    def get_redirect_url(self) -> str:
        # Sent here from the console's front page: the landing page instead (the dashboard of
        # the event being played, when there is one).
        wanted = super().get_redirect_url()
        return "" if wanted == reverse("organiser:events") else wanted


console_login = takes(post=ConsoleLoginForm)(ConsoleLoginView.as_view())


@takes()
@require_POST
def console_logout(request: HttpRequest) -> HttpResponse:
    logout(request)
    messages.success(request, "You are signed out.")
    return redirect("organiser:login")
