"""Settings of ``make bench-pieces``' measured process (``bench.pieces``): the project's own
settings, with pgbench's database as a second connection and the reference endpoints
(``bench.reference_urls``) served beside the project's URLs — so that an action and one TPC-B
transaction go through the same middleware, REST framework and database options. Never
deployed."""

from __future__ import annotations

import os

from brag_event.settings import *  # noqa: F403
from brag_event.settings import DATABASES

ROOT_URLCONF = "bench.pieces_urls"
DATABASES["pgbench"] = {**DATABASES["default"], "NAME": os.environ["BENCH_PGBENCH_DB"]}
