"""Signals of events. ``day_close_requested`` is sent when a day close's request commits (its
Celery task is queued by ``tasks.queue_close``); ``day_closed`` once a day's close is done
(``closing``); listeners (the integrity monitor) queue their own work on commit."""

from django.dispatch import Signal

day_close_requested = Signal()  # sender=DayClose, close_id=int
day_closed = Signal()  # sender=Day, day=Day
