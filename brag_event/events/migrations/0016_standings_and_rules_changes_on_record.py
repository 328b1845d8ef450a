# A change of the day's rules during the day, on the record (its chain fields; chained before
# its row is written). The standings a close takes, on the record (closing.standings): the
# entry's fields and where it is. Days that closed before (and imported days) have no entry on their own chain, which is
# published: their standings, as they are stored now, are sealed on the event's money record,
# in day order (the record states them as of this migration; their published roots took the
# record's seq at their close, and are unaffected).

import django.utils.timezone
from django.db import migrations, models

SEALED = "standings_sealed"  # closing.standings.SEALED
ROW = (
    "player_id",
    "position",
    "rank",
    "total",
    "change",
    "hands_played",
    "hands_won",
    "mark",
    "out_after",
    "qualified",
)


def seal(apps, schema_editor):
    # The chain's own functions (the engine's: events imports none of the apps above it), as
    # events.record.record_extend uses them.
    from brag_event.engine import chain

    Day = apps.get_model("events", "Day")
    DayClose = apps.get_model("events", "DayClose")
    MoneyRecord = apps.get_model("ledger", "MoneyRecord")
    Snapshot = apps.get_model("players", "StandingSnapshot")
    Qualification = apps.get_model("players", "Qualification")
    closes = (
        DayClose.objects.filter(day__status="closed", standings_seq__isnull=True)
        .select_related("day__event")
        .order_by("day__event_id", "day__number")
    )
    for close in closes:
        day = close.day
        rows = [
            list(r)
            for r in Snapshot.objects.filter(day=day)
            .order_by("position", "player_id")
            .values_list(*ROW)
        ]
        following = (
            Day.objects.filter(event_id=day.event_id, number__gt=day.number)
            .order_by("number")
            .first()
        )
        qualifiers = []
        if following is not None:
            qualifiers = [
                list(q)
                for q in Qualification.objects.filter(day=following, seq__isnull=True, hash="")
                .order_by("player_id")
                .values_list("player_id", "reason")
            ]
        fields = {"rows": rows, "qualifiers": qualifiers}
        if day.event.imported_at is not None:  # its field, as the file gave it
            fields["field"] = [
                list(q)
                for q in Qualification.objects.filter(day=day, seq__isnull=True, hash="")
                .order_by("player_id")
                .values_list("player_id", "reason")
            ]
        record = MoneyRecord.objects.filter(event_id=day.event_id).first()
        if record is None:
            genesis = chain.money_record_genesis(str(day.event.uid))
            record = MoneyRecord.objects.create(event_id=day.event_id, head=genesis)
        seq = record.next_seq
        digest = chain.link(record.head, chain.entry_content(SEALED, seq, fields))
        record.head, record.next_seq = digest, seq + 1
        record.save(update_fields=["head", "next_seq"])
        DayClose.objects.filter(pk=close.pk).update(
            standings=fields, standings_seq=seq, standings_hash=digest, standings_sealed=True
        )


class Migration(migrations.Migration):
    dependencies = [
        ("events", "0015_day_identity_fixed_again_on_sqlite"),
        ("players", "0012_people_on_record_and_checkin"),
        ("ledger", "0008_alter_transfer_kind"),
    ]

    operations = [
        migrations.AddField(
            model_name="dayruleschange",
            name="record_hash",
            field=models.CharField(
                blank=True, db_default="", default="", editable=False, max_length=64
            ),
        ),
        migrations.AddField(
            model_name="dayruleschange",
            name="record_seq",
            field=models.PositiveIntegerField(blank=True, editable=False, null=True),
        ),
        # A default rather than auto_now_add: the change is chained before its row is written.
        migrations.AlterField(
            model_name="dayruleschange",
            name="changed_at",
            field=models.DateTimeField(default=django.utils.timezone.now),
        ),
        migrations.AddField(
            model_name="dayclose",
            name="standings",
            field=models.JSONField(
                blank=True, editable=False, help_text="The entry's fields, as chained", null=True
            ),
        ),
        migrations.AddField(
            model_name="dayclose",
            name="standings_hash",
            field=models.CharField(blank=True, editable=False, max_length=64),
        ),
        migrations.AddField(
            model_name="dayclose",
            name="standings_seq",
            field=models.PositiveIntegerField(blank=True, editable=False, null=True),
        ),
        migrations.AddField(
            model_name="dayclose",
            name="standings_sealed",
            field=models.BooleanField(
                default=False,
                editable=False,
                help_text="The entry is on the event's money record, not the day's own chain: "
                "a day closed before standings were chained, or imported from a results file",
            ),
        ),
        migrations.RunPython(seal, migrations.RunPython.noop),
    ]
