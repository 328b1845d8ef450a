"""The benchmark's CPU meter: ``Server-Timing: cpu;dur=<ms>`` on every answer, the CPU time
(user + system) the gunicorn worker process spent between receiving the request and returning
the answer. A sync worker serves one request at a time, so that is the request's own CPU in
Django and the project's code (not gunicorn's parsing, nor PostgreSQL's or Redis's own CPU)."""

from __future__ import annotations

import time
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse


class CpuTiming:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        began = time.process_time()
        response = self.get_response(request)
        response["Server-Timing"] = f"cpu;dur={(time.process_time() - began) * 1000:.3f}"
        return response
