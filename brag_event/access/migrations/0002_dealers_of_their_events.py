"""The dealers assigned to an event's tables become that event's dealers (``StaffRole``), so
the event's staff page lists them. Group memberships stay: a member of a group keeps that role
for every event (nobody loses access); organisers and supervisors stay staff of every event —
which event they work for is not written anywhere a migration could read."""

from django.db import migrations


def forwards(apps, schema_editor):
    Table = apps.get_model("tables", "Table")
    StaffRole = apps.get_model("access", "StaffRole")
    pairs = set(
        Table.objects.filter(dealers__groups__name="dealer")
        .values_list("dealers", "day__event")
        .distinct()
    )
    taken = set(StaffRole.objects.values_list("user_id", "event_id"))
    StaffRole.objects.bulk_create(
        [
            StaffRole(user_id=user, event_id=event, role="dealer")
            for user, event in sorted(pairs - taken)
            if user is not None
        ]
    )


class Migration(migrations.Migration):
    dependencies = [
        ("access", "0001_staff_roles_per_event"),
        ("tables", "0003_read_versions"),
    ]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
