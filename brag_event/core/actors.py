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


SYSTEM = Actor(None, "system")
