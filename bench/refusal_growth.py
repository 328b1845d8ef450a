"""What one dealer token sending refused actions flat out leaves in the database (issue 29):
``python -m bench.refusal_growth [--seconds 20] [--threads 4]`` on an empty database of its own
(``BENCH_DATABASE_URL``, else a fresh SQLite file), through Django's test client, the write
throttle at its setting. Prints the requests answered by kind and the rows kept."""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.refusal_growth")
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--threads", type=int, default=4)
    args = parser.parse_args(argv)
    workdir = tempfile.mkdtemp(prefix="bench-refusals-")
    # A database of its own: an empty PostgreSQL one named by BENCH_DATABASE_URL, else SQLite.
    os.environ["DATABASE_URL"] = os.environ.get(
        "BENCH_DATABASE_URL", f"sqlite:///{workdir}/db.sqlite3"
    )
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "brag_event.settings")
    os.environ["DJANGO_ALLOWED_HOSTS"] = "testserver"
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connections
    from rest_framework.test import APIClient

    from brag_event.api.models import DeviceToken, IdempotencyRecord, token_hash
    from brag_event.integrity.models import RefusedEntry
    from tests.factories import world

    call_command("migrate", verbosity=0)
    from django.contrib.auth.models import Group, User

    w = world(3)
    dealer = User.objects.create_user("dealer")
    dealer.groups.add(Group.objects.get_or_create(name="dealer")[0])
    w.table.dealers.add(dealer)
    key = DeviceToken.new_key()
    DeviceToken.objects.create(user=dealer, name="t", key_hash=token_hash(key), prefix=key[:6])
    url = f"/api/v1/tables/{w.table.pk}/hands/"
    first = APIClient()
    first.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    started = first.post(url, {}, format="json")  # a hand in play: every start after is refused
    assert started.status_code == 201, started.content
    answers: Counter[int] = Counter()
    lock = threading.Lock()
    stop = time.monotonic() + args.seconds

    def flood() -> None:
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
        while time.monotonic() < stop:
            status = client.post(
                url, {}, format="json", HTTP_IDEMPOTENCY_KEY=uuid.uuid4().hex
            ).status_code
            with lock:
                answers[status] += 1
        connections.close_all()

    threads = [threading.Thread(target=flood) for _ in range(args.threads)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    entries = list(RefusedEntry.objects.values_list("count", flat=True))
    print(
        f"{sum(answers.values())} requests in {args.seconds:g} s: {dict(sorted(answers.items()))}"
    )
    print(f"idempotency records: {IdempotencyRecord.objects.count()}")
    print(f"refused entries: {len(entries)} rows counting {sum(entries)} refusals")
    return 0


if __name__ == "__main__":
    sys.exit(main())
