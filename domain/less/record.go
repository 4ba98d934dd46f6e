package less

import (
	"bufio"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// A game record is text, like PGN for chess: header tags, a blank line, then
// one line per turn with the mover's turn number and colour. For example:
//
//	[Size "6"]
//	[Walls "000001000100000000000000000010100100001002000001000100000010"]
//	[White "Ann"]
//	[Black "Bob"]
//	[Preset "classic"]
//	[EarlyStop "false"]
//	[MaxTurns "40"]
//	[Result "white+2"]
//	[Termination "complete"]
//	[Totals "21-23"]
//
//	1 white f5d5:e5c5:c5b5
//	1 black a2c2:b1c1:c1c3
//
// The turn number is the mover's own count of turns (E3 limits it). A pass the
// game made for a player is written "Nil ; auto", a turn passed because the
// player's time ran out "Nil ; timeout". Other text after ";" is a comment.
// Seed, Setup (a set-up start position) and any other tags (Event, Date, …)
// are optional; other tags are kept in order.

// Record is a game together with what its record carries besides the turns.
type Record struct {
	Game *Engine
	// History is every turn of the game in order, automatic passes included.
	History []Played
	// Players names the player of each colour; a name may be empty.
	Players map[Color]string
	Preset  Preset
	// Seed is the board's generator seed, when the board was generated (B5).
	Seed *uint64
	// Extra holds any other tags, in order.
	Extra []Tag
}

// Tag is one header line: [Name "Value"].
type Tag struct{ Name, Value string }

// MaxRecordSize bounds the text ParseRecord reads.
const MaxRecordSize = 1 << 20

// standard tag names, in the order a record writes them.
const (
	tagSize        = "Size"
	tagWalls       = "Walls"
	tagSeed        = "Seed"
	tagPreset      = "Preset"
	tagEarlyStop   = "EarlyStop"
	tagMaxTurns    = "MaxTurns"
	tagSetup       = "Setup"
	tagResult      = "Result"
	tagTermination = "Termination"
	tagTotals      = "Totals"
)

// String writes the record in canonical form.
func (r Record) String() string {
	g := r.Game
	size := g.pos.Size()
	var sb strings.Builder
	tag := func(name, value string) {
		sb.WriteString("[" + name + " " + quoteTag(value) + "]\n")
	}
	tag(tagSize, strconv.Itoa(size))
	tag(tagWalls, g.pos.board.walls)
	if r.Seed != nil {
		tag(tagSeed, strconv.FormatUint(*r.Seed, 10))
	}
	for _, c := range Colors(size) {
		tag(titleCase(c.String()), r.Players[c])
	}
	preset := r.Preset
	if preset == "" {
		preset = PresetClassic
	}
	tag(tagPreset, string(preset))
	tag(tagEarlyStop, strconv.FormatBool(g.opts.EarlyStop))
	tag(tagMaxTurns, strconv.Itoa(g.opts.MaxTurns))
	if !g.start.Equal(StartPosition(g.start.board, g.opts.EarlyStop)) {
		tag(tagSetup, g.start.String())
	}
	tag(tagResult, ResultText(g))
	if res, over := g.Result(); over {
		tag(tagTermination, string(res.Reason))
		tag(tagTotals, fmt.Sprintf("%d-%d", res.Totals[SideWhite], res.Totals[SideBlack]))
	}
	for _, t := range r.Extra {
		tag(t.Name, t.Value)
	}
	sb.WriteByte('\n')
	var turns [4]int
	for _, p := range r.History {
		turns[p.Color]++
		sb.WriteString(strconv.Itoa(turns[p.Color]) + " " + p.Color.String() + " " + p.Turn.String())
		switch {
		case p.TimedOut:
			sb.WriteString(" ; " + commentTimeout)
		case p.Auto:
			sb.WriteString(" ; auto")
		}
		sb.WriteByte('\n')
	}
	return sb.String()
}

// ResultText writes a game's result as a record does: "white+2",
// "black-red+10", "draw", or "*" while the game goes on.
func ResultText(g *Engine) string {
	res, over := g.Result()
	switch {
	case !over:
		return "*"
	case res.Draw:
		return "draw"
	default:
		return SideName(res.Winner, g.pos.Size()) + "+" + strconv.Itoa(res.Margin)
	}
}

// RecordError says where and why a record was refused. Err is a *TurnError
// when a turn is illegal.
type RecordError struct {
	Line int // 1-based line number, 0 if about the whole record
	Err  error
}

func (e *RecordError) Error() string {
	if e.Line == 0 {
		return "game record: " + e.Err.Error()
	}
	return fmt.Sprintf("game record line %d: %v", e.Line, e.Err)
}

func (e *RecordError) Unwrap() error { return e.Err }

// ParseRecord reads a game record, replays every turn with the rules and
// checks the result tags against the replay. An illegal turn is reported
// with its line, its turn number and colour, and the rule it breaks.
func ParseRecord(text string) (*Record, error) {
	if len(text) > MaxRecordSize {
		return nil, &RecordError{Err: fmt.Errorf("longer than %d bytes", MaxRecordSize)}
	}
	if !utf8.ValidString(text) {
		return nil, &RecordError{Err: errors.New("not valid UTF-8")}
	}
	tags := map[string]string{}
	var order []string
	var turnLines []numberedLine
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(make([]byte, 0, 4096), MaxRecordSize)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		timeout := false
		if i := strings.IndexByte(line, ';'); i >= 0 && !strings.HasPrefix(line, "[") {
			timeout = strings.TrimSpace(line[i+1:]) == commentTimeout
			line = strings.TrimSpace(line[:i])
		}
		switch {
		case line == "":
		case strings.HasPrefix(line, "["):
			if len(turnLines) > 0 {
				return nil, &RecordError{Line: n, Err: errors.New("a tag after the turns")}
			}
			name, value, err := parseTag(line)
			if err != nil {
				return nil, &RecordError{Line: n, Err: err}
			}
			if _, dup := tags[name]; dup {
				return nil, &RecordError{Line: n, Err: fmt.Errorf("tag %s appears twice", name)}
			}
			tags[name] = value
			order = append(order, name)
		default:
			turnLines = append(turnLines, numberedLine{n, line, timeout})
		}
	}
	r, err := recordHeader(tags, order)
	if err != nil {
		return nil, &RecordError{Err: err}
	}
	if err := r.replay(turnLines); err != nil {
		return nil, err
	}
	if err := r.checkResult(tags); err != nil {
		return nil, &RecordError{Err: err}
	}
	return r, nil
}

type numberedLine struct {
	n       int
	text    string
	timeout bool // the line's comment says the turn was passed on time
}

// commentTimeout marks a turn passed on time; replay must pass it the same way.
const commentTimeout = "timeout"

func recordHeader(tags map[string]string, order []string) (*Record, error) {
	need := func(name string) (string, error) {
		v, ok := tags[name]
		if !ok {
			return "", fmt.Errorf("the %s tag is missing", name)
		}
		return v, nil
	}
	sizeText, err := need(tagSize)
	if err != nil {
		return nil, err
	}
	size, err := strconv.Atoi(sizeText)
	if err != nil {
		return nil, fmt.Errorf("%w: size %q", ErrBoard, sizeText)
	}
	walls, err := need(tagWalls)
	if err != nil {
		return nil, err
	}
	board, err := ParseBoard(size, walls)
	if err != nil {
		return nil, err
	}
	r := &Record{Players: map[Color]string{}, Preset: Preset(tags[tagPreset])}
	if r.Preset == "" {
		r.Preset = PresetClassic
	}
	opts, err := PresetOptions(r.Preset, size)
	if err != nil {
		return nil, err
	}
	if v, ok := tags[tagEarlyStop]; ok {
		if opts.EarlyStop, err = strconv.ParseBool(v); err != nil {
			return nil, fmt.Errorf("%w: EarlyStop %q, want true or false", ErrOptions, v)
		}
	}
	if v, ok := tags[tagMaxTurns]; ok {
		if opts.MaxTurns, err = strconv.Atoi(v); err != nil {
			return nil, fmt.Errorf("%w: MaxTurns %q", ErrOptions, v)
		}
	}
	if v, ok := tags[tagSeed]; ok {
		seed, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%w: Seed %q", ErrBoard, v)
		}
		if generated, err := GenerateBoard(size, seed); err != nil || generated.walls != board.walls {
			return nil, fmt.Errorf("%w: seed %d does not generate these walls", ErrBoard, seed)
		}
		r.Seed = &seed
	}
	start := StartPosition(board, opts.EarlyStop)
	if v, ok := tags[tagSetup]; ok {
		if start, err = ParsePosition(board, v, opts.EarlyStop); err != nil {
			return nil, err
		}
	}
	if r.Game, r.History, err = NewGame(start, opts); err != nil {
		return nil, err
	}
	known := map[string]bool{tagSize: true, tagWalls: true, tagSeed: true, tagPreset: true, tagEarlyStop: true,
		tagMaxTurns: true, tagSetup: true, tagResult: true, tagTermination: true, tagTotals: true}
	for _, c := range Colors(size) {
		name := titleCase(c.String())
		known[name] = true
		r.Players[c] = tags[name]
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
	var turns [4]int
	next := 0 // index into r.History of the next ply a line must match
	for _, l := range lines {
		fields := strings.Fields(l.text)
		if len(fields) < 3 {
			return &RecordError{Line: l.n, Err: errors.New("a turn line is: number colour turn, like 1 white e5e4:e4e3")}
		}
		num, err := strconv.Atoi(fields[0])
		if err != nil {
			return &RecordError{Line: l.n, Err: fmt.Errorf("turn number %q is not a number", clip(fields[0]))}
		}
		color, err := ParseColor(fields[1])
		if err != nil {
			return &RecordError{Line: l.n, Err: err}
		}
		pending := next < len(r.History) // the game already passed for this player
		if g.Over() && !pending {
			return &RecordError{Line: l.n, Err: fmt.Errorf("turn %d %s comes after the end of the game", num, color)}
		}
		want := g.pos.toMove
		if pending {
			want = r.History[next].Color
		}
		if color != want {
			return &RecordError{Line: l.n, Err: fmt.Errorf("turn %d is %s's, but %s is to move", num, color, want)}
		}
		turns[color]++
		if num != turns[color] {
			return &RecordError{Line: l.n, Err: fmt.Errorf("%s's turn is numbered %d, want %d", color, num, turns[color])}
		}
		turn, err := ParseTurn(strings.Join(fields[2:], " "))
		if err != nil {
			return &RecordError{Line: l.n, Err: fmt.Errorf("turn %d %s: %w", num, color, err)}
		}
		next++
		if pending {
			if len(turn) != 0 {
				return &RecordError{Line: l.n, Err: fmt.Errorf("turn %d %s: the player had to pass (Nil), got %s", num, color, turn)}
			}
			continue
		}
		var played []Played
		if l.timeout {
			if len(turn) != 0 {
				return &RecordError{Line: l.n, Err: fmt.Errorf("turn %d %s: a turn passed on time is Nil, got %s", num, color, turn)}
			}
			played, err = g.PassOnTime()
		} else {
			played, err = g.Play(turn)
		}
		if err != nil {
			return &RecordError{Line: l.n, Err: fmt.Errorf("turn %d %s: %w", num, color, err)}
		}
		r.History = append(r.History, played...)
	}
	if next < len(r.History) {
		return &RecordError{Err: fmt.Errorf("the record stops before the automatic pass of %s", r.History[next].Color)}
	}
	return nil
}

// checkResult compares the result tags with the replay; resignation and
// time-out, which no turn shows, are applied from them.
func (r *Record) checkResult(tags map[string]string) error {
	g := r.Game
	size := g.pos.Size()
	result, ok := tags[tagResult]
	if !ok {
		result = "*"
	}
	if why := Reason(tags[tagTermination]); !g.Over() && (why == ReasonResignation || why == ReasonTimeout) {
		name, _, found := strings.Cut(result, "+")
		winner, err := ParseSide(name, size)
		if !found || err != nil {
			return fmt.Errorf("Result %q does not name the winner of a %s", result, why)
		}
		if why == ReasonResignation {
			err = g.Resign(winner.Other())
		} else {
			err = g.TimeOut(winner.Other())
		}
		if err != nil {
			return err
		}
	}
	if got := ResultText(g); got != result {
		return fmt.Errorf("the Result tag says %q but the turns give %q", result, got)
	}
	res, over := g.Result()
	if v, ok := tags[tagTermination]; ok && (!over || v != string(res.Reason)) {
		return fmt.Errorf("the Termination tag says %q but the game %s", v, endedHow(g))
	}
	if v, ok := tags[tagTotals]; ok {
		if !over || v != fmt.Sprintf("%d-%d", res.Totals[SideWhite], res.Totals[SideBlack]) {
			return fmt.Errorf("the Totals tag says %q but the turns give %s", v, totalsText(g))
		}
	}
	return nil
}

func endedHow(g *Engine) string {
	if res, over := g.Result(); over {
		return "ended by " + string(res.Reason)
	}
	return "is not over"
}

func totalsText(g *Engine) string {
	if res, over := g.Result(); over {
		return fmt.Sprintf("%d-%d", res.Totals[SideWhite], res.Totals[SideBlack])
	}
	return "none (the game is not over)"
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
	value, err = strconv.Unquote(strings.TrimSpace(quoted))
	if err != nil || !strings.HasPrefix(strings.TrimSpace(quoted), `"`) {
		return "", "", fmt.Errorf("tag %s: the value must be a quoted string", name)
	}
	for _, ch := range value {
		if ch < ' ' || ch == 0x7f {
			return "", "", fmt.Errorf("tag %s: control characters are not allowed", name)
		}
	}
	return name, value, nil
}

// quoteTag quotes a tag value; control characters never reach a record
// (ParseRecord refuses them) but are escaped if a caller passes them.
func quoteTag(v string) string { return strconv.Quote(v) }

func titleCase(s string) string { return strings.ToUpper(s[:1]) + s[1:] }

// ParsePosition reads a placement as Position.String writes it:
// "white:e5,e6,f5,f6 black:a1,a2,b1,b2 to-move:white".
func ParsePosition(b *Board, text string, earlyStop bool) (Position, error) {
	placement := Placement{}
	toMove, haveMover := Color(0), false
	for _, field := range strings.Fields(text) {
		key, list, ok := strings.Cut(field, ":")
		if !ok {
			return Position{}, fmt.Errorf("%w: %q is not colour:squares", ErrPosition, clip(field))
		}
		if key == "to-move" {
			c, err := ParseColor(list)
			if err != nil {
				return Position{}, fmt.Errorf("%w: %v", ErrPosition, err)
			}
			toMove, haveMover = c, true
			continue
		}
		c, err := ParseColor(key)
		if err != nil {
			return Position{}, fmt.Errorf("%w: %v", ErrPosition, err)
		}
		if _, dup := placement[c]; dup {
			return Position{}, fmt.Errorf("%w: %s is listed twice", ErrPosition, c)
		}
		placement[c] = []Square{}
		for _, s := range strings.Split(list, ",") {
			sq, err := ParseSquare(s)
			if err != nil {
				return Position{}, fmt.Errorf("%w: %v", ErrPosition, err)
			}
			placement[c] = append(placement[c], sq)
		}
	}
	if !haveMover {
		return Position{}, fmt.Errorf("%w: no to-move", ErrPosition)
	}
	return NewPosition(b, placement, toMove, earlyStop)
}
