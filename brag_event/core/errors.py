"""One error type for services: a stable code, a message a dealer or organiser understands,
details, and the HTTP status an API answers with."""

from __future__ import annotations

from typing import Any

from brag_event.engine import EngineError


class ServiceError(Exception):
    status = 400

    def __init__(
        self, code: str, message: str, *, details: dict[str, Any] | None = None, status: int = 0
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.details = details or {}
        if status:
            self.status = status

    @classmethod
    def from_engine(cls, err: EngineError) -> ServiceError:
        details: dict[str, Any] = dict(err.to_dict().get("details", {}))
        if err.index is not None:
            details["index"] = err.index
        return cls(err.code, err.message, details=details, status=400)

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "details": self.details}


class Conflict(ServiceError):
    status = 409


class StaleHand(Conflict):
    """The hand moved on since the screen was drawn. The API answers with the hand's current
    state (read after the refused attempt was rolled back), so the tablet can redraw."""

    def __init__(self, message: str, *, hand_id: int, expected_seq: int) -> None:
        super().__init__("stale_sequence", message, details={"expected_seq": expected_seq})
        self.hand_id = hand_id


class NotFound(ServiceError):
    status = 404


class Forbidden(ServiceError):
    status = 403


class Busy(ServiceError):
    """PostgreSQL gave up on the transaction — a deadlock, or a serialization failure in a
    snapshot — and running it again a few times did not get it through (see
    ``core.transactions``). Nothing was saved; the same request can be sent again."""

    status = 503

    def __init__(self) -> None:
        super().__init__(
            "busy",
            "Someone else was changing the same table, player or day at this very moment; "
            "nothing was saved. Try again.",
        )
