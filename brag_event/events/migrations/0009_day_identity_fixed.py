"""What a day's and an event's record are hashed from cannot change once chained: the database
refuses to renumber a day (or move it to another event) once it has opened, and to change an
event's identity (its UUID) at all. The admin shows these fields read-only; these triggers stop
every other path (a script, a shell, an insider's SQL) short of dropping them — and a dropped
trigger's edit still breaks the day's published root, which the audit recomputes."""

from django.db import migrations

PG = """
CREATE OR REPLACE FUNCTION brag_day_identity_fixed() RETURNS trigger AS $$
BEGIN
    IF OLD.status <> 'scheduled'
       AND (NEW.number <> OLD.number OR NEW.event_id <> OLD.event_id) THEN
        RAISE EXCEPTION 'identity_fixed: day %% is in its event''s record: its number and event '
            'cannot change', OLD.number USING ERRCODE = 'restrict_violation';
    END IF;
    RETURN NEW;
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER events_day_identity_fixed BEFORE UPDATE ON events_day
    FOR EACH ROW EXECUTE FUNCTION brag_day_identity_fixed();
CREATE OR REPLACE FUNCTION brag_event_identity_fixed() RETURNS trigger AS $$
BEGIN
    IF NEW.uid <> OLD.uid THEN
        RAISE EXCEPTION 'identity_fixed: an event''s identity cannot change'
            USING ERRCODE = 'restrict_violation';
    END IF;
    RETURN NEW;
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER events_event_identity_fixed BEFORE UPDATE ON events_event
    FOR EACH ROW EXECUTE FUNCTION brag_event_identity_fixed();
"""

PG_BACK = """
DROP TRIGGER IF EXISTS events_day_identity_fixed ON events_day;
DROP TRIGGER IF EXISTS events_event_identity_fixed ON events_event;
DROP FUNCTION IF EXISTS brag_day_identity_fixed();
DROP FUNCTION IF EXISTS brag_event_identity_fixed();
"""

SQLITE = [
    "CREATE TRIGGER events_day_identity_fixed BEFORE UPDATE OF number, event_id ON events_day "
    "WHEN OLD.status <> 'scheduled' AND (NEW.number <> OLD.number OR NEW.event_id <> "
    "OLD.event_id) BEGIN SELECT RAISE(ABORT, 'identity_fixed: a day in its event''s record "
    "cannot be renumbered'); END",
    "CREATE TRIGGER events_event_identity_fixed BEFORE UPDATE OF uid ON events_event "
    "WHEN NEW.uid <> OLD.uid BEGIN SELECT RAISE(ABORT, 'identity_fixed: an event''s identity "
    "cannot change'); END",
]


def forwards(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        schema_editor.execute(PG)
    elif vendor == "sqlite":
        for statement in SQLITE:
            schema_editor.execute(statement)


def backwards(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        schema_editor.execute(PG_BACK)
    elif vendor == "sqlite":
        schema_editor.execute("DROP TRIGGER IF EXISTS events_day_identity_fixed")
        schema_editor.execute("DROP TRIGGER IF EXISTS events_event_identity_fixed")


class Migration(migrations.Migration):
    dependencies = [
        ("events", "0008_event_uid_day_record_version"),
    ]

    operations = [migrations.RunPython(forwards, backwards)]
