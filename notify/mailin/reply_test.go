package mailin

import (
	"reflect"
	"testing"
)

func TestNewLines(t *testing.T) {
	cases := []struct {
		name string
		text string
		want []string
	}{
		{"top-posted", "a1-b2\n\nOn Mon, 3 Mar 2025 at 10:00, lesspost <g@lesspost.example> wrote:\n> Your turn.\n", []string{"a1-b2"}},
		{"bottom-posted", "On Mon, 3 Mar 2025 at 10:00, lesspost <g@lesspost.example> wrote:\n> Your turn.\n\na1-b2\n", []string{"a1-b2"}},
		{"interleaved", "> Your turn in game 1.\na1-b2\n> Your turn in game 2.\nc3-d4\n", []string{"a1-b2", "c3-d4"}},
		{"CRLF and CR", "a1-b2\r\nc3-d4\rthanks\r\n", []string{"a1-b2", "c3-d4", "thanks"}},
		{"signature", "a1-b2\n-- \nAnn\n> a1-b2\n", []string{"a1-b2"}},
		{"signature delimiter without its space", "a1-b2\n--\nAnn\n", []string{"a1-b2"}},
		{"a quoted signature delimiter is only a quote", "> -- \n> Bob\na1-b2\n", []string{"a1-b2"}},
		{"trimmed, blank lines dropped", "  a1-b2\t\n\n \u00a0\n c3-d4 \n", []string{"a1-b2", "c3-d4"}},
		{"attribution wrapped over two lines", "a1-b2\n\nOn Mon, 3 Mar 2025 at 10:00, lesspost <\ng@lesspost.example> wrote:\n\n> Your turn.\n", []string{"a1-b2"}},
		{"attribution wrapped over three lines", "On Mon, 3 Mar 2025 at 10:00,\nlesspost\n<g@lesspost.example> wrote:\n> x\na1-b2\n", []string{"a1-b2"}},
		{"French", "a1-b2\nLe lun. 3 mars 2025 à 10:00, lesspost <g@lesspost.example> a écrit\u00a0:\n> x\n", []string{"a1-b2"}},
		{"French, Thunderbird", "Le 03/03/2025 à 10:00, lesspost a écrit :\n> x\na1-b2\n", []string{"a1-b2"}},
		{"German, Gmail", "a1-b2\nAm Mo., 3. März 2025 um 10:00 Uhr schrieb lesspost <g@lesspost.example>:\n> x\n", []string{"a1-b2"}},
		{"Spanish", "a1-b2\nEl lun, 3 mar 2025 a las 10:00, lesspost (<g@lesspost.example>) escribió:\n> x\n", []string{"a1-b2"}},
		{"Dutch", "a1-b2\nOp ma 3 mrt 2025 om 10:00 schreef lesspost <g@lesspost.example>:\n> x\n", []string{"a1-b2"}},
		{"Italian", "a1-b2\nIl giorno lun 3 mar 2025 alle ore 10:00 lesspost <g@lesspost.example> ha scritto:\n> x\n", []string{"a1-b2"}},
		{"Thunderbird's short form before a quote", "a1-b2\nlesspost wrote:\n> x\n", []string{"a1-b2"}},
		{"a line ending in wrote: without a quote is text", "I wrote:\na1-b2\n", []string{"I wrote:", "a1-b2"}},
		{"an opener without a closer is text", "On second thoughts\na1-b2\n", []string{"On second thoughts", "a1-b2"}},
		{"Outlook original message", "a1-b2\n\n-----Original Message-----\nFrom: lesspost\nYour turn.\n", []string{"a1-b2"}},
		{"Outlook original message, German", "a1-b2\n-----Ursprüngliche Nachricht-----\nVon: lesspost\n", []string{"a1-b2"}},
		{"Outlook original message, French", "a1-b2\n-----Message d'origine-----\nDe : lesspost\n", []string{"a1-b2"}},
		{"Outlook header block", "a1-b2\n________________________________\nFrom: lesspost <g@lesspost.example>\nSent: Monday, March 3, 2025 10:00 AM\nTo: Ann\nYour turn.\n", []string{"a1-b2"}},
		{"Outlook header block, Spanish", "a1-b2\nDe: lesspost <g@lesspost.example>\nEnviado el: lunes, 3 de marzo de 2025 10:00\nPara: Ann\nEs tu turno.\n", []string{"a1-b2"}},
		{"Outlook header block, German with To between", "a1-b2\nVon: lesspost\nAn: Ann\nGesendet: Montag, 3. März 2025 10:00\nSie sind am Zug.\n", []string{"a1-b2"}},
		{"a From: line alone is text", "From: me\na1-b2\n", []string{"From: me", "a1-b2"}},
		{"nothing new", "> a\n> b\n", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := newLines(c.text); !reflect.DeepEqual(got, c.want) {
				t.Errorf("newLines = %q, want %q", got, c.want)
			}
		})
	}
}
