"""Who each player is, on the record: identities and person merges chained on the event's money
record (players registered before are sealed here), qualifications and the standings taken at a
close with their marks; check-in windows and check-ins; each person's identity that travels
(Person.uid, carried by the results exchange file: added empty, a new UUID given to every person
here, then required and unique)."""

import uuid

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def seal(apps, schema_editor):
    """Every player registered before identities were chained goes onto their event's money
    record now, as the person they are now, in id order (the record states who they are as of
    this migration; closed days' roots took the record's seq at their close)."""
    from brag_event.events.record import record_extend, record_of
    from brag_event.players.record import PLAYER, player_fields

    Event = apps.get_model("events", "Event")
    MoneyRecord = apps.get_model("ledger", "MoneyRecord")
    Player = apps.get_model("players", "Player")
    for event_id, uid in Event.objects.order_by("pk").values_list("pk", "uid"):
        rows = list(
            Player.objects.filter(event_id=event_id, person_seq__isnull=True)
            .order_by("pk")
            .values_list("pk", "person_id")
        )
        if not rows:
            continue
        record = record_of(MoneyRecord, event_id, str(uid))
        stamps = record_extend(record, PLAYER, [player_fields(pk, person) for pk, person in rows])
        for (pk, _person), (seq, digest) in zip(rows, stamps, strict=True):
            Player.objects.filter(pk=pk).update(person_seq=seq, person_hash=digest)


def give_uids(apps, schema_editor):
    Person = apps.get_model("players", "Person")
    people = list(Person.objects.filter(uid__isnull=True).only("pk"))
    for person in people:
        person.uid = uuid.uuid4()
    Person.objects.bulk_update(people, ["uid"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [
        ("ledger", "0008_alter_transfer_kind"),
        ("events", "0015_day_identity_fixed_again_on_sqlite"),
        ("players", "0011_merge_20261126_1149"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="player",
            name="person_hash",
            field=models.CharField(
                blank=True, db_default="", default="", editable=False, max_length=64
            ),
        ),
        migrations.AddField(
            model_name="player",
            name="person_seq",
            field=models.PositiveIntegerField(blank=True, editable=False, null=True),
        ),
        migrations.CreateModel(
            name="PersonMerge",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "players",
                    models.JSONField(help_text="The event's players moved: [player id, …]"),
                ),
                ("merged_at", models.DateTimeField(auto_now_add=True)),
                ("seq", models.PositiveIntegerField(blank=True, null=True)),
                ("hash", models.CharField(blank=True, max_length=64)),
                (
                    "event",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="person_merges",
                        to="events.event",
                    ),
                ),
                (
                    "kept",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="players.person",
                    ),
                ),
                (
                    "merged_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "removed",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="players.person",
                    ),
                ),
            ],
            options={
                "ordering": ["merged_at", "id"],
            },
        ),
        migrations.AddField(
            model_name="qualification",
            name="created_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="qualification",
            name="created_by",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.AddField(
            model_name="qualification",
            name="hash",
            field=models.CharField(blank=True, editable=False, max_length=64),
        ),
        migrations.AddField(
            model_name="qualification",
            name="seq",
            field=models.PositiveIntegerField(blank=True, editable=False, null=True),
        ),
        migrations.AddField(
            model_name="standingsnapshot",
            name="mark",
            field=models.CharField(
                blank=True,
                help_text="The player's mark at the close (players.results.MARKS; empty: kept before marks were)",
                max_length=16,
            ),
        ),
        migrations.AddField(
            model_name="standingsnapshot",
            name="out_after",
            field=models.PositiveSmallIntegerField(
                blank=True, help_text="Out at an earlier cut: the day after which", null=True
            ),
        ),
        migrations.AddField(
            model_name="standingsnapshot",
            name="position",
            field=models.PositiveIntegerField(
                default=0,
                help_text="The row's place in the day's order (0: kept before the order was)",
            ),
        ),
        migrations.RunPython(seal, migrations.RunPython.noop),
        migrations.CreateModel(
            name="CheckIn",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "how",
                    models.CharField(
                        choices=[("page", "from their own page"), ("desk", "at the desk")],
                        max_length=4,
                    ),
                ),
                ("at", models.DateTimeField()),
                ("seq", models.PositiveIntegerField(blank=True, editable=False, null=True)),
                ("hash", models.CharField(blank=True, editable=False, max_length=64)),
                (
                    "by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "day",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="checkins",
                        to="events.day",
                    ),
                ),
                (
                    "player",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="checkins",
                        to="players.player",
                    ),
                ),
            ],
            options={
                "constraints": [
                    models.UniqueConstraint(fields=("day", "player"), name="checkin_once_a_day")
                ],
            },
        ),
        migrations.CreateModel(
            name="CheckInWindow",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("opens_at", models.DateTimeField()),
                ("closes_at", models.DateTimeField()),
                (
                    "draw_checked_in_only",
                    models.BooleanField(
                        default=True, help_text="The seating draw seats only the players checked in"
                    ),
                ),
                ("set_at", models.DateTimeField()),
                (
                    "day",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="checkin_window",
                        to="events.day",
                    ),
                ),
                (
                    "set_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(("closes_at__gt", models.F("opens_at"))),
                        name="checkin_window_closes_after_it_opens",
                    )
                ],
            },
        ),
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
