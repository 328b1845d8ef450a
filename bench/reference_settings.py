"""Settings of the API benchmark's reference server (``bench.reference_urls``): the project's
own settings — middleware, REST framework configuration, database options — with the reference
endpoints as the only URLs and pgbench's database as a second connection. Never deployed."""

from __future__ import annotations

import os

from brag_event.settings import *  # noqa: F403
from brag_event.settings import DATABASES

ROOT_URLCONF = "bench.reference_urls"
DATABASES["pgbench"] = {**DATABASES["default"], "NAME": os.environ["BENCH_PGBENCH_DB"]}
