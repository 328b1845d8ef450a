"""Settings of ``make bench-event``'s server: the production settings (PostgreSQL, Redis cache
and broker, DEBUG off, secure cookies behind a proxy that says HTTPS), as ``deploy/`` runs them,
with one addition: ``bench.event_timing`` says in a ``Server-Timing`` header how much CPU the
worker spent on each request, so that the benchmark can give the CPU of each class of request
under the mixed load. Never deployed."""

from __future__ import annotations

from brag_event.settings_production import *  # noqa: F403
from brag_event.settings_production import MIDDLEWARE

MIDDLEWARE = ["bench.event_timing.CpuTiming", *MIDDLEWARE]
