from csp.decorators import csp_update
from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from . import exchange, floor, people, views
from .errors import api_not_found

v1 = [
    path("events/", views.EventList.as_view()),
    path("events/<int:event_id>/", views.EventDetail.as_view()),
    path("events/<int:event_id>/ledger/", views.EventLedger.as_view()),
    path("events/<int:event_id>/audit/", views.EventAudit.as_view()),
    path("events/<int:event_id>/standings/", views.EventStandings.as_view()),
    path("events/<int:event_id>/players/", people.EventPlayers.as_view()),
    path("people/<int:person_id>/", people.PersonDetail.as_view()),
    # The results exchange file (docs/results-exchange.md): brag_event/api/exchange.py.
    path("events/<int:event_id>/results-exchange/", exchange.EventResultsExchange.as_view()),
    path("results-exchange/", exchange.ResultsExchangeImport.as_view()),
    path("days/<int:day_id>/tables/", views.DayTables.as_view()),
    path("tables/<int:table_id>/", views.TableDetail.as_view()),
    path("tables/<int:table_id>/hands/", views.TableHands.as_view()),
    path("tables/<int:table_id>/seats/", views.TableSeats.as_view()),
    path("tables/<int:table_id>/shift/", views.TableShift.as_view()),
    path("tables/<int:table_id>/shift/end/", views.TableShiftEnd.as_view()),
    path("tables/<int:table_id>/my-shift/", views.TableMyShift.as_view()),
    path("hands/<int:hand_id>/", views.HandDetail.as_view()),
    path("hands/<int:hand_id>/history/", views.HandHistory.as_view()),
    path("hands/<int:hand_id>/actions/", views.HandActions.as_view()),
    path("hands/<int:hand_id>/cards/", views.HandCards.as_view()),
    path("hands/<int:hand_id>/void/", views.HandVoid.as_view()),
    path("hands/<int:hand_id>/take-back/", views.HandTakeBack.as_view()),
    path("seats/<int:seat_id>/rebuy/", views.SeatRebuy.as_view()),
    path("seats/<int:seat_id>/sit-out/", views.SeatSitOut.as_view()),
    path("seats/<int:seat_id>/leave/", views.SeatLeave.as_view()),
    # The floor (RULES §4b): brag_event/api/floor.py.
    path("hands/<int:hand_id>/misdeal/", floor.HandMisdeal.as_view()),
    path("hands/<int:hand_id>/award-confirm/", floor.HandAwardConfirm.as_view()),
    path("tables/<int:table_id>/floor-calls/", floor.TableFloorCalls.as_view()),
    path("events/<int:event_id>/floor-calls/", floor.EventFloorCalls.as_view()),
    path("floor-calls/<int:call_id>/take/", floor.FloorCallTake.as_view()),
    path("rulings/", floor.Rulings.as_view()),
    path("penalties/<int:penalty_id>/lift/", floor.PenaltyLift.as_view()),
    path("players/<int:player_id>/penalties/", floor.PlayerPenalties.as_view()),
    path("me/penalties/", floor.MePenalties.as_view()),
    path("me/", views.Me.as_view()),
    path("me/hands/", views.MeHands.as_view()),
    path("tokens/", views.Tokens.as_view()),
    path("tokens/<int:token_id>/revoke/", views.TokenRevoke.as_view()),
    path("auth/csrf/", views.Csrf.as_view()),
    path("auth/login/", views.Login.as_view()),
    path("auth/logout/", views.Logout.as_view()),
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
