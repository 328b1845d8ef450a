"""The API benchmark's reference endpoints, served by the same gunicorn as the API with the
project's settings (``bench.reference_settings``) and driven by the same clients, so that the
benchmark can say how far an action is from the least a request can cost on this stack:

* ``POST /reference/noop/``: a Django REST framework view that parses the JSON body and answers
  a recorded action answer (the framework, the middleware, JSON in and out; no database);
* ``POST /reference/tpcb/``: the same, plus one pgbench TPC-B transaction (pgbench's built-in
  script: three updates, a select and an insert in one transaction) on pgbench's database,
  through Django's connection — the yardstick's own unit of work, served over HTTP.

The answer is read from the file named by ``BENCH_REFERENCE_ANSWER``; ``BENCH_PGBENCH_SCALE``
is pgbench's ``-s``.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

from django.db import connections, transaction
from django.urls import path
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

ANSWER: Any = json.loads(Path(os.environ["BENCH_REFERENCE_ANSWER"]).read_bytes())
SCALE = int(os.environ.get("BENCH_PGBENCH_SCALE", "10"))

# pgbench's built-in "TPC-B (sort of)" script.
TPCB = (
    "UPDATE pgbench_accounts SET abalance = abalance + %(delta)s WHERE aid = %(aid)s",
    "SELECT abalance FROM pgbench_accounts WHERE aid = %(aid)s",
    "UPDATE pgbench_tellers SET tbalance = tbalance + %(delta)s WHERE tid = %(tid)s",
    "UPDATE pgbench_branches SET bbalance = bbalance + %(delta)s WHERE bid = %(bid)s",
    "INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) "
    "VALUES (%(tid)s, %(bid)s, %(aid)s, %(delta)s, CURRENT_TIMESTAMP)",
)


class Noop(APIView):
    authentication_classes: list[Any] = []
    permission_classes = [AllowAny]

    def post(self, request: Request) -> Response:
        request.data  # noqa: B018 - parse the body, as every write does
        return Response(ANSWER)


class Tpcb(Noop):
    def post(self, request: Request) -> Response:
        request.data  # noqa: B018
        params = {
            "aid": random.randint(1, 100_000 * SCALE),  # nosec B311 - a benchmark's draw
            "bid": random.randint(1, SCALE),  # nosec B311
            "tid": random.randint(1, 10 * SCALE),  # nosec B311
            "delta": random.randint(-5000, 5000),  # nosec B311
        }
        with transaction.atomic(using="pgbench"), connections["pgbench"].cursor() as cursor:
            for statement in TPCB:
                cursor.execute(statement, params)
                if statement.startswith("SELECT"):
                    cursor.fetchone()
        return Response(ANSWER)


urlpatterns = [
    path("reference/noop/", Noop.as_view()),
    path("reference/tpcb/", Tpcb.as_view()),
]
