"""The event's staff page: its organisers, floor supervisors and dealers — create an account,
reset a password, switch an account off or on — and who is signed in on which device. Thin:
parse a form, call ``access.services``, render."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render

from brag_event.access.selectors import event_staff, sessions_of, site_staff, staff_manageable
from brag_event.access.services import (
    staff_activate,
    staff_create,
    staff_deactivate,
    staff_password_set,
)
from brag_event.access.web import requires
from brag_event.api.models import DeviceToken
from brag_event.core.errors import ServiceError
from brag_event.core.forms import bad_request, posted_form, takes
from brag_event.events.models import Event
from brag_event.tables.shifts import dealing_tables

from .forms import service_error_on
from .staff_forms import StaffCreateForm, StaffMemberForm, StaffPasswordForm
from .views import actor

STAFF_FORMS: dict[str, type[forms.Form]] = {
    "create": StaffCreateForm,
    "password": StaffPasswordForm,
    "off": StaffMemberForm,
    "on": StaffMemberForm,
}


@takes(post=STAFF_FORMS)
@requires("staff.manage")
def staff(request: HttpRequest, event_id: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=event_id)
    members = event_staff(event)
    users = staff_manageable(request.user).filter(staff_roles__event=event)
    create_form = StaffCreateForm()
    password_form: StaffPasswordForm | None = None
    status = 200
    if request.method == "POST":
        which = posted_form(request, STAFF_FORMS)
        if which is None:
            return bad_request(request)
        status = 400
        by = actor(request)
        if which == "create":
            create_form = StaffCreateForm(request.POST)
            if create_form.is_valid():
                data = create_form.cleaned_data
                try:
                    made = staff_create(
                        event=event,
                        username=data["username"],
                        full_name=data["full_name"],
                        role=data["role"],
                        password=data["password"],
                        by=by,
                    )
                    messages.success(
                        request,
                        f"{made.user.get_username()} can sign in now, as "
                        f"{made.get_role_display()} of {event.name}.",
                    )
                    return redirect("organiser:staff", event.pk)
                except ServiceError as err:
                    service_error_on(create_form, err)
                    status = err.status
        else:
            form_class: Any = STAFF_FORMS[which]
            form = form_class(request.POST, event=event, users=users)
            if not form.is_valid():
                if which == "password" and "user" not in form.errors:
                    password_form = form  # type: ignore[assignment]
                else:
                    return bad_request(request, form)
            else:
                member = form.cleaned_data["user"]
                name = member.get_username()
                try:
                    if which == "password":
                        staff_password_set(
                            event=event, user=member, password=form.cleaned_data["password"], by=by
                        )
                        messages.success(request, f"{name}'s password is changed.")
                    elif which == "off":
                        staff_deactivate(event=event, user=member, by=by)
                        messages.success(
                            request,
                            f"{name} is switched off: signed out everywhere, their tablets' "
                            "tokens revoked.",
                        )
                    else:
                        staff_activate(event=event, user=member, by=by)
                        messages.success(request, f"{name} is switched on again.")
                    return redirect("organiser:staff", event.pk)
                except ServiceError as err:
                    if which == "password":
                        password_form = form  # type: ignore[assignment]
                        service_error_on(form, err)
                    else:
                        messages.error(request, err.message)
                    status = err.status
    context = _context(request, event, members, users)
    context.update({"create_form": create_form, "password_form": password_form})
    return render(request, "organiser/staff.html", context, status=status)


def _context(request: HttpRequest, event: Event, members: Any, users: Any) -> dict[str, Any]:
    rows = list(members)
    ids = {m.user_id for m in rows}
    manageable = set(users.values_list("pk", flat=True))
    tokens = (
        DeviceToken.objects.filter(user_id__in=ids, revoked_at__isnull=True)
        .select_related("user")
        .order_by("-last_used_at", "name")
    )
    by_user: dict[int, list[DeviceToken]] = {}
    for token in tokens:
        by_user.setdefault(token.user_id, []).append(token)
    sessions = sessions_of(ids)
    signed_in: dict[int, int] = {}
    for s in sessions:
        signed_in[s.user_id] = signed_in.get(s.user_id, 0) + 1
    role_of_user = {m.user_id: m for m in rows}
    # One line a person signed in, not one a browser session (a dealer who signed in forty
    # times is one dealer): their newest session, how many browsers, and the table they deal
    # at now on this event's open day, if any — the dealers at tables first, by table.
    dealing = dealing_tables(event.pk, ids)
    newest: dict[int, Any] = {}
    for s in sessions:  # newest first
        newest.setdefault(s.user_id, s)
    people = sorted(
        (
            {
                "session": s,
                "member": role_of_user.get(uid),
                "browsers": signed_in[uid],
                "table": dealing.get(uid),
            }
            for uid, s in newest.items()
        ),
        key=lambda r: (r["table"] is None, r["table"] or 0, -(r["session"].expires.timestamp())),
    )
    return {
        "event": event,
        "members": [
            {
                "staff": m,
                "user": m.user,
                "manageable": m.user_id in manageable and m.user_id != request.user.pk,
                "tokens": by_user.get(m.user_id, []),
                "sessions": signed_in.get(m.user_id, 0),
            }
            for m in rows
        ],
        "site_staff": site_staff(),
        "sessions": people,
        "tokens": tokens,
    }
