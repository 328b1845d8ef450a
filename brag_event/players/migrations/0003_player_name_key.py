"""Players' names normalised, and unique per event case-insensitively (``players.names``)."""

from typing import Any

from django.db import migrations, models

from brag_event.players.names import player_name_clean, player_name_key


def fill_keys(apps: Any, schema_editor: Any) -> None:
    """Clean every stored name and give it its key. Players registered before this change whose
    names now look the same keep both rows (their money is theirs): the later one's key gets its
    id appended, so the constraint holds and the organiser can rename one of them."""
    Player = apps.get_model("players", "Player")
    taken: set[tuple[int, str]] = set()
    for player in Player.objects.order_by("pk").iterator():
        name = player_name_clean(player.name) or f"Player {player.pk}"
        key = player_name_key(name)
        if (player.event_id, key) in taken:
            key = f"{key}#{player.pk}"
        taken.add((player.event_id, key))
        Player.objects.filter(pk=player.pk).update(name=name[:80], name_key=key)


class Migration(migrations.Migration):
    dependencies = [
        ("players", "0002_qualification_standing_standingsnapshot"),
    ]

    operations = [
        migrations.AddField(
            model_name="player",
            name="name_key",
            field=models.CharField(
                default="",
                editable=False,
                help_text="The name normalised and case-folded: unique in an event (players.names)",
                max_length=240,
            ),
            preserve_default=False,
        ),
        migrations.RemoveConstraint(model_name="player", name="player_name_unique"),
        migrations.RunPython(fill_keys, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="player",
            constraint=models.UniqueConstraint(
                fields=("event", "name_key"), name="player_name_key_unique"
            ),
        ),
    ]
