"""A signing-in keeps, on its session, the device it came from: the console's staff page says
who is signed in on which tablet."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver
from django.utils import timezone

from .selectors import SESSION_DEVICE


@receiver(user_logged_in)
def _remember_device(sender: Any, request: Any = None, user: Any = None, **kwargs: Any) -> None:
    session = getattr(request, "session", None)
    if session is None:
        return
    session[SESSION_DEVICE] = {
        "agent": request.META.get("HTTP_USER_AGENT", "")[:200],
        "address": request.META.get("REMOTE_ADDR", ""),
        "at": timezone.now().isoformat(),
    }
