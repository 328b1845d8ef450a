"""Who may open a page: one decorator for the console, the floor and the integrity monitor.

Anonymous visitors go to the console's sign-in page; a signed-in user without the permission in
the page's event gets a page (403) that says where to go instead — a dealer to the tablet, the
staff of another event to their own event."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar, cast

from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import render
from django.urls import reverse

from brag_event.events.models import Event

from .roles import SUPERVISOR, events_where, is_global, role_of
from .rules import PERMISSIONS, can, event_of

View = TypeVar("View", bound=Callable[..., HttpResponseBase])


def visible_events(user: Any, role: str = SUPERVISOR) -> Any:
    """The events in which ``user`` is at least ``role`` (a queryset)."""
    where = events_where(user, role)
    events = Event.objects.all()
    return events if where is None else events.filter(pk__in=where)


def refused(
    request: HttpRequest, *, allowed: str = "organisers", event_id: int | None = None
) -> HttpResponse:
    """A signed-in user whose role may not see this page: 403, with where to go instead."""
    mine = visible_events(request.user)
    context = {
        "role": role_of(request.user),
        "allowed": allowed,
        "events": mine.order_by("-pk")[:5],
        # Staff of another event, refused here for that reason: say so, and link their own.
        "other_event": event_id is not None and not mine.filter(pk=event_id).exists(),
    }
    return render(request, "organiser/forbidden.html", context, status=403)


def requires(permission: str, *, allowed: str = "organisers") -> Callable[[View], View]:
    """The page needs ``permission`` in the event its URL names (``event_of``: an event, day,
    table, hand, player, call or penalty); a page of no event needs it somewhere (the page then
    shows only what the user's events hold) — or, for a site permission, for every event."""
    rule = PERMISSIONS[permission]  # a name not in the table fails at import, not at request

    def decorate(view: View) -> View:
        @functools.wraps(view)
        def inner(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path(), reverse("organiser:login"))
            if is_global(request.user, rule.role) and request.user.is_active:
                return view(request, *args, **kwargs)  # every event's: no need to find the URL's
            event_id = event_of(kwargs)
            if not can(request.user, permission, event_id):
                return refused(request, allowed=allowed, event_id=event_id)
            return view(request, *args, **kwargs)

        return cast(View, inner)

    return decorate
