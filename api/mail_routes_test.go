package api_test

import (
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lesspost/lesspost/api/internal/contract"
	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/accounts"
	"github.com/lesspost/lesspost/notify"
)

// Every route that can cause mail meets one mail policy (domain.MailPolicy):
// mailRoutes classifies every operation of the contract, so a new route
// cannot be added without saying whether it mails anyone, and each route
// that does is attacked here, as one account from one client address would,
// aiming at one stranger's mailbox under ever new +tags.

// mailRoute is what an operation can email to someone other than its caller.
type mailRoute struct {
	// attack is one attempt to mail the stranger through the operation
	// (after setting up what it needs); it returns the operation's status.
	attack func(s *mailScene) int
	// after finishes what the attempts started (a tournament's rounds that
	// the scheduler starts later), before the mail is counted.
	after func(s *mailScene)
	// cap is how much mail the stranger may get from the attack: the
	// mail policy's per-stranger limit, unless said otherwise.
	cap int
	// none says why the operation mails nobody but its caller.
	none string
}

// mailScene is an attack in progress: the harness, the attacker's token,
// the attempt's number and what earlier attempts set up.
type mailScene struct {
	t        *testing.T
	h        *harness
	attacker string
	attempt  int
	game     string         // a game against the stranger
	tour     tournamentJSON // an event with the stranger typed in
	path     string         // the event's path
	mail     []notify.Message
}

// deliver sends the mail queued so far, as a live server would at once,
// and keeps it: mail that a later request makes obsolete has gone out.
func (s *mailScene) deliver() { s.mail = append(s.mail, s.h.deliver()...) }

const mailStranger = "victim@example.org"

// victim is the stranger's address for this attempt: a new +tag each time.
func (s *mailScene) victim() string {
	return fmt.Sprintf("victim+%d@example.org", s.attempt)
}

// newGame creates a game of the attacker (White) against the stranger.
func (s *mailScene) newGame() (string, int) {
	res := s.h.do("POST", "/v1/games", s.attacker, map[string]any{"players": []map[string]any{
		{"name": "Mallory", "email": "mallory@evil.example"}, {"name": "Victim", "email": s.victim()}},
		"board": map[string]any{"walls": strings.Repeat("0", 60)}})
	if res.status != http.StatusCreated {
		return "", res.status
	}
	var g gameJSON
	res.decode(s.t, &g)
	return g.ID, res.status
}

// event organises a running round robin of the stranger and another
// player, the attacker organising, and returns its path; format and
// teams as given.
func (s *mailScene) event(format string, start time.Duration, players ...map[string]any) int {
	body := map[string]any{"name": "Club Cup", "format": format, "players": players,
		"time":     map[string]any{"kind": "per_turn", "days": 3},
		"schedule": map[string]any{"first_start": s.h.clock.Now().Add(start), "interval_hours": 240}}
	if format == "swiss" {
		body["rounds"] = 1
	}
	res := s.h.do("POST", "/v1/tournaments", s.attacker, body)
	if res.status != http.StatusCreated {
		return res.status
	}
	res.decode(s.t, &s.tour)
	s.path = "/v1/tournaments/" + s.tour.ID
	return res.status
}

func (s *mailScene) eventOrFail(format string, start time.Duration, players ...map[string]any) {
	if code := s.event(format, start, players...); code != http.StatusCreated {
		s.t.Fatalf("create the event: %d", code)
	}
}

// started starts an event of the stranger and another entrant once.
func (s *mailScene) started() {
	if s.path != "" {
		return
	}
	s.eventOrFail("double_round_robin", time.Minute, map[string]any{"name": "Victim", "email": s.victim()},
		map[string]any{"name": "Other", "email": "other@evil.example"})
	s.h.clock.Advance(time.Minute)
	s.h.tickAll()
	s.refresh()
}

// decided starts an event of the attacker and the stranger once, and ends
// its first round: the attacker resigns.
func (s *mailScene) decided() {
	if s.path != "" {
		return
	}
	s.eventOrFail("double_round_robin", time.Minute, map[string]any{"name": "Mallory", "email": "mallory@evil.example"},
		map[string]any{"name": "Victim", "email": s.victim()})
	s.h.clock.Advance(time.Minute)
	s.h.tickAll()
	s.refresh()
	if code := s.post("/v1/games/"+*s.tour.Rounds[0].Games[0].GameID+"/resign", map[string]any{}); code != http.StatusOK {
		s.t.Fatalf("resign: %d", code)
	}
	s.h.tickAll()
	s.refresh()
	if s.tour.Rounds[0].Status != "closed" {
		s.t.Fatalf("round 1 is %s after its game ended", s.tour.Rounds[0].Status)
	}
}

// key is a new Idempotency-Key for each attempt.
func (s *mailScene) key() string { return fmt.Sprintf("attack-%d", s.attempt) }

func (s *mailScene) refresh() {
	s.h.do("GET", s.path, s.attacker, nil).want(s.t, http.StatusOK).decode(s.t, &s.tour)
}

func (s *mailScene) post(path string, body any) int {
	return s.h.do("POST", path, s.attacker, body).status
}

// startRounds lets the scheduler start the rounds the attempts scheduled.
func startRounds(s *mailScene) {
	s.h.clock.Advance(10 * time.Minute)
	s.h.tickAll()
}

var playOpening = map[string]any{"turn": "e5e4:e4d4:d4c4", "ply": 0}

var mailRoutes = map[string]mailRoute{
	"requestLogin": {cap: accounts.MaxLoginsPerHour, attack: func(s *mailScene) int {
		return s.h.do("POST", "/v1/auth/login", "", map[string]any{"email": s.victim()}).status
	}},
	"createGame": {attack: func(s *mailScene) int { _, code := s.newGame(); return code }},
	"submitTurn": {attack: func(s *mailScene) int {
		id, code := s.newGame()
		if id == "" {
			return code
		}
		return s.post("/v1/games/"+id+"/turns", playOpening)
	}},
	"resign": {attack: func(s *mailScene) int {
		id, code := s.newGame()
		if id == "" {
			return code
		}
		return s.post("/v1/games/"+id+"/resign", map[string]any{})
	}},
	"rematch": {attack: func(s *mailScene) int {
		if s.game == "" {
			if s.game, _ = s.newGame(); s.game == "" {
				return http.StatusTooManyRequests
			}
			s.post("/v1/games/"+s.game+"/resign", map[string]any{})
		}
		res := s.h.do("POST", "/v1/games/"+s.game+"/rematch", s.attacker, map[string]any{})
		if res.status == http.StatusCreated {
			var r struct {
				Game gameJSON `json:"game"`
			}
			res.decode(s.t, &r)
			s.game = r.Game.ID
			if code := s.post("/v1/games/"+s.game+"/resign", map[string]any{}); code != http.StatusOK {
				s.t.Fatalf("resign the rematch %q: %d", s.game, code)
			}
		}
		return res.status
	}},
	"rotateSeatLink": {attack: func(s *mailScene) int {
		if s.game == "" {
			if s.game, _ = s.newGame(); s.game == "" {
				return http.StatusTooManyRequests
			}
		}
		return s.post("/v1/games/"+s.game+"/seats/black/link", nil)
	}},
	"createTournament": {after: startRounds, attack: func(s *mailScene) int {
		return s.event("round_robin", time.Minute, map[string]any{"name": "Victim", "email": s.victim()},
			map[string]any{"name": "Other", "email": "other@evil.example"})
	}},
	"cancelTournament": {attack: func(s *mailScene) int {
		if code := s.event("round_robin", time.Hour, map[string]any{"name": "Victim", "email": s.victim()},
			map[string]any{"name": "Other", "email": "other@evil.example"}); code != http.StatusCreated {
			return code
		}
		return s.post(s.path+"/cancel", map[string]any{"reason": "Cheap pills http://spam.example"})
	}},
	"pauseTournament":  {attack: pauseAndResume},
	"resumeTournament": {attack: pauseAndResume},
	"extendTournamentGame": {attack: func(s *mailScene) int {
		s.started()
		return s.h.do("POST", s.path+"/games/"+*s.tour.Rounds[0].Games[0].GameID+"/extend", s.attacker,
			map[string]any{"hours": 1, "reason": "Cheap pills http://spam.example"}, "Idempotency-Key", s.key()).status
	}},
	"postponeTournamentRound": {attack: func(s *mailScene) int {
		s.started()
		return s.h.do("POST", s.path+"/rounds/2/postpone", s.attacker,
			map[string]any{"hours": 1, "reason": "Cheap pills http://spam.example"}, "Idempotency-Key", s.key()).status
	}},
	"overrideTournamentResult": {attack: func(s *mailScene) int {
		s.decided()
		score := []float64{1, 0}[s.attempt%2]
		return s.h.do("POST", s.path+"/rounds/1/games/0/result", s.attacker, map[string]any{"white_score": score, "margin": 1,
			"reason": "Cheap pills http://spam.example"}, "Idempotency-Key", s.key()).status
	}},
	"editTournamentPlayer": {attack: func(s *mailScene) int {
		s.started()
		return s.h.do("PATCH", s.path+"/players/0", s.attacker, map[string]any{"email": s.victim(), "correction": true}).status
	}},
	"replaceTournamentPlayer": {attack: func(s *mailScene) int {
		s.started()
		return s.post(s.path+"/players/0/replace", map[string]any{"name": "Victim", "email": s.victim(),
			"reason": "Cheap pills http://spam.example"})
	}},
	"addTournamentPlayer": {after: startRounds, attack: func(s *mailScene) int {
		if s.path == "" {
			s.eventOrFail("swiss", 10*time.Minute, map[string]any{"name": "A", "email": "a@evil.example"},
				map[string]any{"name": "B", "email": "b@evil.example"})
		}
		return s.post(s.path+"/players", map[string]any{"name": fmt.Sprint("Victim ", s.attempt), "email": s.victim()})
	}},
	"joinTournament":         {attack: joinAndLeave},
	"withdrawFromTournament": {attack: joinAndLeave},

	"getHealth":              {none: "reads"},
	"getReadiness":           {none: "reads"},
	"getOpenAPI":             {none: "reads"},
	"exchangeLoginToken":     {none: "signs in"},
	"refreshToken":           {none: "signs in"},
	"logout":                 {none: "signs out"},
	"getMe":                  {none: "reads"},
	"setHandle":              {none: "the caller's own handle"},
	"getMyProfile":           {none: "reads"},
	"updateMyProfile":        {none: "the caller's own profile"},
	"getPlayer":              {none: "reads"},
	"playerPage":             {none: "a page"},
	"watchPlayerGame":        {none: "a page"},
	"updateMe":               {none: "the caller's own settings"},
	"listMyGames":            {none: "reads"},
	"streamMyEvents":         {none: "reads"},
	"streamGameEvents":       {none: "reads"},
	"listVacations":          {none: "reads"},
	"declareVacation":        {none: "moves the caller's deadlines; nobody is told by email"},
	"cancelVacation":         {none: "moves the caller's deadlines; nobody is told by email"},
	"getCalendar":            {none: "reads"},
	"getGame":                {none: "reads"},
	"listLegalMoves":         {none: "reads"},
	"listTurns":              {none: "reads"},
	"getBoardView":           {none: "reads"},
	"previewTurn":            {none: "a dry run"},
	"getRecord":              {none: "reads"},
	"rotateSpectatorLink":    {none: "the new link is the answer; nobody is emailed"},
	"rotateCalendarLink":     {none: "the new link is the answer; nobody is emailed"},
	"listPersonalTokens":     {none: "reads"},
	"createPersonalToken":    {none: "the caller's own tokens"},
	"revokePersonalToken":    {none: "the caller's own tokens"},
	"listGameMail":           {none: "reads"},
	"unsubscribePage":        {none: "a page"},
	"unsubscribe":            {none: "stops mail"},
	"resubscribe":            {none: "turns reminders back on; sends nothing"},
	"neverEmailPage":         {none: "a page"},
	"neverEmail":             {none: "stops mail"},
	"playPage":               {none: "a page"},
	"loginPage":              {none: "a page"},
	"lessRulesPage":          {none: "a page"},
	"lesRulesPage":           {none: "a page"},
	"getAsset":               {none: "a file"},
	"getTournament":          {none: "reads"},
	"getStandings":           {none: "reads"},
	"standingsPage":          {none: "a page"},
	"listTournaments":        {none: "reads"},
	"openRegistration":       {none: "opens sign-up; the invite link is the answer, passed around by the organiser"},
	"closeRegistration":      {none: "closes sign-up; the rounds it schedules are the event's (createTournament)"},
	"setTournamentSeeds":     {none: "orders the bracket before the start; nobody is emailed"},
	"getTournamentRecords":   {none: "reads"},
	"watchTournamentGame":    {none: "a page"},
	"getServiceWorker":       {none: "a file"},
	"getPushKey":             {none: "reads"},
	"renewPushSubscription":  {none: "push, not mail: to the caller's own browser"},
	"listPushSubscriptions":  {none: "reads"},
	"subscribePush":          {none: "push, not mail: to the caller's own browser"},
	"deletePushSubscription": {none: "push, not mail"},
	"listWebhooks":           {none: "reads"},
	"createWebhook":          {none: "calls the caller's own endpoint, never mails"},
	"getWebhook":             {none: "reads"},
	"updateWebhook":          {none: "the caller's own endpoint"},
	"deleteWebhook":          {none: "the caller's own endpoint"},
	"rotateWebhookSecret":    {none: "the caller's own endpoint"},
	"pingWebhook":            {none: "calls the caller's own endpoint (its own limit), never mails"},
	"listWebhookDeliveries":  {none: "reads"},
	"redeliverWebhook":       {none: "calls the caller's own endpoint (its own limit), never mails"},
}

// pauseAndResume pauses the event with a reason and resumes it.
func pauseAndResume(s *mailScene) int {
	s.started()
	if code := s.post(s.path+"/pause", map[string]any{"reason": "Cheap pills http://spam.example"}); code != http.StatusOK {
		return code
	}
	return s.post(s.path+"/resume", map[string]any{"reason": "Cheap pills http://spam.example"})
}

// joinAndLeave signs the attacker up to an open team event with the
// stranger as his partner, under a team name of his, and withdraws.
func joinAndLeave(s *mailScene) int {
	if s.path == "" {
		org := s.h.login("org@example.org")
		s.h.do("POST", "/v1/tournaments", org, map[string]any{"name": "Pairs Open", "format": "round_robin", "teams": true,
			"schedule":     map[string]any{"first_start": s.h.clock.Now().Add(48 * time.Hour), "interval_hours": 72},
			"registration": map[string]any{"public": true}}).want(s.t, http.StatusCreated).decode(s.t, &s.tour)
		s.path = "/v1/tournaments/" + s.tour.ID
	}
	code := s.post(s.path+"/join", map[string]any{"name": "Mallory", "team": "Buy now http://spam.example",
		"partner": map[string]any{"name": "Victim", "email": s.victim()}})
	if code != http.StatusOK {
		return code
	}
	s.deliver()
	return s.post(s.path+"/withdraw", map[string]any{})
}

// The table covers the contract: a new operation must say whether it
// mails anyone, and how it is capped.
func TestMailRoutesCoverTheContract(t *testing.T) {
	c, err := contract.Load()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for path, item := range c.Doc.Paths.Map() {
		for method, op := range item.Operations() {
			seen[op.OperationID] = true
			r, ok := mailRoutes[op.OperationID]
			switch {
			case !ok:
				t.Errorf("%s %s (%s): add it to mailRoutes, with the attack that tries to mail a stranger through it, or why it mails nobody",
					method, path, op.OperationID)
			case (r.attack == nil) == (r.none == ""):
				t.Errorf("%s: give an attack or a reason, not both or neither", op.OperationID)
			}
		}
	}
	for id := range mailRoutes {
		if !seen[id] {
			t.Errorf("mailRoutes lists %s, which the contract does not have", id)
		}
	}
}

// One account from one client address cannot aim more mail at a stranger
// through any route than the mail policy allows, however the address is
// written (+tags), and the organiser's words never reach him.
func TestEveryMailRouteIsCapped(t *testing.T) {
	const attempts = 30 // more than any cap; 10 s apart, 5 minutes in all
	for _, id := range slices.Sorted(maps.Keys(mailRoutes)) {
		r := mailRoutes[id]
		if r.attack == nil {
			continue
		}
		t.Run(id, func(t *testing.T) {
			h := newHarness(t)
			s := &mailScene{t: t, h: h, attacker: h.login("mallory@evil.example")}
			refused := 0
			var codes []int
			for s.attempt = range attempts {
				code := r.attack(s)
				if code == http.StatusTooManyRequests {
					refused++
				}
				codes = append(codes, code)
				s.deliver()
				h.clock.Advance(10 * time.Second)
			}
			if r.after != nil {
				r.after(s)
			}
			s.deliver()
			var got []string
			for _, m := range s.mail {
				if domain.Mailbox(m.To) != domain.Mailbox(mailStranger) && !strings.HasPrefix(m.To, "victim+") {
					continue
				}
				got = append(got, m.Subject)
				for _, words := range []string{"Cheap pills", "spam.example"} {
					if strings.Contains(m.Text, words) {
						t.Errorf("the stranger's mail %q carries the attacker's words %q:\n%s", m.Subject, words, m.Text)
					}
				}
			}
			if !slices.ContainsFunc(codes, func(c int) bool { return c/100 == 2 }) {
				t.Errorf("the attack never got through: %v", codes)
			}
			limit := r.cap
			if limit == 0 {
				limit = domain.DefaultMailLimits.PairPerDay
			}
			if len(got) == 0 || len(got) > limit {
				t.Errorf("%d attempts (%d refused: %v) mailed the stranger %d times, want 1 to %d: %q", attempts, refused, codes, len(got), limit, got)
			}
		})
	}
}
