"""Organisers' admin for players.

Registering goes through ``player_register`` (it opens the player's ledger account and issues the
starting money as an ``issue`` transfer). The balance is a cache of the ledger: never edited."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.http import HttpRequest

from brag_event.audit.models import Verb
from brag_event.core.admin import ServiceErrorsMixin, admin_actor, audit_admin_edit
from brag_event.core.forms import WholeNumberField
from brag_event.engine import MONEY_MAX

from . import versions
from .models import Person, Player
from .names import name_key, player_name_clean
from .services import player_register


class PlayerChangeForm(forms.ModelForm):
    class Meta:
        model = Player
        fields = ("event", "name", "group", "user")

    def clean_name(self) -> str:
        # Stored clean (players.names); uniqueness is checked on the clean name's key.
        name = player_name_clean(self.cleaned_data["name"])
        if not name:
            raise forms.ValidationError("A player needs a name.")
        return name

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        # Checked here too because on the change form the event is read-only, and Django then
        # skips the (event, name) unique constraint.
        event = cleaned.get("event") if "event" in self.fields else self.instance.event
        name = cleaned.get("name")
        if event is not None and name:
            same = (
                Player.objects.filter(event=event, name_key=name_key(name), removed_at__isnull=True)
                .exclude(pk=self.instance.pk)
                .first()
            )
            if same is not None:
                alike = "" if same.name == name else f" as “{same.name}”"
                self.add_error("name", f"“{name}” is already registered for {event}{alike}.")
        return cleaned


class PlayerAddForm(PlayerChangeForm):
    starting_money = WholeNumberField(
        min_value=0,
        max_value=MONEY_MAX,
        required=False,
        help_text="Issued to the player's balance as new money of the event (empty: the "
        "event's starting money).",
    )


@admin.register(Player)
class PlayerAdmin(ServiceErrorsMixin, admin.ModelAdmin):
    list_display = ("name", "group", "event", "balance", "user", "registered_at")
    list_filter = ("event",)
    list_select_related = ("event", "user")
    search_fields = ("name", "group")

    def get_form(
        self, request: HttpRequest, obj: Player | None = None, change: bool = False, **kwargs: Any
    ) -> Any:
        kwargs["form"] = PlayerChangeForm if obj is not None else PlayerAddForm
        return super().get_form(request, obj, change=change, **kwargs)

    def get_fields(self, request: HttpRequest, obj: Player | None = None) -> Any:
        if obj is None:
            return ("event", "name", "group", "user", "starting_money")
        return ("event", "name", "group", "user", "balance", "registered_at")

    def get_readonly_fields(self, request: HttpRequest, obj: Player | None = None) -> Any:
        if obj is None:
            return ()
        # The balance is the ledger's; the event is where the player's money lives.
        return ("event", "balance", "registered_at")

    def save_model(self, request: HttpRequest, obj: Player, form: Any, change: bool) -> None:
        if change:
            # Only the edited fields: a full save would write back a stale copy of the balance,
            # which the ledger services keep up to date.
            fields = [name for name in form.changed_data if name in ("name", "group", "user")]
            if fields:
                obj.save(update_fields=fields)
                versions.event_changed(obj.event_id, tables=True)  # the name is shown
                audit_admin_edit(request, obj, form, verb=Verb.PLAYER_UPDATE, fields=fields)
            return
        player = player_register(
            event=form.cleaned_data["event"],
            name=form.cleaned_data["name"],
            starting_money=form.cleaned_data.get("starting_money"),
            group=form.cleaned_data.get("group") or "",
            by=admin_actor(request),
        )
        if obj.user_id is not None:
            player.user = obj.user
            player.save(update_fields=["user"])
        # The admin goes on with ``obj`` (messages, log entry, redirect): make it the new row.
        obj.pk = player.pk
        obj.name = player.name
        obj.balance = player.balance
        obj.registered_at = player.registered_at
        obj._state.adding = False
        obj._state.db = player._state.db


@admin.register(Person)
class PersonAdmin(admin.ModelAdmin):
    """People are registered, corrected and merged in the console (players/people.py, with the
    audit log); the admin only looks them up."""

    list_display = ("number", "name", "club", "created_at", "merged_into")
    search_fields = ("name", "=number", "club")
    readonly_fields = ("name", "number", "club", "email", "phone", "created_at", "merged_into")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
