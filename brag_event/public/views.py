"""Public pages: standings for the hall and players' own pages."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from brag_event.players.links import player_from_token


def player(request: HttpRequest, token: str) -> HttpResponse:
    found = player_from_token(token)
    if found is None:
        raise Http404("No such player page")
    return render(request, "public/player.html", {"player": found})
