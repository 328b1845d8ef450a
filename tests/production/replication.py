"""A primary and its hot standby for the standby drills (issue 46): ``bench.clusters``' (shared
with ``bench.event --standby``)."""

from __future__ import annotations

from bench.clusters import (
    DEPLOY,
    STANDBY_NAME,
    Cluster,
    owned_dir,
    primary_with_archive,
    standby_of,
    streaming,
    sync_guard,
    template,
)

__all__ = [
    "DEPLOY",
    "STANDBY_NAME",
    "Cluster",
    "owned_dir",
    "primary_with_archive",
    "standby_of",
    "streaming",
    "sync_guard",
    "template",
]
