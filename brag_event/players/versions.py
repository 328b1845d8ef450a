"""The versions a change to a player bumps, stated on the players' side (docs/architecture.md,
"Versions" and "The domain's order").

A change to a player (a name, a check-in, a withdrawal, a qualification) bumps the event's
version (``events.versions``) and, when every table shows it, each of the event's tables'
(``Table.version``), in the same transaction as the change. The tables' counters live on the
tables, above the players: the tables fill this port when their app is ready (``tables.apps``:
``tables.versions.event_tables_changed``), as the floor fills ``tables.floor_rules``, so the
players import nothing of the tables.
"""

from __future__ import annotations

from collections.abc import Callable

from brag_event.events import versions as event_versions

_tables_changed: list[Callable[[int], None]] = []


def tables_changed_register(bump: Callable[[int], None]) -> None:
    """The tables' bump of every table of an event (once, when the tables app is ready)."""
    _tables_changed[:] = [bump]


def event_changed(event_id: int, *, tables: bool = False) -> None:
    """Something event-wide changed (the standings and the dashboard); with ``tables``, also
    something every table of the event shows (a player's name, a withdrawal)."""
    event_versions.event_changed(event_id)
    if tables:
        assert _tables_changed, "the tables app registers its bump when it is ready (tables.apps)"
        _tables_changed[0](event_id)
