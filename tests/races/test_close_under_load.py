"""A day close while the cashier issues money as fast as four organisers can (issue 29): the
close's last step reads one snapshot of the ledger, and every issue moves the event's version
row. It used to bump that row inside its snapshot, so each issue committed meanwhile overtook it
(a serialization failure), every retry was overtaken again, and the close gave up ``busy`` with
the day left closing. Now it finishes on its first run, whatever the cashier does."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable

import pytest

from brag_event.closing.services import day_close_request
from brag_event.events.models import Day, DayClose
from brag_event.ledger.audit import ledger_audit
from brag_event.players.models import Player
from brag_event.players.services import player_issue_money

from .floor import floor, problems
from .harness import Outcome, crashes, run_all

# slow: a close raced by four cashiers on PostgreSQL
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

ISSUERS = 4
ISSUES = int(os.environ.get("BRAG_RACE_ISSUES", "150"))  # each, as in the issue's report


def test_a_close_against_four_cashiers_issuing_150_times_each() -> None:
    f = floor()
    players = [f.player(name).pk for name in ("Andy", "Bill", "Chris", "Gina")]
    day_id = f.day.pk
    started = threading.Event()
    issued: list[int] = [0] * ISSUERS
    ended: dict[str, float] = {}

    def cashier(i: int) -> Callable[[], int]:
        def job() -> int:
            for n in range(ISSUES):
                player_issue_money(player=Player.objects.get(pk=players[i]), amount=1, by=None)
                issued[i] += 1
                if n == ISSUES // 10:
                    started.set()  # the close starts once the cashiers are in full swing
            ended[f"cashier {i}"] = time.monotonic()
            return issued[i]

        return job

    def close() -> str:
        started.wait(timeout=30)
        # Asked while money is being issued; its task runs eagerly here, on commit.
        status = day_close_request(day=Day.objects.get(pk=day_id), by=None).status
        ended["close"] = time.monotonic()
        return status

    outcomes: list[Outcome] = run_all(close, *(cashier(i) for i in range(ISSUERS)), wait=300)
    assert not crashes(outcomes), "\n".join(crashes(outcomes))
    assert [o.kind for o in outcomes] == ["ok"] * (ISSUERS + 1), outcomes
    assert issued == [ISSUES] * ISSUERS  # the cashiers were never refused
    # The whole close, its audit included, ran while every cashier was still issuing.
    assert all(ended[f"cashier {i}"] > ended["close"] for i in range(ISSUERS)), ended
    close_row = DayClose.objects.get(day_id=day_id)
    # Done on its first run: never overtaken, never given up and run again.
    assert close_row.status == DayClose.Status.DONE, (close_row.status, close_row.step)
    assert close_row.runs == 1, close_row.runs
    assert Day.objects.get(pk=day_id).status == "closed"
    assert ledger_audit(event=f.event).ok
    assert not problems(f.event)
