"""Each event's own time zone: chosen when the event is created (an IANA name, by default the
settings' TIME_ZONE, from BRAG_TIME_ZONE), and active for every page and export of that event —
the console, the tablets, the standings, the big screen, a player's page and the CSV files —
whatever zone the server or the browser is in (docs/operations.md, "Time zones")."""

from __future__ import annotations

import functools
import zoneinfo
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils import timezone

# Files of the system's zoneinfo that are no zone of the world: "localtime" is whatever zone
# the machine is set to (another machine reads it otherwise), "Factory" a placeholder that
# shows "-00", "posixrules" the POSIX rules' default.
NOT_ZONES = frozenset({"localtime", "Factory", "posixrules"})


@functools.cache
def zone_names() -> frozenset[str]:
    """Every IANA zone name this machine knows (the system's zoneinfo, or the tzdata package),
    but for the files that are no zone of the world (``NOT_ZONES``)."""
    return frozenset(zoneinfo.available_timezones()) - NOT_ZONES


def zone_choices() -> list[tuple[str, str]]:
    """The zones an organiser chooses from, by name (Europe/London), as a form's choices."""
    names = sorted(n for n in zone_names() if "/" in n and not n.startswith(("Etc/", "SystemV/")))
    names += sorted({"UTC", settings.TIME_ZONE} - set(names))
    return [(n, n.replace("_", " ")) for n in names]


def default_time_zone() -> str:
    """A new event's zone unless chosen: the settings' TIME_ZONE (BRAG_TIME_ZONE)."""
    return str(settings.TIME_ZONE)


def validate_time_zone(value: str) -> None:
    if value not in zone_names():
        raise ValidationError(
            "%(value)s is not a time zone; choose one such as Europe/London.",
            code="invalid_time_zone",
            params={"value": value},
        )


def zone(name: str) -> zoneinfo.ZoneInfo:
    return zoneinfo.ZoneInfo(name)


# The URL parameters that name something of one event, and how to reach its event from it (the
# reverse relations' names: events imports none of the apps that play on a day).
def activate_for(event: Any) -> None:
    """Show this request's times in ``event``'s zone (for pages whose URL names no event)."""
    timezone.activate(zone(event.time_zone))
