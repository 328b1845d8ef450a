"""The API's JSON bodies, with a size and a depth limit.

DRF's ``JSONParser`` reads whatever arrives and lets the decoder recurse: a body nested a
thousand levels deep (``[[[[…]]]]``) raises ``RecursionError`` — a 500 — and nothing bounds the
size. Every body of this API is small and flat (the largest is a re-buy's list of consents), so
a body over ``BRAG_JSON_MAX_BYTES`` is refused with 413 and one nested deeper than
``BRAG_JSON_MAX_DEPTH`` with 400, both in the API's error shape and before anything is done."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from rest_framework import exceptions, status
from rest_framework.parsers import JSONParser


class BodyTooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_code = "request_too_large"

    def __init__(self, limit: int) -> None:
        super().__init__(f"The body is larger than {limit} bytes.")
        self.limit = limit


class BodyTooDeep(exceptions.ParseError):
    default_code = "json_too_deep"


def json_depth(value: Any) -> int:
    """How deeply lists and objects nest in ``value`` (a scalar: 0), without recursion."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        depth += 1
        deepest = max(deepest, depth)
        stack.extend((child, depth) for child in children)
    return deepest


class LimitedJSONParser(JSONParser):
    # How a whole number of the body is read (None: ``int``, which stops past 4,300 digits
    # with a parse error).
    parse_int: Any = None

    def limit(self) -> int:
        """The largest body taken, in bytes."""
        return int(settings.BRAG_JSON_MAX_BYTES)

    def parse(
        self,
        stream: Any,
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        limit = self.limit()
        raw = stream.read(limit + 1) if stream is not None else b""
        if len(raw) > limit:
            raise BodyTooLarge(limit)
        encoding = (parser_context or {}).get("encoding", settings.DEFAULT_CHARSET)
        return self.checked(self.loads(raw, encoding))

    def loads(self, raw: bytes, encoding: str) -> Any:
        """The JSON value of the body."""
        try:
            return json.loads(
                raw.decode(encoding), parse_constant=_no_constant, parse_int=self.parse_int
            )
        except RecursionError:
            raise BodyTooDeep(_too_deep()) from None
        except (ValueError, UnicodeDecodeError) as exc:
            raise exceptions.ParseError(f"JSON parse error - {exc}") from None

    def checked(self, data: Any) -> Any:
        """``data`` unless it nests deeper than the API takes."""
        if json_depth(data) > settings.BRAG_JSON_MAX_DEPTH:
            raise BodyTooDeep(_too_deep())
        return data


def _too_deep() -> str:
    return f"The JSON body nests more than {settings.BRAG_JSON_MAX_DEPTH} levels deep."


def _no_constant(name: str) -> Any:
    # NaN and Infinity are not JSON (DRF's own parser refuses them too).
    raise ValueError(f"{name} is not valid JSON")
