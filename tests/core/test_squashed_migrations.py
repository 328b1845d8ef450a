"""The squashed migrations (``replaces``): a fresh database takes the squash, a database migrated
before it goes on through the files it replaces, and both end in the same schema.

Django applies a squash only where none of the files it replaces is applied; otherwise it uses
those files. So each replaced file must still be there, and the models the squashed graph
builds must be the ones the replaced files build (Django's own state of every model: fields,
options, constraints, indexes). What the squashes leave out (data steps over rows that a fresh
table cannot hold) is said in each squash's header."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.db.migrations.loader import MigrationLoader

OURS = "brag_event."


def squashes(loader: MigrationLoader) -> dict[tuple[str, str], Any]:
    return {
        key: migration
        for key, migration in loader.disk_migrations.items()
        if migration.replaces and type(migration).__module__.startswith(OURS)
    }


class Unsquashed(MigrationLoader):
    """The history as the files the squashes replace tell it, as a database migrated before
    the squashes went through it: the squashes taken out, and a later file that names a squash
    depending on the last file it replaces instead."""

    def load_disk(self) -> None:
        super().load_disk()
        gone = {key: m for key, m in squashes(self).items()}
        for key in gone:
            del self.disk_migrations[key]
        last = {key: (m.app_label, m.replaces[-1][1]) for key, m in gone.items()}
        for migration in self.disk_migrations.values():
            # Each loaded Migration holds its own copy of its class's list (Migration.__init__).
            deps: list[Any] = [last.get((d[0], d[1]), d) for d in migration.dependencies]
            setattr(migration, "dependencies", deps)  # noqa: B010 - a ClassVar to mypy


def test_every_app_but_the_tables_has_its_history_squashed() -> None:
    """The tables' files cannot be squashed in one: the ledger's squash depends on tables 0004
    and tables 0008 depends on ledger 0008, inside the ledger's squash (docs/architecture.md)."""
    loader = MigrationLoader(None, ignore_no_migrations=True)
    squashed = {app for app, _name in squashes(loader)}
    assert {"audit", "events", "players", "ledger", "hands", "floor"} <= squashed


def test_every_replaced_file_is_still_there() -> None:
    loader = MigrationLoader(None, ignore_no_migrations=True, replace_migrations=False)
    found = squashes(loader)
    assert found
    for key, migration in found.items():
        missing = [r for r in migration.replaces if r not in loader.disk_migrations]
        assert not missing, (key, missing)


def test_the_squashed_history_builds_the_same_models_as_the_files_it_replaces() -> None:
    squashed = MigrationLoader(None, ignore_no_migrations=True, replace_migrations=True)
    whole = Unsquashed(None, ignore_no_migrations=True, replace_migrations=False)
    assert not squashes(whole)
    # Each graph applied whole, as a fresh database takes it.
    one = squashed.project_state()
    other = whole.project_state()
    assert set(one.models) == set(other.models)
    assert ("hands", "hand") in one.models
    for key in sorted(other.models):
        assert one.models[key] == other.models[key], key
    # The squashes are what the fresh graph takes, and none of the files they replace.
    taken = set(squashed.graph.nodes)
    for key, migration in squashes(squashed).items():
        assert key in taken, key
        assert not taken & {tuple(r) for r in migration.replaces}, key


@pytest.mark.django_db
def test_the_test_database_took_the_squashes_and_counts_the_replaced_files_applied() -> None:
    """The test database was built fresh: it records each squash as applied, and Django counts
    every file a squash replaces as applied too, so ``migrate`` has nothing left to do."""
    loader = MigrationLoader(connection)
    for key in squashes(loader):
        assert key in loader.applied_migrations, key
    plan = loader.graph.leaf_nodes()
    assert all(node in loader.applied_migrations for node in plan)
