"""Who is acting, and from which device: passed to every service that changes something."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Actor:
    user: Any = None  # a django.contrib.auth user, or None for the system
    device: str = ""  # device token name, IP address and user agent
    token_id: int | None = None  # the tablet's device token the request came with, if any

    @property
    def user_id(self) -> int | None:
        return getattr(self.user, "pk", None)

    @classmethod
    def from_request(cls, request: Any) -> Actor:
        """The signed-in user of a request (Django's or DRF's) and its device: the tablet's
        device token by name when it came with one (``request.auth``), else "web"; then the
        address and the browser."""
        where = request.META.get("REMOTE_ADDR", "")
        agent = request.META.get("HTTP_USER_AGENT", "")[:80]
        token: Any = getattr(request, "auth", None)
        token_id = getattr(token, "pk", None)
        device = f"token:{token.name}" if token_id is not None else "web"
        return cls(request.user, f"{device} {where} {agent}".strip(), token_id)


SYSTEM = Actor(None, "system")
