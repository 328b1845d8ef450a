"""Signals of events. ``day_closed`` is sent once a day's close is done (``closing.services``);
listeners (the integrity monitor) queue their own work on commit."""

from django.dispatch import Signal

day_closed = Signal()  # sender=Day, day=Day
