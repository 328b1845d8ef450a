"""Celery tasks of the API: they take ids, call services, and are safe to run twice."""

from __future__ import annotations

from celery import shared_task

from .services import idempotency_prune


@shared_task(name="api.idempotency_prune")
def idempotency_prune_task() -> int:
    """Celery beat's prune of the idempotency records past their window."""
    return idempotency_prune()
