"""Health endpoints for load balancers and orchestration.

``/healthz``: the process answers (no dependency is touched) — restart it if this fails.
``/readyz``: it can serve — the database answers and has every migration applied — take it out
of rotation while this fails. It also reports Redis — the cache (``checks.cache``) and the
Celery broker (``checks.broker``) — without failing on them: the tablets, the actions, the
standings and sign-in work without either (docs/operations.md, "When Redis is down"), so an
outage of Redis makes the answer ``"degraded"``, with the parts named, and keeps the server in
rotation. So does an alert about the standby, the WAL archive or the last base backup
(``checks.replication``, core.replication: its ``alerts`` say why in words). Monitoring alerts
on ``degraded``."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.cache import cache, caches
from django.db import DatabaseError, connection
from django.db.migrations.executor import MigrationExecutor
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache

from .forms import takes
from .replication import replication_status


@takes()
@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"status": "ok"})


def _database() -> dict[str, Any]:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
        pending = MigrationExecutor(connection).migration_plan(
            MigrationExecutor(connection).loader.graph.leaf_nodes()
        )
    except DatabaseError as err:
        connection.close()  # a broken connection is not reused by the next request
        return {"ok": False, "error": type(err).__name__}
    if pending:
        return {"ok": False, "error": f"{len(pending)} migrations not applied"}
    return {"ok": True}


def _replication() -> dict[str, Any]:
    """The standby, the WAL archive and the last base backup (core.replication): an alert makes
    the answer "degraded" — the hall plays on — and says why."""
    try:
        status = replication_status()
    except DatabaseError as err:
        connection.close()
        return {"ok": False, "error": type(err).__name__}
    if not status.applies:
        return {"ok": True, "applies": False}
    return status.as_json()


def _broker() -> dict[str, Any]:
    if getattr(settings, "CELERY_TASK_ALWAYS_EAGER", False):
        return {"ok": True, "mode": "eager"}
    from brag_event.celery import app

    try:
        with app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, timeout=2)
    except Exception as err:  # any transport error means: not ready
        return {"ok": False, "error": type(err).__name__}
    return {"ok": True}


def _cache() -> dict[str, Any]:
    # Django's backend it is (or extends): redis, db, locmem.
    backend = next(
        (
            c.__module__.rsplit(".", 1)[-1]
            for c in type(caches["default"]).__mro__
            if c.__module__.startswith("django.core.cache.backends.")
            and c.__module__ != "django.core.cache.backends.base"
        ),
        "other",
    )
    try:
        cache.set("readyz", "ok", 10)
        if cache.get("readyz") != "ok":
            return {"ok": False, "backend": backend, "error": "wrote a value and read another"}
    except Exception as err:  # any client error means: unreachable
        return {"ok": False, "backend": backend, "error": type(err).__name__}
    return {"ok": True, "backend": backend}


@takes()
@never_cache
def readyz(request: HttpRequest) -> JsonResponse:
    checks = {"database": _database(), "cache": _cache(), "broker": _broker()}
    if checks["database"]["ok"]:
        checks["replication"] = _replication()
    ready = checks["database"]["ok"]
    degraded = [name for name, check in checks.items() if not check["ok"]]
    status = "not ready" if not ready else ("degraded" if degraded else "ready")
    return JsonResponse(
        {"status": status, "degraded": degraded, "checks": checks},
        status=200 if ready else 503,
    )
