"""Signals of the close. ``day_close_requested`` is sent when a day close's request commits; its
Celery task is queued by ``tasks.queue_close`` (connected in ``ClosingConfig.ready``), so the
services do not import the task's module that imports them. (``events.signals.day_closed`` is
sent once a day's close is done.)"""

from django.dispatch import Signal

day_close_requested = Signal()  # sender=DayClose, close_id=int
