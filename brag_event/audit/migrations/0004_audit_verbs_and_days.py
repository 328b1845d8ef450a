"""The log's free-text verbs become ``Verb`` members: every verb recorded before is one of
them already, except any that is not (kept in ``data["verb"]``, recorded as ``other``). Entries
about a day get their reference to it back from their target (``"<event> — day <n>"``).

The log is append-only in the database (``ledger.0002_append_only``): this one amendment lifts
the guard on its table for the migration's own statements and puts it back."""

from __future__ import annotations

from typing import Any

from django.db import migrations

VERBS = {
    "event.create", "event.update", "day.create", "day.update", "day.rules", "day.qualification",
    "day.open", "day.close_requested", "day.closed", "player.register", "player.import",
    "player.issue", "player.update", "table.create", "table.dealers", "table.balance",
    "seating.draw", "seating.apply", "seat.buy_in", "seat.rebuy", "seat.sit_out",
    "seat.come_back", "seat.leave", "seat.move", "hand.start", "hand.void", "token.issue",
    "token.revoke", "login.locked_out", "login.unlock", "integrity.run", "other",
}  # fmt: skip


TABLE = "audit_auditentry"
TRIGGER = f"{TABLE}_append_only"


def forwards(apps: Any, schema_editor: Any) -> None:
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        schema_editor.execute(f"ALTER TABLE {TABLE} DISABLE TRIGGER {TRIGGER}")
    elif vendor == "sqlite":
        schema_editor.execute(f"DROP TRIGGER IF EXISTS {TRIGGER}")
    try:
        _amend(apps)
    finally:
        if vendor == "postgresql":
            schema_editor.execute(f"ALTER TABLE {TABLE} ENABLE TRIGGER {TRIGGER}")
        elif vendor == "sqlite":
            schema_editor.execute(
                f"CREATE TRIGGER {TRIGGER} BEFORE UPDATE ON {TABLE} "
                f"BEGIN SELECT RAISE(ABORT, 'append_only: UPDATE on {TABLE} is not allowed'); END"
            )


def _amend(apps: Any) -> None:
    entry_model = apps.get_model("audit", "AuditEntry")
    day_model = apps.get_model("events", "Day")
    for entry in entry_model.objects.exclude(verb__in=VERBS).iterator():
        entry.data = {**(entry.data or {}), "verb": entry.verb}
        entry.verb = "other"
        entry.save(update_fields=["verb", "data"])
    days = {(d.event_id, d.number): d.pk for d in day_model.objects.all()}
    about_days = entry_model.objects.filter(verb__startswith="day.", day__isnull=True)
    for entry in about_days.exclude(event__isnull=True).iterator():
        _, _, number = entry.target.rpartition(" day ")
        if number.isdigit() and (entry.event_id, int(number)) in days:
            entry.day_id = days[(entry.event_id, int(number))]
            entry.save(update_fields=["day"])


class Migration(migrations.Migration):
    dependencies = [("audit", "0003_audit_subjects"), ("ledger", "0002_append_only")]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
