package notify

import (
	"context"
	"fmt"
	"slices"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/games"
	"github.com/lesspost/lesspost/domain/tournaments"
)

// The mail of running a tournament: a round's results and the standings,
// the final standings, and the changes a player or the organiser must
// know. Each is rendered from the tournament as stored when it is sent, in
// the recipient's language; the log entry it is about is named by number.

// tournamentOf reads tournament id for mail m. A quiet mail (see
// domain.MailPolicy) reads it without the organiser's and the players' own
// words: no reasons in its log, and teams named by their members.
func (r *Renderer) tournamentOf(ctx context.Context, m domain.OutboxMail, id string) (tournaments.Tournament, error) {
	t, err := r.Store.Tournament(ctx, id)
	if err != nil || !m.Quiet {
		return t, err
	}
	t.Entrants = slices.Clone(t.Entrants)
	for i := range t.Entrants {
		t.Entrants[i].Team = ""
	}
	t.Log = slices.Clone(t.Log)
	for i := range t.Log {
		t.Log[i].Reason = ""
	}
	return t, nil
}

// tournamentMail renders a round_results, final_standings or
// tournament_update email.
func (r *Renderer) tournamentMail(ctx context.Context, m domain.OutboxMail, msg Message) (Message, error) {
	t, err := r.tournamentOf(ctx, m, m.Notice.Tournament)
	if err != nil {
		return Message{}, fmt.Errorf("render mail %d: %w", m.ID, err)
	}
	p, tp := phrasesFor(m.Locale), tournamentPhrasesFor(m.Locale)
	when, err := r.readerTimeOf(ctx, m.Email)
	if err != nil {
		return Message{}, fmt.Errorf("render mail %d: %w", m.ID, err)
	}
	entrant, member, playing := recipient(&t, m.Email)
	greeting := block{text: tp.GreetingNoName}
	footer := say(tp.FooterOrganiser, map[string]any{"Name": t.Name})
	if playing {
		msg.ToName = member
		greeting = block{text: say(p.Greeting, map[string]any{"Name": msg.ToName})}
		footer = say(tp.FooterPlayer, map[string]any{"Name": t.Name})
	}
	if n := m.Notice; !playing && n.Kind == domain.NoticeTournamentUpdate {
		if e, ok := t.LogEntryNumbered(n.Ply); ok && e.Action == tournaments.ActionEntrantReplaced {
			footer = say(tp.FooterReplaced, map[string]any{"Name": t.Name}) // the one put out: not the organiser
		}
	}
	var d doc
	switch m.Notice.Kind {
	case domain.NoticeRoundResults, domain.NoticeFinalStandings:
		d, err = r.roundResults(ctx, &t, m.Notice, tp, when, &msg)
	case domain.NoticeTournamentUpdate:
		d, err = tournamentUpdate(&t, m.Notice.Ply, entrant, playing, tp, when, &msg)
	case domain.NoticeRoundDeadline:
		if !playing {
			return Message{}, fmt.Errorf("render mail %d: %s plays no more in %s: %w", m.ID, m.Email, t.ID, ErrObsolete)
		}
		d, err = r.roundDeadline(ctx, &t, m.Notice.Ply, entrant, m.Email, p, tp, when, &msg)
	default:
		err = fmt.Errorf("unknown kind %q", m.Notice.Kind)
	}
	if err != nil {
		return Message{}, fmt.Errorf("render mail %d: %w", m.ID, err)
	}
	if r.Links != nil {
		d.blocks = append(d.blocks, block{link: &link{label: tp.PageLabel, url: r.Links.TournamentURL(t.ID), button: tp.PageButton}})
	}
	d.blocks = append([]block{greeting}, d.blocks...)
	end := block{footer: true, text: footer}
	if !m.Notice.Kind.Essential() {
		// A reminder can be turned off, as a game's reminders can.
		if msg.Unsubscribe, err = r.Links.UnsubscribeURL(m.Email); err != nil {
			return Message{}, err
		}
		end.link = &link{label: p.Unsubscribe, url: msg.Unsubscribe}
	}
	d.blocks = append(d.blocks, end)
	if err := r.neverEmail(&d, p, m.Email); err != nil {
		return Message{}, err
	}
	msg.Text, msg.HTML = d.text(), d.html(msg.Subject, "")
	return msg, nil
}

// recipient finds the entrant an address plays for (in a team event
// either member's team) and the member's own name, to greet him by.
func recipient(t *tournaments.Tournament, email string) (entrant int, name string, ok bool) {
	i, ok := t.EntrantOf(email)
	if !ok {
		return 0, "", false
	}
	p, _ := t.Entrants[i].Member(email)
	return i, p.Name, true
}

// roundResults is the email of a closed round: its results, marking how
// games were decided when not by play to the end (the organiser's "time-
// out"), and the standings after it.
func (r *Renderer) roundResults(ctx context.Context, t *tournaments.Tournament, n domain.Notice, tp *tournamentPhrases, when readerTime, msg *Message) (doc, error) {
	if n.Ply < 1 || n.Ply > len(t.Rounds) {
		return doc{}, fmt.Errorf("tournament %s has no round %d", t.ID, n.Ply)
	}
	round := &t.Rounds[n.Ply-1]
	data := map[string]any{"Name": t.Name, "Round": round.Number}
	intro, heading := tp.ResultsIntro, tp.StandingsAfter
	msg.Subject = say(tp.SubjectResults, data)
	if n.Kind == domain.NoticeFinalStandings {
		intro, heading = tp.FinalIntro, tp.FinalStandings
		msg.Subject = say(tp.SubjectFinal, data)
	}
	var results []string
	for _, g := range round.Games {
		line, err := r.resultLine(ctx, t, g, tp)
		if err != nil {
			return doc{}, err
		}
		results = append(results, line)
	}
	d := doc{preheader: say(intro, data), blocks: []block{
		{text: say(intro, data), list: results},
		{text: say(heading, data), list: standingLines(t, round.Number, tp)},
	}}
	if n.Kind == domain.NoticeRoundResults && n.Ply < len(t.Rounds) {
		next := t.Rounds[n.Ply]
		phrase := tp.NextRoundStarts // the organiser gets no pairing
		if _, playing := t.EntrantOf(n.Email); playing {
			phrase = tp.NextRound
		}
		d.blocks = append(d.blocks, block{text: say(phrase, map[string]any{"Round": next.Number, "Start": when.format(next.Start)})})
	}
	return d, nil
}

// resultLine is one pairing of a closed round: "Ann – Bob: 1–0 (on time)".
func (r *Renderer) resultLine(ctx context.Context, t *tournaments.Tournament, g tournaments.TournamentGame, tp *tournamentPhrases) (string, error) {
	white := t.Entrants[g.White].Title()
	if g.Black == tournaments.Bye {
		return say(tp.ByeLine, map[string]any{"Player": white}), nil
	}
	pair := white + " – " + t.Entrants[g.Black].Title()
	if g.Outcome == nil {
		return say(tp.ResultLine, map[string]any{"Pair": pair, "Score": tp.Undecided}), nil
	}
	score := scoreLine(g.Outcome.Score)
	if g.Outcome.BothForfeited() {
		score = "0–0"
	}
	line := say(tp.ResultLine, map[string]any{"Pair": pair, "Score": score})
	var how string
	switch {
	case g.Annulled:
		how = tp.Annulled
	case g.Overridden:
		how = tp.Overridden
	case g.Unplayed:
		how = tp.NoMove
	case g.GameID == "":
		how = tp.Forfeit
	default:
		game, err := r.Store.Game(ctx, g.GameID)
		if err != nil {
			return "", err
		}
		res, _ := game.Result()
		switch res.Reason {
		case "timeout":
			how = tp.OnTime
		case "adjudicated":
			how = tp.Adjudicated
		}
	}
	if how != "" {
		line += " (" + how + ")"
	}
	return line, nil
}

// scoreLine is a game's score from White's side: 1–0, ½–½, 0–1.
func scoreLine(white float64) string {
	switch white {
	case 1:
		return "1–0"
	case 0:
		return "0–1"
	}
	return "½–½"
}

// points writes a score with a half as ½: 2½.
func points(f float64) string {
	whole := int(f)
	switch {
	case f-float64(whole) == 0:
		return fmt.Sprint(whole)
	case whole == 0:
		return "½"
	}
	return fmt.Sprintf("%d½", whole)
}

// standingLines are the standings after round (results of later rounds
// left out), one line per player.
func standingLines(t *tournaments.Tournament, round int, tp *tournamentPhrases) []string {
	var upTo []tournaments.PairingResult
	for _, o := range t.Outcomes() {
		if o.Round <= round {
			upTo = append(upTo, o)
		}
	}
	withdrawn := make([]bool, len(t.Entrants))
	for i, e := range t.Entrants {
		withdrawn[i] = e.Withdrawn
	}
	var out []string
	for _, s := range tournaments.Standings(len(t.Entrants), t.Format, upTo, withdrawn) {
		line := say(tp.StandingLine, map[string]any{"Rank": s.Rank, "Player": t.Entrants[s.Player].Title(), "Points": points(s.Points)})
		if s.Withdrawn {
			line += " (" + tp.Withdrawn + ")"
		}
		out = append(out, line)
	}
	return out
}

// tournamentUpdate is the email of log entry number (LogEntry.Number):
// what changed, in the reader's words, the organiser's reason as he wrote
// it, and for a player what it means for him now: when his game ends, or
// when the next round starts. An entry the log no longer has (dropped as
// it grew, or a join cancelled out by the leave that followed) is
// obsolete.
func tournamentUpdate(t *tournaments.Tournament, number, entrant int, playing bool, tp *tournamentPhrases, when readerTime, msg *Message) (doc, error) {
	if number < 1 || number > t.LastLogNumber() {
		return doc{}, fmt.Errorf("tournament %s has no log entry %d", t.ID, number)
	}
	e, ok := t.LogEntryNumbered(number)
	if !ok {
		return doc{}, fmt.Errorf("tournament %s log entry %d is no longer kept: %w", t.ID, number, ErrObsolete)
	}
	what, ok := tp.Actions[e.Action]
	if e.Action == tournaments.ActionWithdrawn && e.By.Name != "" {
		what = tp.Withdrew // to the organiser
	}
	data := map[string]any{"Name": t.Name, "Player": e.By.Name}
	subject := tp.SubjectUpdate
	if e.Action == tournaments.ActionJoined {
		// A team's partner: his team mate entered him. If the team left
		// before this was sent, there is nothing to tell him.
		if !playing {
			return doc{}, fmt.Errorf("tournament %s: the team of log entry %d left: %w", t.ID, number, ErrObsolete)
		}
		what, subject, ok = tp.PartnerEntered, tp.SubjectPartner, true
		data["Team"] = t.Entrants[entrant].Title()
	}
	if words, found := resultWords(e, tp, data); found {
		what, ok = words, true
	}
	if e.Action == tournaments.ActionUnplayed {
		subject = tp.SubjectUnplayed // the scheduler's doing, not the organiser's
	}
	if !ok {
		return doc{}, fmt.Errorf("tournament %s log entry %d: no words for %q", t.ID, number, e.Action)
	}
	msg.Subject = say(subject, data)
	d := doc{preheader: say(what, data), blocks: []block{{text: say(what, data)}}}
	if e.Reason != "" {
		d.blocks = append(d.blocks, block{text: say(tp.Reason, map[string]any{"Reason": e.Reason})})
	}
	if playing {
		if line := scheduleLine(t, entrant, tp, when); line != "" {
			d.blocks = append(d.blocks, block{text: line})
		}
	}
	d.blocks = append(d.blocks, block{text: say(tp.When, map[string]any{"At": when.format(e.At)})})
	return d, nil
}

// resultWords says a result the organiser set or annulled, naming the game
// and the new result, with the entry's facts put in data; false for any
// other entry, and for one stored without its facts.
func resultWords(e tournaments.LogEntry, tp *tournamentPhrases, data map[string]any) (string, bool) {
	a := e.Args
	if a == nil || len(a.Players) == 0 {
		return "", false
	}
	data["Round"] = a.Round
	switch {
	case e.Action == tournaments.ActionResultAnnulled && a.Kind == tournaments.LogBye:
		data["Bye"] = a.Players[0]
		return tp.ByeAnnulled, true
	case len(a.Players) < 2:
		return "", false
	}
	data["Pair"] = a.Players[0] + " – " + a.Players[1]
	switch e.Action {
	case tournaments.ActionUnplayed:
		return tp.Unplayed, true
	case tournaments.ActionResultAnnulled:
		return tp.ResultAnnulled, true
	case tournaments.ActionResultOverridden:
		outcome := tp.DrawnGame
		switch {
		case a.Margin > 0:
			outcome = say(tp.WinsBy, map[string]any{"Winner": a.Players[0], "Margin": a.Margin})
		case a.Margin < 0:
			outcome = say(tp.WinsBy, map[string]any{"Winner": a.Players[1], "Margin": -a.Margin})
		}
		data["Score"], data["Outcome"] = a.Score, outcome
		return tp.ResultSet, true
	}
	return "", false
}

// scheduleLine says what the event's schedule now means for entrant: when
// his running game is adjudicated, or when the next round starts; "" when
// neither (the event is over or paused).
func scheduleLine(t *tournaments.Tournament, entrant int, tp *tournamentPhrases, when readerTime) string {
	if !t.PausedAt.IsZero() || t.Status == tournaments.TournamentFinished || t.Status == tournaments.TournamentCancelled {
		return ""
	}
	if r := t.Current(); r != nil {
		for i, g := range r.Games {
			if (g.White == entrant || g.Black == entrant) && g.GameID != "" && g.Outcome == nil {
				return say(tp.YourDeadline, map[string]any{"Round": r.Number, "Deadline": when.format(r.GameDeadline(i))})
			}
		}
		return ""
	}
	for _, r := range t.Rounds {
		if r.Status == tournaments.RoundPending {
			return say(tp.NextRound, map[string]any{"Round": r.Number, "Start": when.format(r.Start)})
		}
	}
	return ""
}

// roundDeadline reminds entrant's member at email that his game of round
// number is not finished and its deadline is near, with his move link.
// Once the game or the round is over, or he withdrew, the reminder is
// obsolete.
func (r *Renderer) roundDeadline(ctx context.Context, t *tournaments.Tournament, number, entrant int, email string, p *phrases, tp *tournamentPhrases, when readerTime, msg *Message) (doc, error) {
	if number < 1 || number > len(t.Rounds) {
		return doc{}, fmt.Errorf("tournament %s has no round %d", t.ID, number)
	}
	round := &t.Rounds[number-1]
	for i, g := range round.Games {
		if (g.White != entrant && g.Black != entrant) || g.GameID == "" {
			continue
		}
		if round.Status != tournaments.RoundRunning || g.Outcome != nil || t.Entrants[entrant].Withdrawn {
			break
		}
		game, err := r.Store.Game(ctx, g.GameID)
		if err != nil {
			return doc{}, err
		}
		// His own seat: in a team game each member holds one.
		k := slices.IndexFunc(game.Seats, func(s games.Seat) bool { return s.Email == email })
		if game.Over() || k < 0 {
			break
		}
		seat := game.Seats[k]
		move, err := r.Links.MoveURL(game.ID, seat.Color, seat.TokenVersion)
		if err != nil {
			return doc{}, err
		}
		data := map[string]any{"Name": t.Name, "Round": round.Number, "Deadline": when.format(round.GameDeadline(i))}
		msg.Subject = say(tp.SubjectDeadline, data)
		return doc{preheader: say(tp.DeadlineNear, data), blocks: []block{
			{text: say(tp.DeadlineNear, data)},
			{text: say(p.RoundDeadline, data)},
			{link: &link{label: p.MoveLinkLabel, url: move, button: p.MoveButton}},
		}}, nil
	}
	return doc{}, fmt.Errorf("round %d of %s for %s: %w", number, t.ID, email, ErrObsolete)
}
