"""Append-only tables: the database itself refuses UPDATE and DELETE on them.

PostgreSQL: row triggers on UPDATE and DELETE (TRUNCATE, an administrator's operation that test
databases use to reset, stays possible). SQLite (the embedded development default): UPDATE
triggers only, because Django's test flush on SQLite deletes rows."""

from django.db import migrations

TABLES = [
    "ledger_transfer",
    "hands_handaction",
    "hands_actionvoid",
    "audit_auditentry",
    "events_dayruleschange",
    "tables_rebuyconsent",
]

PG_FUNCTION = """
CREATE OR REPLACE FUNCTION brag_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'append_only: %% on %% is not allowed', TG_OP, TG_TABLE_NAME
        USING ERRCODE = 'restrict_violation';
END;
$$ LANGUAGE plpgsql;
"""


def forwards(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        schema_editor.execute(PG_FUNCTION)
        for table in TABLES:
            schema_editor.execute(
                f"CREATE TRIGGER {table}_append_only BEFORE UPDATE OR DELETE ON {table} "
                "FOR EACH ROW EXECUTE FUNCTION brag_append_only()"
            )
    elif vendor == "sqlite":
        for table in TABLES:
            schema_editor.execute(
                f"CREATE TRIGGER {table}_append_only BEFORE UPDATE ON {table} "
                f"BEGIN SELECT RAISE(ABORT, 'append_only: UPDATE on {table} is not allowed'); END"
            )


def backwards(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    for table in TABLES:
        if vendor == "postgresql":
            schema_editor.execute(f"DROP TRIGGER IF EXISTS {table}_append_only ON {table}")
        elif vendor == "sqlite":
            schema_editor.execute(f"DROP TRIGGER IF EXISTS {table}_append_only")
    if vendor == "postgresql":
        schema_editor.execute("DROP FUNCTION IF EXISTS brag_append_only()")


class Migration(migrations.Migration):
    dependencies = [
        ("ledger", "0001_initial"),
        ("hands", "0001_initial"),
        ("audit", "0001_initial"),
        ("events", "0001_initial"),
        ("tables", "0001_initial"),
    ]

    operations = [migrations.RunPython(forwards, backwards)]
