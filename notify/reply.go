package notify

import (
	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/games"
)

// replyTo gives the email of a ply to the seat to move its reply address
// (Reply-To) and says how to answer: the invitation, the your-turn email,
// and the answer to a reply that played nothing. Only while the email is
// about the game as it is: an email of an older ply would name a ply that
// is refused as earlier.
func (r *Renderer) replyTo(msg *Message, d *doc, v *gameView, mail gameMail, p *phrases) error {
	switch v.notice.Kind {
	case domain.NoticeInvitation, domain.NoticeYourTurn, domain.NoticeReplyRefused:
	default:
		return nil
	}
	g := &v.game
	if g.Over() || g.Ply() != v.notice.Ply || g.ToMove() != v.seat.Color {
		return nil
	}
	example, ok := mail.example()
	if !ok {
		return nil
	}
	addr, err := r.Links.ReplyAddress(g.ID, v.seat.Color, v.notice.Ply)
	if err != nil || addr == "" {
		return err
	}
	msg.ReplyTo = addr
	how := block{text: say(p.ReplyHow, map[string]any{"Example": example})}
	if v.notice.Kind == domain.NoticeReplyRefused {
		how.text = p.ReplyAgain + " " + how.text
	}
	d.blocks = append(d.blocks, how)
	return nil
}

// replyAnswer is the answer to a turn sent by replying to an email: played
// (a confirmation), or why nothing was played, with the board as it is.
func (v *gameView) replyAnswer(p *phrases, mail gameMail) doc {
	detail := domain.ReplyDetail{}
	if v.notice.Reply != nil {
		detail = *v.notice.Reply
	}
	data := map[string]any{"Turn": detail.Turn, "From": detail.From, "Rule": detail.Rule, "RuleRef": detail.RuleRef,
		"Part": detail.Part, "Reason": detail.Reason, "Minutes": detail.WaitMinutes}
	var intro block
	switch {
	case v.notice.Kind == domain.NoticeReplyAccepted:
		intro.text = say(p.ReplyAccepted, data)
	case detail.Reason == games.ReplyNotSeatAddress:
		intro.text = say(p.ReplyStranger, data)
	case detail.Reason == games.ReplyEarlierTurn:
		intro.text = p.ReplyEarlier
	case detail.Reason == games.ReplyNoTurn:
		intro = block{text: p.ReplyNoTurn, list: detail.Lines}
	case detail.Reason == domain.CodeIllegalTurn:
		intro.text = say(p.ReplyIllegal, data)
	case detail.Reason == domain.CodeNotYourTurn:
		intro.text = p.ReplyNotYourTurn
	case detail.Reason == domain.CodeGameOver:
		intro.text = p.ReplyGameOver
	case detail.Reason == games.ReplyRateLimited:
		intro.text = say(p.ReplyLimited, data)
	case detail.Reason == games.ReplyAuthFailed:
		intro.text = p.ReplyForged
	case detail.Reason == games.ReplyMalformed:
		intro.text = p.ReplyMalformed
	case detail.Reason == games.ReplyTooLarge:
		intro.text = p.ReplyTooLarge
	default:
		intro.text = say(p.ReplyOther, data)
	}
	return doc{preheader: intro.text, blocks: []block{v.greeting(p), intro, mail.board(p), v.moveLink(p)}}
}
