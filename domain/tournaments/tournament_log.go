package tournaments

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The tournament's log: every action is stored with its facts (LogArgs),
// so a reader sees it in his own language; Detail keeps the English words
// as well, for the clients that read only them, and is all an entry
// stored before the facts were kept has.

// LogEntry is one action on a tournament.
type LogEntry struct {
	// Number is the entry's, from 1, counted over every entry ever logged:
	// it stays the entry's when older ones are dropped (TrimLog) or a join
	// and a leave cancel out (Withdraw), so that a mail about an entry
	// (Notice.Ply) finds it, or finds it gone. 0: an entry stored before
	// entries were numbered, numbered by its place (nothing was taken out
	// of such a log).
	Number int `json:",omitempty"`
	At     time.Time
	By     TournamentActor
	Action string // Action*
	Detail string // what, in English, naming players by name
	// Args are the facts the words name; nil for an entry stored before
	// they were kept (its Detail is all there is).
	Args   *LogArgs `json:",omitempty"`
	Reason string   `json:",omitempty"` // why, as the organiser wrote it
}

// LogArgs are the facts of a log entry: which of its action's wordings
// (Kind) and what they name. Each wording (LogEnglish and its
// translations) takes the arguments {{.p1}} {{.p2}} (Players),
// {{.players}} (all of them, numbered), {{.round}}, {{.count}}, {{.of}},
// {{.for}} (a duration), {{.at}} (a time, UTC), {{.score}} and {{.margin}}.
type LogArgs struct {
	Kind    string        `json:",omitempty"`
	Players []string      `json:",omitempty"`
	Round   int           `json:",omitempty"`
	Count   int           `json:",omitempty"`
	Of      int           `json:",omitempty"`
	For     time.Duration `json:",omitempty"`
	At      time.Time     `json:",omitzero"`
	Score   string        `json:",omitempty"` // White's result: "1–0", "½–½", "0–1"
	Margin  int           `json:",omitempty"` // White's
}

// Kinds of log wordings, for actions with several.
const (
	LogRegistrationLimit      = "limit"       // registration_opened: up to Count players
	LogRegistrationUntil      = "until"       // registration_opened: until At
	LogRegistrationLimitUntil = "limit_until" // registration_opened: both
	LogClosedWith             = "with"        // registration_closed: at the start, with Count players
	LogLate                   = "late"        // entrant_added: into a running event
	LogRenamed                = "renamed"     // entrant_edited: p1 is now called p2
	LogAddress                = "address"     // entrant_edited: p1's address corrected
	LogEnds                   = "ends"        // round_postponed: a running round, ending At
	LogBye                    = "bye"         // result_annulled: of p1's bye
	LogAnnulled               = "annulled"    // withdrawn: Count of Of rounds played, all annulled
	LogHalf                   = "half"        // withdrawn: Count of Of rounds played, half or more
	LogTooFew                 = "too_few"     // cancelled: too few signed up
	LogMoved                  = "moved"       // deciding_game: the later rounds moved by For
	LogRandom                 = "random"      // seeds_set: drawn at random
)

// LogEnglish is each action's wording in English, by action or
// "action/kind": what Detail says. The pages' translations (api) have the
// same keys.
var LogEnglish = map[string]string{
	ActionRegistrationOpened:                                   "registration is open",
	ActionRegistrationOpened + "/" + LogRegistrationLimit:      "registration is open for up to {{.count}} players",
	ActionRegistrationOpened + "/" + LogRegistrationUntil:      "registration is open until {{.at}}",
	ActionRegistrationOpened + "/" + LogRegistrationLimitUntil: "registration is open for up to {{.count}} players until {{.at}}",
	ActionRegistrationClosed:                                   "registration is closed",
	ActionRegistrationClosed + "/" + LogClosedWith:             "registration closed with {{.count}} players",
	ActionJoined:                           "{{.p1}} joined",
	ActionLeft:                             "{{.p1}} left before the start",
	ActionEntrantAdded:                     "{{.p1}} was added",
	ActionEntrantAdded + "/" + LogLate:     "{{.p1}} was added as a late entry",
	ActionEntrantReplaced:                  "{{.p1}} replaces {{.p2}}",
	ActionEntrantEdited + "/" + LogRenamed: "{{.p1}} is now called {{.p2}}",
	ActionEntrantEdited + "/" + LogAddress: "the address of {{.p1}} was corrected",
	ActionDeadlineExtended:                 "the game {{.p1}} – {{.p2}} of round {{.round}} was extended by {{.for}}, to {{.at}}",
	ActionRoundPostponed:                   "round {{.round}} was postponed by {{.for}}: it starts {{.at}}",
	ActionRoundPostponed + "/" + LogEnds:   "round {{.round}} was postponed by {{.for}}: it ends {{.at}}",
	ActionPaused:                           "the tournament is paused: no deadline runs",
	ActionResumed:                          "the tournament resumed after {{.for}}; deadlines moved by as much",
	ActionResultOverridden:                 "the result of {{.p1}} – {{.p2}} (round {{.round}}) was set to {{.score}} (margin {{.margin}})",
	ActionResultAnnulled:                   "the result of {{.p1}} – {{.p2}} (round {{.round}}) was annulled",
	ActionResultAnnulled + "/" + LogBye:    "the result of {{.p1}} – bye (round {{.round}}) was annulled",
	ActionWithdrawn:                        "{{.p1}} withdrew; his remaining games are forfeited",
	ActionWithdrawn + "/" + LogAnnulled:    "{{.p1}} withdrew after {{.count}} of {{.of}} rounds; all his games are annulled",
	ActionWithdrawn + "/" + LogHalf:        "{{.p1}} withdrew after {{.count}} of {{.of}} rounds (half or more): his remaining games are forfeited",
	ActionCancelled:                        "the tournament was cancelled",
	ActionCancelled + "/" + LogTooFew:      "cancelled: fewer than two players signed up",
	ActionDecider:                          "the match {{.p2}} – {{.p1}} of round {{.round}} is level: a deciding game, {{.p1}} with White, is adjudicated {{.at}}",
	ActionDecider + "/" + LogMoved:         "the match {{.p2}} – {{.p1}} of round {{.round}} is level: a deciding game, {{.p1}} with White, is adjudicated {{.at}}; the later rounds move by {{.for}}",
	ActionSeedsSet:                         "the seeds were set: {{.players}}",
	ActionSeedsSet + "/" + LogRandom:       "the seeds were drawn at random: {{.players}}",
	ActionUnplayed:                         "the game {{.p1}} – {{.p2}} of round {{.round}} had no move by its deadline: a double forfeit, lost by both",
}

// LogKey is the key of an entry's wording in LogEnglish and its
// translations.
func LogKey(action string, a LogArgs) string {
	if a.Kind == "" {
		return action
	}
	return action + "/" + a.Kind
}

// LogUnits are the words a wording's durations are written in, each
// taking the number as {{.n}}: Day and Hour for 1 ("1 day"), Days and
// Hours for more. A
// logged duration is a whole, positive number of hours, so 1 is the only
// singular in the pages' five languages.
type LogUnits struct{ Day, Days, Hour, Hours string }

// EnglishUnits are LogUnits in English.
var EnglishUnits = LogUnits{Day: "{{.n}} day", Days: "{{.n}} days", Hour: "{{.n}} hour", Hours: "{{.n}} hours"}

// Render fills a wording's placeholders with a's facts, durations in
// units. Times are UTC and written the same in every language.
func (a LogArgs) Render(wording string, units LogUnits) string {
	player := func(i int) string {
		if i < len(a.Players) {
			return a.Players[i]
		}
		return ""
	}
	numbered := make([]string, len(a.Players))
	for i, p := range a.Players {
		numbered[i] = strconv.Itoa(i+1) + ". " + p
	}
	return strings.NewReplacer(
		"{{.p1}}", player(0), "{{.p2}}", player(1), "{{.players}}", strings.Join(numbered, ", "),
		"{{.round}}", strconv.Itoa(a.Round), "{{.count}}", strconv.Itoa(a.Count), "{{.of}}", strconv.Itoa(a.Of),
		"{{.for}}", durationText(a.For, units), "{{.at}}", fmtTime(a.At),
		"{{.score}}", a.Score, "{{.margin}}", fmt.Sprintf("%+d", a.Margin),
	).Replace(wording)
}

// durationText writes a duration in whole days when it is some, else in
// hours.
func durationText(d time.Duration, units LogUnits) string {
	one := func(n int, singular, plural string) string {
		if n == 1 && singular != "" {
			return strings.ReplaceAll(singular, "{{.n}}", strconv.Itoa(n))
		}
		return strings.ReplaceAll(plural, "{{.n}}", strconv.Itoa(n))
	}
	if h := d.Round(time.Hour); h%(24*time.Hour) == 0 && h > 0 {
		return one(int(h/(24*time.Hour)), units.Day, units.Days)
	}
	return one(int(d.Round(time.Hour)/time.Hour), units.Hour, units.Hours)
}

func fmtTime(t time.Time) string { return t.UTC().Format("2006-01-02 15:04 UTC") }

// logf appends an action to the log, with its facts and its English
// words; every logged action is a change.
func (t *Tournament) logf(by TournamentActor, now time.Time, action, reason string, args LogArgs) {
	detail := args.Render(LogEnglish[LogKey(action, args)], EnglishUnits)
	t.numberLog()
	t.Logged++
	t.Log = append(t.Log, LogEntry{Number: t.Logged, At: now, By: by, Action: action, Detail: detail, Args: &args, Reason: reason})
	t.Version++
	t.UpdatedAt = now
}

// DefaultLog is how many entries a tournament's log keeps by
// default (see TrimLog): more than a 64-player event's sign-up and a
// season of the organiser's actions, about 50 kB.
const DefaultLog = 200

// numberLog numbers the entries of a log stored before entries were
// numbered by their place, as they were known then.
func (t *Tournament) numberLog() {
	if t.Logged != 0 {
		return
	}
	for i := range t.Log {
		t.Log[i].Number = i + 1
	}
	t.Logged = len(t.Log)
}

// LastLogNumber is the number of the latest entry ever logged (0 for
// none): the entry a mail about the latest action names.
func (t *Tournament) LastLogNumber() int {
	if t.Logged == 0 {
		return len(t.Log)
	}
	return t.Logged
}

// LogEntryNumbered finds the entry of a number; false when there is none
// (a number never given, or an entry since dropped or cancelled out).
func (t *Tournament) LogEntryNumbered(number int) (LogEntry, bool) {
	for i, e := range t.Log {
		if e.Number == number || e.Number == 0 && i+1 == number {
			return e, number > 0
		}
	}
	return LogEntry{}, false
}

// TrimLog keeps the newest most entries of the log and drops the older
// ones, counting them in Trimmed, so that the log, which every reading
// of the event shows and every change rewrites, stays bounded however busy
// the event. most <= 0 keeps every entry.
func (t *Tournament) TrimLog(most int) {
	if most <= 0 || len(t.Log) <= most {
		return
	}
	t.numberLog()
	drop := len(t.Log) - most
	t.Log = append([]LogEntry(nil), t.Log[drop:]...)
	t.Trimmed += drop
}

// unlogEntry takes out the entry that entered a player (number; joined, or
// added by the organiser) when he leaves before the start, so that joining
// and leaving again and again leaves no trace: only while the entry names
// him as he is (title) and no later entry names him. It reports whether
// it did; if not, his leaving is logged as ever.
func (t *Tournament) unlogEntry(number int, title string) bool {
	at := slices.IndexFunc(t.Log, func(e LogEntry) bool { return number > 0 && e.Number == number })
	if at < 0 {
		return false
	}
	e := t.Log[at]
	if e.Action != ActionJoined && e.Action != ActionEntrantAdded || e.Args == nil || len(e.Args.Players) == 0 || e.Args.Players[0] != title {
		return false
	}
	for _, later := range t.Log[at+1:] {
		if later.Args != nil && slices.Contains(later.Args.Players, title) {
			return false
		}
	}
	t.Log = slices.Delete(t.Log, at, at+1)
	return true
}
