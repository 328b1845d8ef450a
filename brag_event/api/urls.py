from csp.decorators import csp_update
from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from .errors import api_not_found
from .resources import (
    audit,
    auth,
    events,
    exchange,
    floor,
    hands,
    ledger,
    me,
    people,
    rulings,
    seats,
    standings,
    tables,
)

# Each view is in brag_event/api/resources/, one module per resource (docs/api.md, "Layout").
v1 = [
    path("events/", events.EventList.as_view()),
    path("events/<int:event_id>/", events.EventDetail.as_view()),
    path("events/<int:event_id>/ledger/", ledger.EventLedger.as_view()),
    path("events/<int:event_id>/audit/", audit.EventAudit.as_view()),
    path("events/<int:event_id>/standings/", standings.EventStandings.as_view()),
    path("events/<int:event_id>/players/", people.EventPlayers.as_view()),
    path("people/<int:person_id>/", people.PersonDetail.as_view()),
    # The results exchange file (docs/results-exchange.md).
    path("events/<int:event_id>/results-exchange/", exchange.EventResultsExchange.as_view()),
    path("results-exchange/", exchange.ResultsExchangeImport.as_view()),
    path("days/<int:day_id>/tables/", events.DayTables.as_view()),
    path("tables/<int:table_id>/", tables.TableDetail.as_view()),
    path("tables/<int:table_id>/hands/", tables.TableHands.as_view()),
    path("tables/<int:table_id>/seats/", tables.TableSeats.as_view()),
    path("tables/<int:table_id>/shift/", tables.TableShift.as_view()),
    path("tables/<int:table_id>/shift/end/", tables.TableShiftEnd.as_view()),
    path("tables/<int:table_id>/my-shift/", tables.TableMyShift.as_view()),
    path("hands/<int:hand_id>/", hands.HandDetail.as_view()),
    path("hands/<int:hand_id>/history/", hands.HandHistory.as_view()),
    path("hands/<int:hand_id>/actions/", hands.HandActions.as_view()),
    path("hands/<int:hand_id>/cards/", hands.HandCards.as_view()),
    path("hands/<int:hand_id>/void/", hands.HandVoid.as_view()),
    path("hands/<int:hand_id>/take-back/", hands.HandTakeBack.as_view()),
    path("seats/<int:seat_id>/rebuy/", seats.SeatRebuy.as_view()),
    path("seats/<int:seat_id>/sit-out/", seats.SeatSitOut.as_view()),
    path("seats/<int:seat_id>/leave/", seats.SeatLeave.as_view()),
    # The floor (RULES §4b): calls, a misdeal, a large pot's confirmation; rulings, penalties.
    path("hands/<int:hand_id>/misdeal/", floor.HandMisdeal.as_view()),
    path("hands/<int:hand_id>/award-confirm/", floor.HandAwardConfirm.as_view()),
    path("tables/<int:table_id>/floor-calls/", floor.TableFloorCalls.as_view()),
    path("events/<int:event_id>/floor-calls/", floor.EventFloorCalls.as_view()),
    path("floor-calls/<int:call_id>/take/", floor.FloorCallTake.as_view()),
    path("rulings/", rulings.Rulings.as_view()),
    path("penalties/<int:penalty_id>/lift/", rulings.PenaltyLift.as_view()),
    path("players/<int:player_id>/penalties/", rulings.PlayerPenalties.as_view()),
    path("me/penalties/", rulings.MePenalties.as_view()),
    path("me/", me.Me.as_view()),
    path("me/hands/", me.MeHands.as_view()),
    path("tokens/", auth.Tokens.as_view()),
    path("tokens/<int:token_id>/revoke/", auth.TokenRevoke.as_view()),
    path("auth/csrf/", auth.Csrf.as_view()),
    path("auth/login/", auth.Login.as_view()),
    path("auth/logout/", auth.Logout.as_view()),
]

urlpatterns = [
    path("v1/", include(v1)),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    # Its script served apart (``?script``): the Content-Security-Policy allows no inline script.
    # Swagger UI draws its icons as data: images (its bundle), on this page only.
    path(
        "docs/",
        csp_update({"img-src": ["data:"]})(SpectacularSwaggerSplitView.as_view(url_name="schema")),
        name="api-docs",
    ),
    # Last: anything else under /api/ is a 404 in the API's error shape.
    re_path(r"", api_not_found, name="api-not-found"),
]
