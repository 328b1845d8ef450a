"""python manage.py remove_demo — the demo event (made by load_demo) and its accounts, gone."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from brag_event.demo.services import demo_remove


class Command(BaseCommand):
    help = (
        "Remove the demo: the FLASH event made by load_demo, with everything recorded under it, "
        "and its staff accounts (an account used outside the demo is disabled instead). Run it "
        "before the real event; a real event is never touched."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        demo_remove(stdout=self.stdout)
