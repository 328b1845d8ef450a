"""The identity triggers of 0009 again, on SQLite only: SQLite cannot add a column in place, so
Django rebuilds the table to add one (0012 and 0014 added columns to days and events), and a
rebuilt table has lost its triggers. PostgreSQL keeps them (nothing to do there).
``tests/core/test_database_triggers.py`` checks every trigger the migrations create is there."""

from django.db import migrations

SQLITE = [
    "DROP TRIGGER IF EXISTS events_day_identity_fixed",
    "DROP TRIGGER IF EXISTS events_event_identity_fixed",
    "CREATE TRIGGER events_day_identity_fixed BEFORE UPDATE OF number, event_id ON events_day "
    "WHEN OLD.status <> 'scheduled' AND (NEW.number <> OLD.number OR NEW.event_id <> "
    "OLD.event_id) BEGIN SELECT RAISE(ABORT, 'identity_fixed: a day in its event''s record "
    "cannot be renumbered'); END",
    "CREATE TRIGGER events_event_identity_fixed BEFORE UPDATE OF uid ON events_event "
    "WHEN NEW.uid <> OLD.uid BEGIN SELECT RAISE(ABORT, 'identity_fixed: an event''s identity "
    "cannot change'); END",
]


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor == "sqlite":
        for statement in SQLITE:
            schema_editor.execute(statement)


class Migration(migrations.Migration):
    dependencies = [
        ("events", "0014_event_imported"),
    ]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
