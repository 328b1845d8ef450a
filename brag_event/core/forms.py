"""Form fields every page shares, and how a page declares its inputs.

Every input a person sends to a page — a form's fields or the query string — goes through a Django
form that knows its types and ranges (``docs/operations.md``, "Security"). A view declares those
forms with ``@takes(query=…, post=…)``: the view then parses them, and the hostile-input test
(``tests/core/test_hostile_input.py``) finds them from the URL configuration, so a page with
inputs but no declared form fails it."""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from django import forms
from django.core.exceptions import ValidationError
from django.forms import BaseForm
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

V = TypeVar("V", bound=Callable[..., Any])

WHOLE_NUMBER = "Enter a whole number, with the digits 0–9 only."


def is_ascii_digits(text: str) -> bool:
    """Python's ``int()`` also takes "²", "١٢", "1_000", " +7 "; people's input takes 0–9 only."""
    return text.isascii() and text.isdigit()


class WholeNumberField(forms.IntegerField):
    """A whole number written with the ASCII digits 0–9 and nothing else (no sign, no decimal
    point, no exponent, no other script's digits); leading and trailing spaces are ignored."""

    default_error_messages = {"invalid": WHOLE_NUMBER}

    def __init__(self, **kwargs: Any) -> None:
        attrs = {"inputmode": "numeric", "autocomplete": "off"}
        kwargs.setdefault("widget", forms.TextInput(attrs=attrs))
        super().__init__(**kwargs)

    def to_python(self, value: Any) -> int | None:
        if value in self.empty_values:
            return None
        text = str(value).strip()
        if not text:
            return None
        # Longer than any bound of ours: refused before int() parses a huge string.
        if not is_ascii_digits(text) or len(text) > 30:
            raise ValidationError(self.error_messages["invalid"], code="invalid")
        return int(text)


class LongSelect(forms.Select):
    """A ``<select>`` of hundreds of options (the time zones) written as Django's ``Select``
    writes it, byte for byte, without a template per option — and its options written once per
    list and choice (``_options``): Django renders each ``<option>`` through its own template and
    builds a dict for each first, which made most of the new-event page's time (two lists of
    ~600 zones). Options in groups are left to Django."""

    def render(
        self,
        name: str,
        value: Any,
        attrs: dict[str, Any] | None = None,
        renderer: Any = None,
    ) -> SafeString:
        choices = tuple(self.choices)
        if self.allow_multiple_selected or any(
            isinstance(label, (list, tuple)) for _value, label in choices
        ):
            return super().render(name, value, attrs, renderer)
        listed = tuple(("" if v is None else str(v), str(label)) for v, label in choices)
        final = self.build_attrs(self.attrs, attrs)
        return format_html(
            '<select name="{}"{}>{}\n</select>',
            name,
            _attrs(final),
            _options(listed, tuple(self.format_value(value))),
        )


@functools.lru_cache(maxsize=32)
def _options(listed: tuple[tuple[str, str], ...], value: tuple[str, ...]) -> SafeString:
    """The ``<option>``s of ``listed`` (value, label) with the first whose value is among
    ``value`` selected, as Django's ``Select`` writes them."""
    chosen = next((i for i, (v, _label) in enumerate(listed) if v in value), None)
    return format_html_join(
        "",
        '\n  <option value="{}"{}>{}</option>\n',
        ((v, SELECTED if i == chosen else "", label) for i, (v, label) in enumerate(listed)),
    )


SELECTED = SafeString(" selected")


def _attrs(attrs: dict[str, Any]) -> SafeString:
    """A widget's attributes as Django's ``attrs.html`` writes them."""
    return format_html_join(
        "",
        " {}{}",
        (
            (name, "" if value is True else format_html('="{}"', str(value)))
            for name, value in attrs.items()
            if value is not False
        ),
    )


ID_MAX = 2**63 - 1  # the database's row ids are 64-bit


def is_row_id(value: Any) -> bool:
    """Digits 0–9 within 64 bits: SQLite raises OverflowError on a larger number."""
    text = str(value)
    return is_ascii_digits(text) and len(text) <= 19 and int(text) <= ID_MAX


class IdChoiceField(forms.ModelChoiceField):  # type: ignore[type-arg]
    """A choice of one row by its id, written with the digits 0–9 only."""

    def to_python(self, value: Any) -> Any:
        if value not in self.empty_values and not is_row_id(value):
            raise ValidationError(self.error_messages["invalid_choice"], code="invalid_choice")
        return super().to_python(value)


class IdMultipleChoiceField(forms.ModelMultipleChoiceField):  # type: ignore[type-arg]
    """A choice of rows by their ids, each written with the digits 0–9 only."""

    def _check_values(self, value: Any) -> Any:
        for pk in value:
            if not is_row_id(pk):
                raise ValidationError(
                    self.error_messages["invalid_choice"],
                    code="invalid_choice",
                    params={"value": str(pk)[:40]},
                )
        return super()._check_values(value)  # type: ignore[misc]


# ------------------------------------------------------------------ what a view takes

FORM_FIELD = "form"  # the hidden field naming which of a page's forms was sent


@dataclass(frozen=True)
class Inputs:
    """The forms a view parses: ``query`` for its query string, ``post`` for what is posted,
    keyed by the value of the page's hidden ``form`` field ("" when the page has one form)."""

    query: type[forms.Form] | None = None
    post: Mapping[str, type[forms.Form]] = field(default_factory=dict)

    def fields(self) -> set[str]:
        names = set(self.query.base_fields) if self.query else set()
        for form in self.post.values():
            names |= set(form.base_fields)
        if len(self.post) > 1 or any(self.post):
            names.add(FORM_FIELD)  # which form was posted (``posted_form`` reads it)
        return names


def takes(
    *,
    query: type[forms.Form] | None = None,
    post: type[forms.Form] | Mapping[str, type[forms.Form]] | None = None,
) -> Callable[[V], V]:
    """Declare what a view reads from a person (``@takes()``: nothing)."""
    posted: Mapping[str, type[forms.Form]] = (
        {} if post is None else post if isinstance(post, Mapping) else {"": post}
    )

    def mark(view: V) -> V:
        view.inputs = Inputs(query=query, post=dict(posted))  # type: ignore[attr-defined]
        return view

    return mark


class _Which(forms.Form):
    form = forms.CharField(max_length=40)


def posted_form(request: HttpRequest, choices: Mapping[str, type[forms.Form]]) -> str | None:
    """Which of a page's forms was posted: its key in ``choices``, or ``None`` if none is."""
    if list(choices) == [""]:
        return ""
    which = _Which(request.POST)
    if which.is_valid() and which.cleaned_data["form"] in choices:
        return str(which.cleaned_data["form"])
    return None


def bad_request(request: HttpRequest, form: BaseForm | None = None) -> HttpResponse:
    """A page's answer to a query string or a post it cannot use: 400, with the reasons."""
    problems: list[str] = []
    if form is not None:
        for name, errors in form.errors.items():
            label = name if name != "__all__" else ""
            problems += [f"{label}: {e}" if label else str(e) for e in errors]
    else:
        problems.append("This page got a form it does not know.")
    return render(request, "bad_request.html", {"problems": problems}, status=400)
