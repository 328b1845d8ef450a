"""An event's identity for its record (a UUID, each existing event its own), and how each day's
root is computed: days already closed keep the version their root was published with (2)."""

import uuid

from django.db import migrations, models


def fill(apps, schema_editor):
    Event = apps.get_model("events", "Event")
    Day = apps.get_model("events", "Day")
    for event in Event.objects.filter(uid__isnull=True).only("pk"):
        Event.objects.filter(pk=event.pk).update(uid=uuid.uuid4())
    Day.objects.exclude(record_root="").update(record_version=2)


class Migration(migrations.Migration):
    dependencies = [
        ("events", "0007_event_time_zone"),
    ]

    operations = [
        migrations.AddField(
            model_name="day",
            name="record_money_head",
            field=models.CharField(blank=True, editable=False, max_length=64),
        ),
        migrations.AddField(
            model_name="day",
            name="record_money_seq",
            field=models.PositiveIntegerField(blank=True, editable=False, null=True),
        ),
        migrations.AddField(
            model_name="day",
            name="record_version",
            field=models.PositiveSmallIntegerField(default=3, editable=False),
        ),
        migrations.AddField(
            model_name="event",
            name="uid",
            field=models.UUIDField(null=True, editable=False),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="event",
            name="uid",
            field=models.UUIDField(default=uuid.uuid4, editable=False, unique=True),
        ),
    ]
