"""A player's notification settings (from their own page) and the one-click unsubscribe link
of every email (brag_event/notify; docs/notifications.md)."""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.csrf import csrf_exempt

from brag_event.core.actors import Actor
from brag_event.core.errors import ServiceError
from brag_event.core.forms import bad_request, posted_form, takes
from brag_event.events.zones import activate_for
from brag_event.notify.models import Contact
from brag_event.notify.services import (
    contact_unsubscribe,
    contact_update,
    push_configured,
    push_subscribe,
)
from brag_event.players.links import player_from_token, player_path

from .forms import NoticesForm, PushForm, UnsubscribeForm

FORMS: dict[str, type[forms.Form]] = {"notices": NoticesForm, "push": PushForm}


class SavedQuery(forms.Form):
    """``?saved=1``: back from saving, the page says so."""

    saved = forms.BooleanField(required=False)


@takes(query=SavedQuery, post=FORMS)
def notices(request: HttpRequest, token: str) -> HttpResponse:
    """What the player wants to hear (email, Web Push) and the kinds of news."""
    player = player_from_token(token)
    if player is None:
        raise Http404("No such player page")
    activate_for(player.event)
    contact = Contact.objects.filter(player=player).first()
    asked = SavedQuery(request.GET)
    saved = asked.is_valid() and bool(asked.cleaned_data["saved"])
    status = 200
    form = NoticesForm(
        initial={
            "form": "notices",
            "email": contact.email if contact else "",
            "kinds": contact.kinds if contact else [],
        }
    )
    if request.method == "POST":
        which = posted_form(request, FORMS)
        if which == "notices":
            form = NoticesForm(request.POST)
            if form.is_valid():
                contact_update(
                    player=player,
                    email=form.cleaned_data["email"],
                    kinds=form.cleaned_data["kinds"],
                    by=Actor.from_request(request),
                )
                return redirect(request.path + "?saved=1")
            status = 400
        elif which == "push":
            push = PushForm(request.POST)
            if not push.is_valid():
                return bad_request(request, push)
            try:
                push_subscribe(
                    player=player,
                    endpoint=push.cleaned_data["endpoint"],
                    p256dh=push.cleaned_data["p256dh"],
                    auth=push.cleaned_data["auth"],
                    by=Actor.from_request(request),
                )
            except ServiceError as err:
                return HttpResponse(err.message, status=400, content_type="text/plain")
            return HttpResponse(status=204)
        else:
            return bad_request(request)
    context = {
        "player": player,
        "event": player.event,
        "form": form,
        "saved": saved,
        "page": player_path(player),
        "push": push_configured(),
        "push_on": bool(contact and contact.push_endpoint),
        "vapid_key": settings.BRAG_VAPID_PUBLIC_KEY,
    }
    response = render(request, "public/notices.html", context, status=status)
    response.headers["Referrer-Policy"] = "no-referrer"  # the token is in the address
    response.headers["Cache-Control"] = "no-store"
    return response


# A mail program's one-click unsubscribe (RFC 8058) posts without our page, so without a CSRF
# token; the link's own secret is what authorises it, and it can only stop emails.
@csrf_exempt
@takes(post=UnsubscribeForm)
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """GET: a page with one button; POST (the button, or the mail program): no more emails."""
    contact = (
        Contact.objects.select_related("player__event").filter(unsubscribe_token=token).first()
    )
    if contact is None:
        raise Http404("No such link")
    done = False
    if request.method == "POST":
        form = UnsubscribeForm(request.POST)
        if not form.is_valid():
            return bad_request(request, form)
        try:
            contact_unsubscribe(token=token, by=Actor.from_request(request))
        except ServiceError as err:
            raise Http404(err.message) from err
        done = True
    context = {"contact": contact, "event": contact.player.event, "done": done}
    response = render(request, "public/unsubscribe.html", context)
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers["Cache-Control"] = "no-store"
    return response
