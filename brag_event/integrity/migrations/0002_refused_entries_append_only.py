"""Refused entries are append-only, like the hands' actions: the database refuses UPDATE and
DELETE (PostgreSQL; UPDATE only on the embedded SQLite, whose test flush deletes rows). The
trigger function comes from ledger 0002."""

from django.db import migrations

TABLE = "integrity_refusedentry"


def forwards(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        schema_editor.execute(
            f"CREATE TRIGGER {TABLE}_append_only BEFORE UPDATE OR DELETE ON {TABLE} "
            "FOR EACH ROW EXECUTE FUNCTION brag_append_only()"
        )
    elif vendor == "sqlite":
        schema_editor.execute(
            f"CREATE TRIGGER {TABLE}_append_only BEFORE UPDATE ON {TABLE} "
            f"BEGIN SELECT RAISE(ABORT, 'append_only: UPDATE on {TABLE} is not allowed'); END"
        )


def backwards(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        schema_editor.execute(f"DROP TRIGGER IF EXISTS {TABLE}_append_only ON {TABLE}")
    elif vendor == "sqlite":
        schema_editor.execute(f"DROP TRIGGER IF EXISTS {TABLE}_append_only")


class Migration(migrations.Migration):
    dependencies = [
        ("integrity", "0001_initial"),
        ("ledger", "0002_append_only"),
    ]

    operations = [migrations.RunPython(forwards, backwards)]
