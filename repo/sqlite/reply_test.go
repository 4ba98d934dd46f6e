package sqlite

import (
	"reflect"
	"testing"
	"time"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/games"
	"github.com/lesspost/lesspost/domain/less"
)

// A turn by email on SQLite: the refusal is queued with its detail, which
// the outbox gives back as written, and a duplicate delivery answers nothing.
func TestPlayByReplyQueuesItsAnswerWithDetail(t *testing.T) {
	ctx := t.Context()
	db := newStore(t)
	creator := signUp(t, db, "org@example.org", t0)
	g, err := db.serviceAt(t0).CreateGame(ctx, games.NewGameSpec{Players: []games.Player{
		{Name: "Ann", Email: "ann@example.org"}, {Name: "Bob", Email: "bob@example.org"}},
		Params: less.Params{Walls: openWalls}.Map()}, creator.ID)
	if err != nil {
		t.Fatal(err)
	}
	now := t0.Add(time.Minute)
	svc := db.serviceAt(now)
	tests := []struct {
		name   string
		reply  games.Reply
		status games.ReplyStatus
		detail *domain.ReplyDetail
		email  string
	}{
		{"no turn", games.Reply{From: "ann@example.org", MessageID: "m1", Lines: []string{"Hello,", "see you"}},
			games.ReplyRefused, &domain.ReplyDetail{Reason: games.ReplyNoTurn, Lines: []string{"Hello,", "see you"}}, "ann@example.org"},
		{"illegal", games.Reply{From: "ann@example.org", MessageID: "m2", Lines: []string{"e5e4:a1a2"}},
			games.ReplyRefused, &domain.ReplyDetail{Reason: domain.CodeIllegalTurn, Turn: "e5e4:a1a2", Rule: "not_your_piece", RuleRef: "M6", Part: 2},
			"ann@example.org"},
		{"a stranger", games.Reply{From: "eve@example.org", MessageID: "m3", Lines: []string{"e5e4:e4d4:d4c4"}},
			games.ReplyRefused, &domain.ReplyDetail{Reason: games.ReplyNotSeatAddress, From: "eve@example.org"}, "ann@example.org"},
		{"played, confirmed", games.Reply{From: "ann@example.org", MessageID: "m4", Lines: []string{"e5e4:e4d4:d4c4"}},
			games.ReplyPlayed, &domain.ReplyDetail{Turn: "e5e4:e4d4:d4c4"}, "ann@example.org"},
	}
	for _, tt := range tests {
		before, _ := db.DueMail(ctx, now, 100)
		r := tt.reply
		r.GameID, r.Color = g.ID, "white"
		out, err := svc.PlayByReply(ctx, r)
		if err != nil || out.Status != tt.status {
			t.Fatalf("%s: PlayByReply = %+v, %v; want %s", tt.name, out, err, tt.status)
		}
		due, err := db.DueMail(ctx, now, 100)
		if err != nil {
			t.Fatal(err)
		}
		var got *domain.OutboxMail
		for i := range due[len(before):] {
			if m := due[len(before)+i]; m.Notice.Reply != nil {
				got = &m
			}
		}
		if got == nil || got.Email != tt.email || !reflect.DeepEqual(got.Notice.Reply, tt.detail) {
			t.Errorf("%s: queued %+v, want a notice to %s with %+v", tt.name, due[len(before):], tt.email, tt.detail)
		}
		if again, err := svc.PlayByReply(ctx, r); err != nil || !again.Replayed {
			t.Errorf("%s: delivered again: %+v, %v", tt.name, again, err)
		}
		if after, _ := db.DueMail(ctx, now, 100); len(after) != len(due) {
			t.Errorf("%s: delivered again, %d more mails", tt.name, len(after)-len(due))
		}
	}
	if got, _ := db.Game(ctx, g.ID); got.Ply() != 1 || got.Version != g.Version+1 {
		t.Errorf("game at ply %d version %d, want the one turn played (version %d)", got.Ply(), got.Version, g.Version+1)
	}
}
