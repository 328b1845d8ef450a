"""Settings of ``make bench-event``'s server: the production settings (PostgreSQL, Redis cache
and broker, DEBUG off, secure cookies behind a proxy that says HTTPS), as ``deploy/`` runs them,
with one addition: ``bench.event_timing`` says in a ``Server-Timing`` header how much CPU the
worker spent on each request, so that the benchmark can give the CPU of each class of request
under the mixed load. Never deployed."""

from __future__ import annotations

import os
from pathlib import Path

from brag_event.settings_production import *  # noqa: F403
from brag_event.settings_production import MIDDLEWARE, STATIC_ROOT

MIDDLEWARE = ["bench.event_timing.CpuTiming", *MIDDLEWARE]
# collectstatic's manifest (the production storage needs it) in the benchmark's own directory.
STATIC_ROOT = Path(os.environ.get("BENCH_STATIC_ROOT", STATIC_ROOT))

# A request that fails is written to gunicorn's error log (the benchmark reports those lines).
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"stderr": {"class": "logging.StreamHandler"}},
    "loggers": {"django.request": {"handlers": ["stderr"], "level": "ERROR"}},
}
