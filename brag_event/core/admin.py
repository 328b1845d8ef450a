"""Shared pieces of the organisers' admin.

The admin never moves money or writes the ledger itself: anything that must be logged goes
through the services, called with an :class:`Actor` naming the admin user and address."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.contrib import admin, messages
from django.db.models import Model
from django.forms import BaseForm
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect

from brag_event.audit.models import Verb
from brag_event.audit.services import audit_record
from brag_event.core.actors import Actor
from brag_event.core.errors import ServiceError


def admin_actor(request: HttpRequest) -> Actor:
    """The person acting in the admin, and from where."""
    return Actor(request.user, f"admin {request.META.get('REMOTE_ADDR', '')}")


def audit_admin_edit(
    request: HttpRequest,
    obj: Model,
    form: BaseForm,
    verb: Verb,
    fields: Iterable[str] | None = None,
) -> None:
    """Record a plain (money-free) admin edit in the audit log, with the fields it changed."""
    names = form.changed_data if fields is None else [n for n in fields if n in form.changed_data]
    changed = {
        name: [_plain(form.initial.get(name)), _plain(form.cleaned_data.get(name))]
        for name in names
    }
    if changed:
        audit_record(
            by=admin_actor(request),
            verb=verb,
            subject=obj,
            data={"changed": changed},
        )


def _plain(value: Any) -> Any:
    """A JSON-friendly rendering of a form value."""
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, Model):
        return str(value)
    if hasattr(value, "__iter__"):  # lists, querysets of a many-to-many field
        return sorted(str(v) for v in value)
    return str(value)


class ServiceErrorsMixin:
    """Show a service's refusal as an error message instead of a server error.

    Form validation catches what it can beforehand; a service may still refuse (a race with a
    tablet, a day closed meanwhile). The admin's change view runs in one transaction, so the
    exception rolls everything back before the message is shown."""

    def changeform_view(
        self,
        request: HttpRequest,
        object_id: str | None = None,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        try:
            return super().changeform_view(  # type: ignore[misc]
                request, object_id, form_url, extra_context
            )
        except ServiceError as err:
            messages.error(request, err.message)
            return HttpResponseRedirect(request.get_full_path())


class ReadOnlyAdmin(admin.ModelAdmin):
    """Browse only: no add, change or delete (the rows are append-only records)."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class ReadOnlyTabularInline(admin.TabularInline):
    """An inline that lists related records without letting them be added, changed or deleted."""

    extra = 0
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
