package api

import (
	"context"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/lesspost/lesspost"
)

// routes registers every endpoint. Each must be in openapi.yaml with the same
// method and path (echo's /games/:id is the spec's /games/{id}), and the
// reverse; TestRoutesMatchSpec fails otherwise. HEAD is served wherever GET
// is (see get) and is not repeated in the contract.
func (s *Server) routes() {
	s.get("/healthz", s.health)
	s.get("/readyz", s.ready)
	s.get("/openapi.yaml", s.openAPI)

	s.echo.POST("/v1/auth/login", s.requestLogin, s.limitLogin())
	s.echo.POST("/v1/auth/token", s.exchangeToken, s.limitToken())
	s.echo.POST("/v1/auth/refresh", s.refresh, s.limitToken())
	s.echo.POST("/v1/auth/logout", s.logout)
	s.get("/v1/me", s.me)
	s.echo.PATCH("/v1/me", s.updateMe)
	s.get("/v1/me/games", s.myGames)
	s.echo.PUT("/v1/me/handle", s.setHandle)
	s.get("/v1/me/profile", s.myProfile)
	s.echo.PATCH("/v1/me/profile", s.updateProfile)
	s.get("/v1/players/:handle", s.getPlayer)
	s.get("/players/:handle", s.playerPage)
	s.get("/players/:handle/games/:game/watch", s.watchPlayerGame)
	s.get("/v1/me/events", s.myEvents)
	s.get("/v1/me/vacations", s.listVacations)
	s.echo.POST("/v1/me/vacations", s.declareVacation)
	s.echo.DELETE("/v1/me/vacations/:id", s.cancelVacation)
	s.echo.POST("/v1/me/calendar-link", s.rotateCalendarLink)
	s.get("/v1/me/tokens", s.listPersonalTokens)
	s.echo.POST("/v1/me/tokens", s.createPersonalToken)
	s.echo.DELETE("/v1/me/tokens/:id", s.revokePersonalToken)
	s.get("/v1/me/push-subscriptions", s.listPushSubscriptions)
	s.echo.POST("/v1/me/push-subscriptions", s.subscribePush)
	s.echo.DELETE("/v1/me/push-subscriptions/:id", s.deletePushSubscription)
	s.get("/v1/push/key", s.pushKey)
	s.echo.POST("/v1/push/renewals", s.renewPushSubscription)
	s.get("/v1/me/webhooks", s.listWebhooks)
	s.echo.POST("/v1/me/webhooks", s.createWebhook)
	s.get("/v1/me/webhooks/:id", s.getWebhook)
	s.echo.PATCH("/v1/me/webhooks/:id", s.updateWebhook)
	s.echo.DELETE("/v1/me/webhooks/:id", s.deleteWebhook)
	s.echo.POST("/v1/me/webhooks/:id/rotate-secret", s.rotateWebhookSecret)
	s.echo.POST("/v1/me/webhooks/:id/ping", s.pingWebhook, s.limitWebhookPing())
	s.get("/v1/me/webhooks/:id/deliveries", s.listWebhookDeliveries)
	s.echo.POST("/v1/me/webhooks/:id/deliveries/:delivery_id/redeliver", s.redeliverWebhook, s.limitWebhookRedeliver())
	s.get("/calendar.ics", s.calendar)

	s.echo.POST("/v1/tournaments", s.createTournament, s.limitTournament())
	s.get("/v1/tournaments", s.listTournaments)
	s.get("/v1/tournaments/:id", s.getTournament)
	s.get("/v1/tournaments/:id/standings", s.tournamentStandings)
	s.echo.POST("/v1/tournaments/:id/withdraw", s.withdraw)
	s.echo.POST("/v1/tournaments/:id/cancel", s.cancelTournament)
	s.get("/v1/tournaments/:id/records", s.tournamentRecords)
	s.get("/tournaments/:id", s.tournamentPage)
	s.get("/tournaments/:id/games/:game/watch", s.watchTournamentGame)
	s.echo.POST("/v1/tournaments/:id/registration", s.openRegistration)
	s.echo.DELETE("/v1/tournaments/:id/registration", s.closeRegistration)
	s.echo.POST("/v1/tournaments/:id/join", s.joinTournament)
	s.echo.POST("/v1/tournaments/:id/players", s.addEntrant)
	s.echo.PATCH("/v1/tournaments/:id/players/:player", s.editEntrant)
	s.echo.POST("/v1/tournaments/:id/players/:player/replace", s.replaceEntrant)
	s.echo.POST("/v1/tournaments/:id/games/:game/extend", s.extendGame)
	s.echo.POST("/v1/tournaments/:id/rounds/:round/postpone", s.postponeRound)
	s.echo.POST("/v1/tournaments/:id/rounds/:round/games/:index/result", s.overrideResult)
	s.echo.POST("/v1/tournaments/:id/pause", s.pauseTournament)
	s.echo.PUT("/v1/tournaments/:id/seeds", s.setSeeds)
	s.echo.POST("/v1/tournaments/:id/resume", s.resumeTournament)

	s.echo.POST("/v1/games", s.createGame, s.limitCreateGame())
	s.get("/v1/games/:id", s.getGame)
	s.get("/v1/games/:id/moves", s.legalMoves)
	s.get("/v1/games/:id/view", s.viewBoard)
	s.get("/v1/games/:id/turns", s.listTurns)
	s.echo.POST("/v1/games/:id/turns", s.submitTurn)
	s.echo.POST("/v1/games/:id/preview", s.previewTurn)
	s.echo.POST("/v1/games/:id/resign", s.resign)
	s.echo.POST("/v1/games/:id/rematch", s.rematch, s.limitRematch())
	s.get("/v1/games/:id/record", s.record)
	s.echo.POST("/v1/games/:id/seats/:color/link", s.rotateSeatLink, s.limitSeatLink())
	s.echo.POST("/v1/games/:id/spectator-link", s.rotateSpectatorLink)
	s.get("/v1/games/:id/mail", s.gameMail)
	s.get("/v1/games/:id/events", s.gameEvents)

	s.get("/unsubscribe", s.unsubscribe)
	s.echo.POST("/unsubscribe", s.unsubscribe)
	s.echo.POST("/resubscribe", s.resubscribe)
	s.get("/never-email", s.neverEmail)
	s.echo.POST("/never-email", s.neverEmail)

	s.get("/play/:id", s.playPage)
	s.get("/login", s.loginPage)
	s.get("/rules", s.lessRulesPage)
	s.get("/rules/les", s.lesRulesPage)
	s.get("/assets/:file", s.asset)
	s.get("/sw.js", s.serviceWorker)
}

// get serves a path for GET and HEAD. HEAD is GET without the body
// (RFC 9110 9.3.2): the same handler runs, and net/http drops the body it
// writes, so status and headers are the same by construction.
func (s *Server) get(path string, h echo.HandlerFunc, m ...echo.MiddlewareFunc) {
	s.echo.GET(path, h, m...)
	s.echo.HEAD(path, h, m...)
}

type healthResponse struct {
	Status string `json:"status"`
}

// health answers as long as the process serves HTTP; it checks nothing else,
// so a slow database does not get the process restarted.
func (s *Server) health(c echo.Context) error {
	return c.JSON(http.StatusOK, healthResponse{Status: "ok"})
}

// ready answers 200 only when the database does, so traffic goes elsewhere
// while it cannot.
func (s *Server) ready(c echo.Context) error {
	ctx, cancel := context.WithTimeout(c.Request().Context(), 2*time.Second)
	defer cancel()
	if err := s.cfg.DB.Ping(ctx); err != nil {
		s.log.WarnContext(ctx, "not ready", "error", err)
		return NewProblem(http.StatusServiceUnavailable, "not_ready", "The database is not available.")
	}
	return c.JSON(http.StatusOK, healthResponse{Status: "ok"})
}

func (s *Server) openAPI(c echo.Context) error {
	return c.Blob(http.StatusOK, "application/yaml", lesspost.OpenAPI)
}
