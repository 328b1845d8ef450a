import ast
import os

import pytest
from django.conf import settings

ENGINES = {
    "postgres": "django.db.backends.postgresql",
    "postgresql": "django.db.backends.postgresql",
    "pgsql": "django.db.backends.postgresql",
    "sqlite": "django.db.backends.sqlite3",
}


def test_database_follows_database_url() -> None:
    engine = settings.DATABASES["default"]["ENGINE"]
    url = os.environ.get("DATABASE_URL")
    if url:
        scheme = url.split("://", 1)[0]
        assert engine == ENGINES[scheme]
    else:
        assert engine == "django.db.backends.sqlite3"


@pytest.mark.django_db
def test_database_is_reachable() -> None:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        assert cursor.fetchone() == (1,)


def test_celery_app_is_configured_from_django_settings() -> None:
    from brag_event.celery import app

    assert app.main == "brag_event"
    assert app.conf.timezone == settings.TIME_ZONE


@pytest.mark.skipif(
    bool(os.environ.get("CELERY_BROKER_URL")), reason="a Celery broker is configured"
)
def test_celery_runs_eagerly_without_a_broker() -> None:
    from brag_event.celery import app

    assert app.conf.task_always_eager is True
    assert app.conf.task_eager_propagates is True

    @app.task
    def add(x: int, y: int) -> int:
        return x + y

    assert add.delay(2, 3).get(timeout=1) == 5


def test_project_package_init_has_no_imports() -> None:
    """brag_event.engine must be importable without Django or Celery."""
    import brag_event

    assert brag_event.__file__ is not None
    with open(brag_event.__file__, encoding="utf-8") as init_file:
        tree = ast.parse(init_file.read())
    imports = [node for node in ast.walk(tree) if isinstance(node, ast.Import | ast.ImportFrom)]
    assert imports == []
