"""``LongSelect`` (``core/forms.py``) writes exactly what Django's ``Select`` writes, only faster:
the time zones' list of the new-event page, with and without a choice, in a bound form too."""

from __future__ import annotations

from django import forms

from brag_event.core.forms import LongSelect
from brag_event.events.zones import zone_choices
from brag_event.organiser.setup_forms import EventPresetForm

CHOICES = [("", "—"), ("a<b", 'A & "B"'), ("Europe/London", "Europe/London"), ("7", 7)]


def test_long_select_writes_what_select_writes() -> None:
    for choices in (CHOICES, zone_choices()):
        for value in (None, "", "Europe/London", "a<b", ["7"], "nothing"):
            for attrs in (None, {"id": "id_zone", "required": True, "disabled": False}):
                django = forms.Select(choices=choices).render("zone", value, attrs)
                ours = LongSelect(choices=choices).render("zone", value, attrs)
                assert ours == django, (value, attrs)


def test_grouped_options_are_left_to_django() -> None:
    choices = [("Europe", [("Europe/London", "London")]), ("UTC", "UTC")]
    django = forms.Select(choices=choices).render("zone", "UTC")
    assert LongSelect(choices=choices).render("zone", "UTC") == django


def test_the_new_event_form_renders_as_before() -> None:
    bound = EventPresetForm({"time_zone": "Asia/Tokyo"})
    ours = str(bound["time_zone"])
    bound.fields["time_zone"].widget = forms.Select(choices=zone_choices())
    assert ours == str(bound["time_zone"])
    assert '<option value="Asia/Tokyo" selected>Asia/Tokyo</option>' in ours
