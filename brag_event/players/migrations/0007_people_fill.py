"""One person per existing player, and the players' name keys recomputed as look-alike names
are now compared (``players.names.name_key``: Unicode's confusable skeleton)."""

from typing import Any

from django.db import migrations

from brag_event.players.names import name_key


def fill_people(apps: Any, schema_editor: Any) -> None:
    """Each player gets a person of their own name, numbered from 1001 in the order they were
    registered. Two players of one event whose names only now look the same keep both rows
    (their money is theirs): the later one counts as confirmed different, so the standings show
    them with their numbers and the organiser can rename or merge them."""
    Person = apps.get_model("players", "Person")
    Player = apps.get_model("players", "Player")
    top = Person.objects.order_by("-number").values_list("number", flat=True).first()
    number = max(int(top or 0) + 1, 1001)
    taken: set[tuple[int, str]] = set()
    for player in Player.objects.filter(person__isnull=True).order_by("pk").iterator():
        key = name_key(player.name)
        person = Person.objects.create(name=player.name, name_key=key, number=number)
        number += 1
        confirmed = player.removed_at is None and (player.event_id, key) in taken
        if player.removed_at is None:
            taken.add((player.event_id, key))
        Player.objects.filter(pk=player.pk).update(
            person=person, name_key=key, look_alike_confirmed=confirmed
        )


class Migration(migrations.Migration):
    dependencies = [
        ("players", "0006_people"),
    ]

    operations = [
        migrations.RunPython(fill_people, migrations.RunPython.noop),
    ]
