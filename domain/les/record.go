package les

import (
	"bufio"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// A game record is text in the style of the project's Less records: header
// tags, a blank line, then one line per ply with its number (0 is the
// setup), who played it (the setter and the chooser for plies 0 and 1, then
// the stone colour of the mover) and the ply in canonical notation:
//
//	[Game "Les"]
//	[Size "9"]
//	[Setter "Ann"]
//	[Chooser "Bob"]
//	[Result "black+2"]
//	[Termination "no_move"]
//	[Holes "4-2"]
//
//	0 setter g12:g11:l13:j13
//	1 chooser black
//	2 black f11:q7
//	3 white h12:m10
//
// Game and Size are required. Result is "*" while the game goes on (see
// ResultText); Termination (a Reason) and Holes (the owned holes of Black and
// of White, once the colours are chosen) appear once it is over. A
// resignation, a loss on time or an adjudication, which no ply shows, is
// read from Termination and Result. Text after ";" on a ply line is a
// comment. Other tags (Event, Date, …) are kept in order.

// Record is a game together with its history and what its record carries
// besides the plies.
type Record struct {
	Game    *Engine
	History []Played
	// Players names the player of each seat; a name may be empty.
	Players map[Seat]string
	// Extra holds any other tags, in order.
	Extra []Tag
}

// Tag is one header line: [Name "Value"].
type Tag struct{ Name, Value string }

// MaxRecordSize bounds the text ParseRecord reads.
const MaxRecordSize = 1 << 20

// GameTag is the value of the Game tag that marks a Les record.
const GameTag = "Les"

const (
	tagGame        = "Game"
	tagSize        = "Size"
	tagResult      = "Result"
	tagTermination = "Termination"
	tagHoles       = "Holes"
)

// seatTag is the tag naming a seat's player: Setter, Chooser.
func seatTag(s Seat) string { return title(s.String()) }

// String writes the record in canonical form.
func (r Record) String() string {
	g := r.Game
	var sb strings.Builder
	tag := func(name, value string) {
		sb.WriteString("[" + name + " " + strconv.Quote(value) + "]\n")
	}
	tag(tagGame, GameTag)
	tag(tagSize, itoa(g.board.side))
	for _, s := range []Seat{Setter, Chooser} {
		tag(seatTag(s), r.Players[s])
	}
	tag(tagResult, g.ResultText())
	if res, over := g.Outcome(); over {
		tag(tagTermination, string(res.Reason))
		if g.ply >= 2 {
			tag(tagHoles, holesText(res))
		}
	}
	for _, t := range r.Extra {
		tag(t.Name, t.Value)
	}
	sb.WriteByte('\n')
	for _, p := range r.History {
		sb.WriteString(itoa(p.Ply) + " " + r.who(p) + " " + p.Text() + "\n")
	}
	return sb.String()
}

// who is the second field of a ply line: the seat for the setup and the
// choice, the stone colour for a turn.
func (r Record) who(p Played) string {
	if p.Ply < 2 {
		return p.Seat.String()
	}
	return p.Color.String()
}

func holesText(r Result) string {
	return itoa(len(r.Holes[Black])) + "-" + itoa(len(r.Holes[White]))
}

// NoPly is RecordError.Ply for an error about no one ply.
const NoPly = -1

// RecordError says where and why a record was refused. For an illegal ply,
// Ply is its number (0 = setup) and Err a *PlyError with the code and the
// index of the offending point.
type RecordError struct {
	Line int // 1-based line number, 0 if about the whole record
	Ply  int // NoPly unless a ply is illegal
	Err  error
}

func (e *RecordError) Error() string {
	switch {
	case e.Ply != NoPly:
		return fmt.Sprintf("game record line %d, ply %d: %v", e.Line, e.Ply, e.Err)
	case e.Line == 0:
		return "game record: " + e.Err.Error()
	}
	return fmt.Sprintf("game record line %d: %v", e.Line, e.Err)
}

func (e *RecordError) Unwrap() error { return e.Err }

func recordError(line int, err error) *RecordError {
	return &RecordError{Line: line, Ply: NoPly, Err: err}
}

type numberedLine struct {
	n    int
	text string
}

// ParseRecord reads a game record, replays every ply with the rules and
// checks the result tags against the replay. The first illegal ply is
// reported with its line, its number and the rule it breaks.
func ParseRecord(text string) (*Record, error) {
	if len(text) > MaxRecordSize {
		return nil, recordError(0, fmt.Errorf("longer than %d bytes", MaxRecordSize))
	}
	if !utf8.ValidString(text) {
		return nil, recordError(0, errors.New("not valid UTF-8"))
	}
	tags := map[string]string{}
	var order []string
	var lines []numberedLine
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(make([]byte, 0, 4096), MaxRecordSize)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if i := strings.IndexByte(line, ';'); i >= 0 && !strings.HasPrefix(line, "[") {
			line = strings.TrimSpace(line[:i])
		}
		switch {
		case line == "":
		case strings.HasPrefix(line, "["):
			if len(lines) > 0 {
				return nil, recordError(n, errors.New("a tag after the plies"))
			}
			name, value, err := parseTag(line)
			if err != nil {
				return nil, recordError(n, err)
			}
			if _, dup := tags[name]; dup {
				return nil, recordError(n, fmt.Errorf("tag %s appears twice", name))
			}
			tags[name] = value
			order = append(order, name)
		default:
			lines = append(lines, numberedLine{n, line})
		}
	}
	if err := sc.Err(); err != nil {
		return nil, recordError(0, err)
	}
	r, err := recordHeader(tags, order)
	if err != nil {
		return nil, recordError(0, err)
	}
	if err := r.replay(lines); err != nil {
		return nil, err
	}
	if err := r.checkResult(tags); err != nil {
		return nil, recordError(0, err)
	}
	return r, nil
}

func recordHeader(tags map[string]string, order []string) (*Record, error) {
	if v, ok := tags[tagGame]; !ok || !strings.EqualFold(v, GameTag) {
		return nil, fmt.Errorf("not a Les record: the Game tag is %q, want %q", clip(v), GameTag)
	}
	sizeText, ok := tags[tagSize]
	if !ok {
		return nil, errors.New("the Size tag is missing")
	}
	side, err := strconv.Atoi(sizeText)
	if err != nil {
		return nil, fmt.Errorf("%w: Size %q", ErrBoard, clip(sizeText))
	}
	g, err := NewEngine(side)
	if err != nil {
		return nil, err
	}
	r := &Record{Game: g, Players: map[Seat]string{}}
	known := map[string]bool{tagGame: true, tagSize: true, tagResult: true, tagTermination: true, tagHoles: true}
	for _, s := range []Seat{Setter, Chooser} {
		known[seatTag(s)] = true
		r.Players[s] = tags[seatTag(s)]
	}
	for _, name := range order {
		if !known[name] {
			r.Extra = append(r.Extra, Tag{name, tags[name]})
		}
	}
	return r, nil
}

func (r *Record) replay(lines []numberedLine) error {
	g := r.Game
	for _, l := range lines {
		fields := strings.Fields(l.text)
		if len(fields) < 3 {
			return recordError(l.n, errors.New("a ply line is: number, who, ply, like 2 black d4:k12"))
		}
		num, err := strconv.Atoi(fields[0])
		if err != nil {
			return recordError(l.n, fmt.Errorf("ply number %q is not a number", clip(fields[0])))
		}
		if g.Over() {
			return recordError(l.n, fmt.Errorf("ply %d comes after the end of the game", num))
		}
		if num != g.ply {
			return recordError(l.n, fmt.Errorf("ply numbered %d, want %d", num, g.ply))
		}
		want := g.Mover().String()
		if g.ply >= 2 {
			want = g.pos.toMove.String()
		}
		if !strings.EqualFold(fields[1], want) {
			return recordError(l.n, fmt.Errorf("ply %d is %s's, not %q's", num, want, clip(fields[1])))
		}
		p, err := g.PlayPly(strings.Join(fields[2:], " "))
		if err != nil {
			return &RecordError{Line: l.n, Ply: num, Err: err}
		}
		r.History = append(r.History, p)
	}
	return nil
}

// checkResult compares the result tags with the replay; a resignation, a
// loss on time or an adjudication, which no ply shows, is applied from them.
func (r *Record) checkResult(tags map[string]string) error {
	g := r.Game
	result, ok := tags[tagResult]
	if !ok {
		result = "*"
	}
	why := Reason(tags[tagTermination])
	if !g.Over() {
		var err error
		switch why {
		case ReasonResignation, ReasonTimeout:
			err = r.concedeFrom(result, why)
		case ReasonAdjudicated:
			err = g.Adjudicate()
		}
		if err != nil {
			return err
		}
	}
	if got := g.ResultText(); got != result {
		return fmt.Errorf("the Result tag says %q but the plies give %q", clip(result), got)
	}
	res, over := g.Outcome()
	if v, ok := tags[tagTermination]; ok && (!over || v != string(res.Reason)) {
		how := "is not over"
		if over {
			how = "ended by " + string(res.Reason)
		}
		return fmt.Errorf("the Termination tag says %q but the game %s", clip(v), how)
	}
	if v, ok := tags[tagHoles]; ok && (!over || g.ply < 2 || v != holesText(res)) {
		return fmt.Errorf("the Holes tag says %q, which the plies do not give", clip(v))
	}
	return nil
}

// concedeFrom ends the game by resignation or time-out for the winner the
// Result tag names (a colour, or a seat before the choice).
func (r *Record) concedeFrom(result string, why Reason) error {
	g := r.Game
	name, _, found := strings.Cut(result, "+")
	var loser Seat
	switch {
	case !found:
		return fmt.Errorf("the Result %q does not name the winner of a %s", clip(result), why)
	case g.ply >= 2:
		c, err := ParseColor(name)
		if err != nil {
			return fmt.Errorf("the Result %q does not name the winner of a %s", clip(result), why)
		}
		loser = g.seatOf(c).Other()
	default:
		s, err := ParseSeat(name)
		if err != nil {
			return fmt.Errorf("the Result %q does not name the winner of a %s", clip(result), why)
		}
		loser = s.Other()
	}
	if why == ReasonTimeout {
		if loser != g.Mover() {
			return fmt.Errorf("the Result %q has the player lose on time who was not to move", clip(result))
		}
		return g.timeOut()
	}
	return g.ResignSeat(loser)
}

// parseTag reads [Name "Value"].
func parseTag(line string) (name, value string, err error) {
	if !strings.HasSuffix(line, "]") {
		return "", "", errors.New(`a tag is [Name "value"]`)
	}
	inner := strings.TrimSpace(line[1 : len(line)-1])
	name, quoted, ok := strings.Cut(inner, " ")
	if !ok || name == "" {
		return "", "", errors.New(`a tag is [Name "value"]`)
	}
	for _, ch := range name {
		if !(ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || ch >= '0' && ch <= '9' || ch == '_') {
			return "", "", fmt.Errorf("tag name %q: letters, digits and _ only", clip(name))
		}
	}
	quoted = strings.TrimSpace(quoted)
	value, err = strconv.Unquote(quoted)
	if err != nil || !strings.HasPrefix(quoted, `"`) {
		return "", "", fmt.Errorf("tag %s: the value must be a quoted string", name)
	}
	for _, ch := range value {
		if ch < ' ' || ch == 0x7f {
			return "", "", fmt.Errorf("tag %s: control characters are not allowed", name)
		}
	}
	return name, value, nil
}
