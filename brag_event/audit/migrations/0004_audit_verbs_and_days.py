"""The log's free-text verbs become ``Verb`` members: every verb recorded before is one of
them already, except any that is not (kept in ``data["verb"]``, recorded as ``other``). Entries
about a day get their reference to it back from their target (``"<event> — day <n>"``)."""

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


def forwards(apps: Any, schema_editor: Any) -> None:
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
    dependencies = [("audit", "0003_audit_subjects")]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
