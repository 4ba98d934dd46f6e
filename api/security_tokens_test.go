package api_test

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lesspost/lesspost/api/internal/contract"
	"github.com/lesspost/lesspost/domain/hooks"
	"github.com/lesspost/lesspost/notify/webpush/pushtest"
)

// The token kinds of openapi.yaml's securitySchemes, as the server knows them.
var tokenKinds = []string{"accountToken", "personalAccessToken", "seatToken", "spectatorToken"}

// scopes are the scopes of personal access tokens.
var scopes = []string{"games:read", "games:play", "games:create", "tournaments:write", "account:read", "account:write",
	"webhooks:read", "webhooks:write"}

// The contract declares which token kinds each operation takes, and an app
// (or a generated client) relies on it: every kind an operation declares is
// accepted by the server, and every other kind is refused as the wrong kind
// (401 unauthorized, 403 account_required or forbidden). Public operations
// (`security: []`) work without a token. Each operation is tried with each
// kind on a fresh game, where the account plays the seat: White to move.
//
// A personal access token's operation names the scope it needs (x-scope,
// security lists no scopes but OAuth 2's): the server answers a
// token with only that scope, and refuses one with every other scope with
// 403 insufficient_scope naming it.
func TestSecurityDeclared(t *testing.T) {
	c, err := contract.Load()
	if err != nil {
		t.Fatal(err)
	}
	h := newAttackHarness(t)
	ann := h.login("ann@example.org") // White in every game
	zoe := h.login("zoe@example.org")
	// Ann's personal access tokens: one with each scope alone, one with
	// all but each scope, one with all.
	just, allBut := map[string]string{}, map[string]string{}
	for _, sc := range scopes {
		just[sc] = h.personalToken(ann, sc)
		allBut[sc] = h.personalToken(ann, slices.DeleteFunc(slices.Clone(scopes), func(o string) bool { return o == sc })...)
	}
	all := h.personalToken(ann, scopes...)
	// newGame starts a game of Ann (White, to move) and Bob; its seat and
	// spectator tokens come by email as in startGame.
	games := 0
	newGame := func(t *testing.T) (id, white, watch string) {
		t.Helper()
		h.deliver() // what earlier requests caused
		// Ann creates the game, so her invitations are mail she caused, and
		// a new Black each time keeps every address within its daily budget
		// of mail caused by others.
		games++
		body := twoPlayers(strings.Repeat("0", 60))
		body["players"].([]map[string]any)[1]["email"] = fmt.Sprintf("bob%d@example.org", games)
		h.do("POST", "/v1/games", ann, body).want(t, http.StatusCreated)
		m := only(t, h.deliver(), "ann@example.org")
		id, white = moveLink(t, m)
		return id, white, watchLinkRE.FindStringSubmatch(m.Text)[1]
	}
	start := h.clock.Now().Add(time.Hour).Format(time.RFC3339)
	tournament := map[string]any{"name": "Cup", "format": "round_robin", "players": entrants(2),
		"schedule": map[string]any{"starts": []string{start}, "round_hours": 24}}
	vacation := map[string]any{"start": "2026-12-01T00:00:00Z", "end": "2026-12-03T00:00:00Z"}
	turn := map[string]any{"turn": "e5e4:e4d4:d4c4", "ply": 0}
	push := subscriptionJSON(pushtest.New(t, nil).Subscribe(h.pushKey.Public))
	renewal := map[string]any{"old_endpoint": "https://push.example/old", "old_auth": "AAAAAAAAAAAAAAAAAAAAAA", "subscription": push}

	// A request each operation answers when its token is right. {id} is the
	// game's id; ids of other things need not exist (a 404 is no refusal).
	requests := map[string]struct {
		path string
		body any
	}{
		"getHealth":                {"/healthz", nil},
		"getReadiness":             {"/readyz", nil},
		"getOpenAPI":               {"/openapi.yaml", nil},
		"requestLogin":             {"/v1/auth/login", map[string]any{"email": "zed@example.org"}},
		"exchangeLoginToken":       {"/v1/auth/token", map[string]any{"token": "abc"}},
		"refreshToken":             {"/v1/auth/refresh", map[string]any{"refresh_token": "abc"}},
		"logout":                   {"/v1/auth/logout", nil},
		"getMe":                    {"/v1/me", nil},
		"updateMe":                 {"/v1/me", map[string]any{"name": "Ann"}},
		"setHandle":                {"/v1/me/handle", map[string]any{"handle": "ann"}},
		"getMyProfile":             {"/v1/me/profile", nil},
		"updateMyProfile":          {"/v1/me/profile", map[string]any{"bio": "Hi"}},
		"getPlayer":                {"/v1/players/nobody", nil},
		"playerPage":               {"/players/nobody", nil},
		"watchPlayerGame":          {"/players/nobody/games/{id}/watch", nil},
		"listMyGames":              {"/v1/me/games", nil},
		"streamMyEvents":           {"/v1/me/events", nil},
		"streamGameEvents":         {"/v1/games/{id}/events", nil},
		"listVacations":            {"/v1/me/vacations", nil},
		"declareVacation":          {"/v1/me/vacations", vacation},
		"cancelVacation":           {"/v1/me/vacations/123", nil},
		"getCalendar":              {"/calendar.ics?t=abc", nil},
		"createGame":               {"/v1/games", twoPlayers(strings.Repeat("0", 60))},
		"getGame":                  {"/v1/games/{id}", nil},
		"listLegalMoves":           {"/v1/games/{id}/moves?from=e5", nil},
		"listTurns":                {"/v1/games/{id}/turns", nil},
		"getBoardView":             {"/v1/games/{id}/view", nil},
		"submitTurn":               {"/v1/games/{id}/turns", turn},
		"previewTurn":              {"/v1/games/{id}/preview", map[string]any{"turn": "e5e4"}},
		"resign":                   {"/v1/games/{id}/resign", map[string]any{}},
		"rematch":                  {"/v1/games/{id}/rematch", map[string]any{}},
		"getRecord":                {"/v1/games/{id}/record", nil},
		"rotateSeatLink":           {"/v1/games/{id}/seats/white/link", nil},
		"rotateSpectatorLink":      {"/v1/games/{id}/spectator-link", nil},
		"rotateCalendarLink":       {"/v1/me/calendar-link", nil},
		"listPersonalTokens":       {"/v1/me/tokens", nil},
		"createPersonalToken":      {"/v1/me/tokens", map[string]any{"name": "bot", "scopes": []string{"games:read"}}},
		"revokePersonalToken":      {"/v1/me/tokens/999999", nil},
		"listGameMail":             {"/v1/games/{id}/mail", nil},
		"unsubscribePage":          {"/unsubscribe?t=abc", nil},
		"unsubscribe":              {"/unsubscribe?t=abc", nil},
		"resubscribe":              {"/resubscribe?t=abc", nil},
		"neverEmailPage":           {"/never-email?t=abc", nil},
		"neverEmail":               {"/never-email?t=abc", nil},
		"playPage":                 {"/play/{id}", nil},
		"loginPage":                {"/login", nil},
		"lessRulesPage":            {"/rules", nil},
		"lesRulesPage":             {"/rules/les", nil},
		"getAsset":                 {"/assets/play.js", nil},
		"createTournament":         {"/v1/tournaments", tournament},
		"getTournament":            {"/v1/tournaments/t_none", nil},
		"getStandings":             {"/v1/tournaments/t_none/standings", nil},
		"withdrawFromTournament":   {"/v1/tournaments/t_none/withdraw", map[string]any{}},
		"cancelTournament":         {"/v1/tournaments/t_none/cancel", nil},
		"standingsPage":            {"/tournaments/t_none", nil},
		"listTournaments":          {"/v1/tournaments", nil},
		"openRegistration":         {"/v1/tournaments/t_none/registration", map[string]any{}},
		"closeRegistration":        {"/v1/tournaments/t_none/registration", nil},
		"joinTournament":           {"/v1/tournaments/t_none/join", map[string]any{"name": "Zed"}},
		"addTournamentPlayer":      {"/v1/tournaments/t_none/players", map[string]any{"name": "Zed", "email": "zed@example.org"}},
		"editTournamentPlayer":     {"/v1/tournaments/t_none/players/0", map[string]any{"name": "Zed"}},
		"replaceTournamentPlayer":  {"/v1/tournaments/t_none/players/0/replace", map[string]any{"name": "Zed", "email": "zed@example.org", "reason": "ill"}},
		"extendTournamentGame":     {"/v1/tournaments/t_none/games/g_none/extend", map[string]any{"hours": 24, "reason": "ill"}},
		"postponeTournamentRound":  {"/v1/tournaments/t_none/rounds/1/postpone", map[string]any{"hours": 24, "reason": "ill"}},
		"overrideTournamentResult": {"/v1/tournaments/t_none/rounds/1/games/0/result", map[string]any{"annul": true, "reason": "x"}},
		"pauseTournament":          {"/v1/tournaments/t_none/pause", nil},
		"resumeTournament":         {"/v1/tournaments/t_none/resume", nil},
		"setTournamentSeeds":       {"/v1/tournaments/t_none/seeds", map[string]any{"order": []int{1, 0}}},
		"getTournamentRecords":     {"/v1/tournaments/t_none/records", nil},
		"watchTournamentGame":      {"/tournaments/t_none/games/{id}/watch", nil},
		"getServiceWorker":         {"/sw.js", nil},
		"getPushKey":               {"/v1/push/key", nil},
		"renewPushSubscription":    {"/v1/push/renewals", renewal},
		"listPushSubscriptions":    {"/v1/me/push-subscriptions", nil},
		"subscribePush":            {"/v1/me/push-subscriptions", push},
		"deletePushSubscription":   {"/v1/me/push-subscriptions/999999", nil},
		"listWebhooks":             {"/v1/me/webhooks", nil},
		"createWebhook":            {"/v1/me/webhooks", map[string]any{"url": "https://93.184.215.14/hook", "event_types": []string{"your_turn"}}},
		"getWebhook":               {"/v1/me/webhooks/999999", nil},
		"updateWebhook":            {"/v1/me/webhooks/999999", map[string]any{"enabled": false}},
		"deleteWebhook":            {"/v1/me/webhooks/999999", nil},
		"rotateWebhookSecret":      {"/v1/me/webhooks/999999/rotate-secret", nil},
		"pingWebhook":              {"/v1/me/webhooks/999999/ping", nil},
		"listWebhookDeliveries":    {"/v1/me/webhooks/999999/deliveries", nil},
		"redeliverWebhook":         {"/v1/me/webhooks/999999/deliveries/1/redeliver", nil},
	}

	for path, item := range c.Doc.Paths.Map() {
		for method, op := range item.Operations() {
			t.Run(op.OperationID, func(t *testing.T) {
				req, ok := requests[op.OperationID]
				if !ok {
					t.Fatalf("%s %s: add a request for %s to this test", method, path, op.OperationID)
				}
				if op.Security == nil {
					t.Fatalf("%s %s declares no security: list the token kinds it takes, or [] for none", method, path)
				}
				var declared []string
				for _, requirement := range *op.Security {
					for scheme, sc := range requirement {
						declared = append(declared, scheme)
						// OpenAPI 3.0 lists scopes for OAuth 2 alone: a personal
						// access token's is the operation's x-scope.
						if len(sc) != 0 {
							t.Errorf("%s lists the scopes %v, which OpenAPI 3.0 allows for OAuth 2 schemes only", scheme, sc)
						}
					}
				}
				var scope []string // personalAccessToken's
				if s, ok := op.Extensions["x-scope"].(string); ok {
					scope = []string{s}
				} else if op.Extensions["x-scope"] != nil {
					t.Fatalf("x-scope %v is no scope", op.Extensions["x-scope"])
				}
				if len(scope) != 0 && !slices.Contains(declared, "personalAccessToken") {
					t.Errorf("x-scope %s, but the operation takes no personal access token", scope[0])
				}
				if len(declared) == 0 {
					id, _, _ := newGame(t)
					res := h.do(method, strings.ReplaceAll(req.path, "{id}", id), "", req.body)
					if refusedForKind(t, res) {
						t.Errorf("public, yet refused without a token: %d %s", res.status, res.body)
					}
					return
				}
				if slices.Contains(declared, "personalAccessToken") {
					if len(scope) != 1 || !slices.Contains(scopes, scope[0]) {
						t.Fatalf("personalAccessToken with the x-scope %v: want one scope of %v", scope, scopes)
					}
					id, _, _ := newGame(t)
					res := h.do(method, strings.ReplaceAll(req.path, "{id}", id), just[scope[0]], req.body)
					if refusedForKind(t, res) || res.status == http.StatusForbidden && res.problem(t).Code == "insufficient_scope" {
						t.Errorf("declares personalAccessToken with %s, but a token with just that scope is refused: %d %s", scope[0], res.status, res.body)
					}
					id, _, _ = newGame(t)
					res = h.do(method, strings.ReplaceAll(req.path, "{id}", id), allBut[scope[0]], req.body)
					if res.status != http.StatusForbidden || res.problem(t).Code != "insufficient_scope" || !strings.Contains(string(res.body), `"scope":"`+scope[0]+`"`) {
						t.Errorf("a personal token with every scope but %s: %d %s; want 403 insufficient_scope naming it", scope[0], res.status, res.body)
					}
				}
				for _, kind := range tokenKinds {
					id, white, watch := newGame(t)
					token := map[string]string{"accountToken": ann, "personalAccessToken": all, "seatToken": white, "spectatorToken": watch}[kind]
					if op.OperationID == "logout" && kind == "accountToken" {
						token = zoe // Ann's session must outlive this test
					}
					res := h.do(method, strings.ReplaceAll(req.path, "{id}", id), token, req.body)
					switch refused := refusedForKind(t, res); {
					case slices.Contains(declared, kind) && refused:
						t.Errorf("declares %s, but the server refuses it: %d %s", kind, res.status, res.body)
					case !slices.Contains(declared, kind) && !refused:
						t.Errorf("does not declare %s, but the server answers it with %d %s", kind, res.status, res.body)
					}
				}
				for _, scheme := range declared {
					if !slices.Contains(tokenKinds, scheme) {
						t.Errorf("declares the unknown token kind %s", scheme)
					}
				}
			})
		}
	}
}

// refusedForKind reports whether res refuses the caller's token as the wrong
// kind (or missing), rather than answering or refusing the request itself.
func refusedForKind(t *testing.T, res response) bool {
	t.Helper()
	switch res.status {
	case http.StatusUnauthorized:
		return res.problem(t).Code == "unauthorized"
	case http.StatusForbidden:
		code := res.problem(t).Code
		return code == "account_required" || code == "forbidden" || code == "insufficient_scope" ||
			code == hooks.CodeSeatOrAccountRequired
	}
	return false
}

// personalToken makes a personal access token of the account with the
// scopes, and returns its secret.
func (h *harness) personalToken(account string, scopes ...string) string {
	h.t.Helper()
	var tok struct {
		Token string `json:"token"`
	}
	h.do("POST", "/v1/me/tokens", account, map[string]any{"name": "test", "scopes": scopes}).
		want(h.t, http.StatusCreated).decode(h.t, &tok)
	return tok.Token
}
