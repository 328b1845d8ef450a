"""A guard for columns that cache the ledger."""

from __future__ import annotations

from typing import Any, ClassVar

from django.db import models


class LedgerCachedModel(models.Model):
    """Columns named in ``ledger_cached`` mirror the ledger and are only ever changed by
    ``ledger.services`` posting transfers (``col = col + delta`` updates). A plain ``save()`` of
    an object read earlier would write a stale copy back, so ``save()`` of an existing row
    leaves them out."""

    ledger_cached: ClassVar[tuple[str, ...]] = ()

    class Meta:
        abstract = True

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.pk is not None and not self._state.adding:
            fields = kwargs.get("update_fields")
            if fields is None:
                fields = [
                    f.name
                    for f in self._meta.concrete_fields
                    if not f.primary_key and f.name not in self.ledger_cached
                ]
            else:
                fields = [f for f in fields if f not in self.ledger_cached]
            kwargs["update_fields"] = fields
        super().save(*args, **kwargs)
