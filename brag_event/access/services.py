"""Staff accounts of an event: created by its organisers, a password reset, switched off or on.
Every change is in the audit log, under the event."""

from __future__ import annotations

from typing import Any

from django.apps import apps
from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.contrib.sessions.models import Session
from django.core.exceptions import ValidationError
from django.utils import timezone

from brag_event.audit.models import Verb
from brag_event.audit.services import audit_record
from brag_event.core.actors import Actor
from brag_event.core.errors import Forbidden, ServiceError
from brag_event.core.names import name_key, player_name_clean
from brag_event.core.transactions import service_transaction
from brag_event.core.words import at_most
from brag_event.events.models import Event

from .models import StaffRole
from .roles import forget_roles
from .rules import can
from .selectors import session_keys_of, staff_manageable

USERNAME_MAX = 150


def _may_manage(by: Actor | None, event: Event) -> None:
    """``by`` is an organiser of ``event`` (the system may always)."""
    if by is None or by.user is None:
        return
    if not can(by, "staff.manage", event):
        raise Forbidden("forbidden", "Only an organiser of this event manages its staff.")


def _member(by: Actor | None, event: Event, user: Any) -> StaffRole:
    """``user``'s role in ``event``, if ``by`` may manage their account."""
    _may_manage(by, event)
    role = StaffRole.objects.filter(event=event, user=user).first()
    if role is None:
        raise ServiceError(
            "not_staff", f"{user.get_username()} is not on this event's staff.", status=404
        )
    if (
        by is not None
        and by.user is not None
        and not staff_manageable(by.user).filter(pk=user.pk).exists()
    ):
        raise Forbidden(
            "forbidden",
            f"{user.get_username()} works for other events too: an organiser of every event "
            "manages that account.",
        )
    return role


def _password_checked(password: str, user: Any) -> None:
    try:
        validate_password(password, user)
    except ValidationError as err:
        raise ServiceError(
            "weak_password", " ".join(err.messages), details={"field": "password"}
        ) from None


def username_checked(name: str, *, other_than: int | None = None) -> None:
    """A new user name: only letters, digits and @ . + - _ (Django's rule: no invisible
    character, no space, no accent written as a separate mark), and neither taken nor looking
    the same as one taken ("оrganiser" with a Cyrillic "о" beside "organiser":
    core.names.name_key, the players' check). Else ``invalid_username`` / ``username_taken``.
    ``other_than``: the account being renamed (its own name is not "taken")."""
    model = get_user_model()
    try:
        model.username_validator(name)  # type: ignore[attr-defined]
    except ValidationError:
        raise ServiceError(
            "invalid_username",
            "A user name is made of letters, digits and @ . + - _ only (no spaces, no "
            "invisible characters, no accent typed on its own): choose another.",
            details={"field": "username"},
        ) from None
    if player_name_clean(name) != name:  # a letter written as its compatibility form ("ﬁ")
        raise ServiceError(
            "invalid_username",
            f"Type the user name with plain letters: {player_name_clean(name)}.",
            details={"field": "username"},
        )
    key = name_key(name)
    others = model.objects.exclude(pk=other_than) if other_than is not None else model.objects
    for taken in others.values_list("username", flat=True).iterator():
        if taken.casefold() == name.casefold():
            said = f"The user name {name} is taken: choose another."
        elif name_key(taken) == key:
            said = (
                f"The user name {name} looks the same as {taken}, who has an account: choose "
                "one that reads differently."
            )
        else:
            continue
        raise ServiceError("username_taken", said, details={"field": "username"})


@service_transaction
def staff_create(
    *,
    event: Event,
    username: str,
    full_name: str,
    role: str,
    password: str,
    by: Actor | None,
) -> StaffRole:
    """A new account that is ``role`` (organiser, supervisor, dealer) of ``event`` only."""
    _may_manage(by, event)
    if role not in StaffRole.Role.values:
        raise ServiceError("invalid_role", "Choose organiser, floor supervisor or dealer.")
    name = username.strip()
    model = get_user_model()
    if not name or len(name) > USERNAME_MAX:
        raise ServiceError(
            "invalid_username",
            at_most("A user name", USERNAME_MAX) if name else "Give a user name.",
            details={"field": "username"},
        )
    username_checked(name)
    first, _, last = " ".join(full_name.split()).partition(" ")
    user = model(username=name, first_name=first[:150], last_name=last[:150])
    _password_checked(password, user)
    user.set_password(password)
    user.save()
    staff = StaffRole.objects.create(
        user=user, event=event, role=role, created_by=by.user if by and by.user_id else None
    )
    audit_record(
        by=by,
        verb=Verb.STAFF_CREATE,
        subject=event,
        target=name,
        data={"user": user.pk, "role": role},
    )
    return staff


@service_transaction
def staff_password_set(*, event: Event, user: Any, password: str, by: Actor | None) -> Any:
    """A new password for a member of ``event``'s staff; the browsers they are signed in on are
    signed out (their sessions ended; Django would also refuse them, a session being checked
    against the password it was opened with). Their tablets' device tokens stay."""
    _member(by, event, user)
    user = get_user_model().objects.select_for_update().get(pk=user.pk)
    _password_checked(password, user)
    user.set_password(password)
    user.save(update_fields=["password"])
    ended = session_keys_of(user.pk)
    Session.objects.filter(session_key__in=ended).delete()
    audit_record(
        by=by,
        verb=Verb.STAFF_PASSWORD,
        subject=event,
        target=user.get_username(),
        data={"user": user.pk, "sessions_ended": len(ended)},
    )
    return user


@service_transaction
def staff_deactivate(*, event: Event, user: Any, by: Actor | None) -> Any:
    """Switch the account off: it cannot sign in, its browser sessions end and its tablets'
    device tokens are revoked (switching it on again does not bring them back)."""
    _member(by, event, user)
    if by is not None and by.user_id == user.pk:
        raise ServiceError("own_account", "You cannot switch off your own account.")
    user = get_user_model().objects.select_for_update().get(pk=user.pk)
    if not user.is_active:
        return user
    user.is_active = False
    user.save(update_fields=["is_active"])
    ended = session_keys_of(user.pk)
    Session.objects.filter(session_key__in=ended).delete()
    # The tablets' tokens live with the API (above this app in the layers): by app label.
    tokens = apps.get_model("api", "DeviceToken").objects.filter(user=user, revoked_at__isnull=True)
    revoked = sorted(tokens.values_list("pk", flat=True))
    tokens.update(revoked_at=timezone.now())
    forget_roles(user)
    audit_record(
        by=by,
        verb=Verb.STAFF_DEACTIVATE,
        subject=event,
        target=user.get_username(),
        data={"user": user.pk, "sessions_ended": len(ended), "tokens_revoked": revoked},
    )
    return user


@service_transaction
def staff_activate(*, event: Event, user: Any, by: Actor | None) -> Any:
    """Switch the account on again (a new password or device token is given separately)."""
    _member(by, event, user)
    user = get_user_model().objects.select_for_update().get(pk=user.pk)
    if user.is_active:
        return user
    user.is_active = True
    user.save(update_fields=["is_active"])
    audit_record(
        by=by,
        verb=Verb.STAFF_ACTIVATE,
        subject=event,
        target=user.get_username(),
        data={"user": user.pk},
    )
    return user
