"""The API's one way to say who may do what: ``Can("hand.entries")``, a DRF permission that reads
the named permission of ``access.rules`` — the same table the console's ``requires`` decorator
reads (``access.web``).

The event is the one of the object the URL names (an event, day, table, hand, seat, call,
penalty, player or import: ``access.rules.event_of``). A route that names none (the device
tokens, the people) is checked for some event, and its rows are then scoped by the querysets
(``api.roles.tables_for``); ids in its body are resolved within the actor's events
(``access.scoping``)."""

from __future__ import annotations

from functools import cache
from typing import Any

from rest_framework.permissions import BasePermission
from rest_framework.request import Request

from brag_event.access.roles import is_global
from brag_event.access.rules import PERMISSIONS, can, event_of, role_needed

__all__ = ["Can"]


@cache
def Can(permission: str, message: str = "Your role may not do this.") -> type[BasePermission]:
    """The permission class for ``permission`` (named like a class: it is used as one, in
    ``permission_classes``), made once for each name and message; ``message`` is the
    refusal's words."""
    if permission not in PERMISSIONS:
        raise KeyError(f"no permission named {permission!r} in access.rules")
    rule = PERMISSIONS[permission]

    def has_permission(self: BasePermission, request: Request, view: Any) -> bool:
        user = request.user
        if rule.site:
            return can(user, permission)
        if is_global(user, rule.role):
            return True  # every event: no need to find the URL's (the tablet's hot path)
        if not can(user, permission):
            return False
        event = event_of(view.kwargs)
        return event is None or can(user, permission, event)

    return type(
        f"Can_{permission.replace('.', '_')}",
        (BasePermission,),
        {
            "message": message,
            "has_permission": has_permission,
            "permission": permission,
            "__doc__": f"Holds {permission!r}: at least {role_needed(permission)}.",
        },
    )
