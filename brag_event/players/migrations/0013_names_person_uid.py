"""Each person's identity that travels (Person.uid, carried by the results exchange file):
added empty, a new UUID given to every person here, then required and unique."""

import uuid

from django.db import migrations, models


def give_uids(apps, schema_editor):
    Person = apps.get_model("players", "Person")
    people = list(Person.objects.filter(uid__isnull=True).only("pk"))
    for person in people:
        person.uid = uuid.uuid4()
    Person.objects.bulk_update(people, ["uid"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [
        ("players", "0012_identities_on_money_record"),
        # Beside check-in's 0013 (another change of the same time): after it, one line of
        # migrations.
        ("players", "0013_checkin_windows_and_checkins"),
    ]

    operations = [
        migrations.AddField(
            model_name="person",
            name="uid",
            field=models.UUIDField(editable=False, null=True),
        ),
        migrations.RunPython(give_uids, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="person",
            name="uid",
            field=models.UUIDField(
                default=uuid.uuid4,
                editable=False,
                help_text="Who the person is wherever their results go: carried by the results "
                "exchange file, which finds them by it in another installation (docs/people.md)",
                unique=True,
            ),
        ),
        migrations.AlterField(
            model_name="person",
            name="number",
            field=models.PositiveIntegerField(
                help_text="Membership number: stable, unique, given automatically when none is "
                "said; a label of this installation's (another numbers its people on its own)",
                unique=True,
            ),
        ),
    ]
