package notify

import (
	"bytes"
	"html/template"
	"image"
	"strings"
)

// doc is an email's content, written once and rendered twice: as the
// plain-text part and as the HTML part, so the two always say the same.
type doc struct {
	preheader string // the line mail clients show after the subject
	blocks    []block
	// boardSize is the size the board picture is shown at, in CSS pixels
	// (the picture has dpr times as many).
	boardSize image.Point
}

// block is a paragraph, optionally with a list, a link or a board.
type block struct {
	text   string
	list   []string
	link   *link
	board  *boardBlock
	footer bool
}

type link struct {
	label string // said before the link; may be empty
	url   string
	// button is the text of the button the HTML part shows, if set; else
	// anchor is the linked words there. The HTML part never shows the URL
	// itself: a signed link is a few hundred characters of noise on a
	// phone. The text part shows the URL, which is all it can do.
	button string
	anchor string
}

type boardBlock struct {
	ascii  string
	legend string
}

// hasBoard reports whether the email shows the board.
func (d doc) hasBoard() bool {
	for _, b := range d.blocks {
		if b.board != nil {
			return true
		}
	}
	return false
}

// text renders the plain-text part: paragraphs separated by blank lines,
// links on their own lines, the board in ASCII.
func (d doc) text() string {
	var b strings.Builder
	for i, bl := range d.blocks {
		if i > 0 {
			b.WriteString("\n")
		}
		if bl.footer && (i == 0 || !d.blocks[i-1].footer) {
			b.WriteString("-- \n") // once, before the first footer block
		}
		if bl.text != "" {
			b.WriteString(bl.text + "\n")
		}
		for _, item := range bl.list {
			b.WriteString("  - " + item + "\n")
		}
		if bl.board != nil {
			b.WriteString(bl.board.ascii)
			b.WriteString(bl.board.legend + "\n")
		}
		if l := bl.link; l != nil {
			if l.label != "" {
				b.WriteString(l.label + "\n")
			}
			b.WriteString(l.url + "\n")
		}
	}
	return b.String()
}

// html renders the HTML part. html/template escapes every value, so text a
// player chose (names) can never become markup.
func (d doc) html(title, boardAlt string) string {
	var b bytes.Buffer
	err := htmlTemplate.Execute(&b, map[string]any{"Title": title, "Preheader": d.preheader, "Blocks": d.htmlBlocks(), "BoardAlt": boardAlt,
		"BoardWidth": d.boardSize.X, "BoardHeight": d.boardSize.Y,
		// cid: is not among the URL schemes html/template trusts; this one is ours.
		"BoardSrc": template.URL("cid:" + boardCID)})
	if err != nil {
		panic("notify: html template: " + err.Error()) // fixed template and plain data: a bug
	}
	return b.String()
}

// htmlBlock is a block with exported fields for the template.
type htmlBlock struct {
	Text, LinkLabel, URL, Button string
	Anchor                       string
	List                         []string
	Board, Footer                bool
	FooterRule                   bool // the first footer block is set off by a rule
}

func (d doc) htmlBlocks() []htmlBlock {
	out := make([]htmlBlock, len(d.blocks))
	for i, bl := range d.blocks {
		h := htmlBlock{Text: bl.text, List: bl.list, Board: bl.board != nil, Footer: bl.footer,
			FooterRule: bl.footer && (i == 0 || !d.blocks[i-1].footer)}
		if bl.link != nil {
			h.LinkLabel, h.URL, h.Button, h.Anchor = bl.link.label, bl.link.url, bl.link.button, bl.link.anchor
		}
		out[i] = h
	}
	return out
}

// Email HTML gets inline styles only: mail clients drop style sheets.
var htmlTemplate = template.Must(template.New("email").Parse(`<!doctype html>
<html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>{{.Title}}</title></head>
<body style="margin:0;padding:16px;background:#f6f4ef;font-family:Helvetica,Arial,sans-serif;color:#222;font-size:15px;line-height:1.45">
<div style="display:none;max-height:0;overflow:hidden">{{.Preheader}}</div>
<div style="max-width:560px;margin:0 auto;background:#fff;border-radius:8px;padding:20px">
{{range .Blocks}}{{if .Footer}}{{if .FooterRule}}<hr style="border:0;border-top:1px solid #ddd;margin:24px 0 12px">
{{end}}<p style="font-size:12px;color:#666">{{if .Text}}{{.Text}} {{end}}{{if .URL}}<a href="{{.URL}}" style="color:#666">{{.LinkLabel}}</a>{{end}}</p>
{{else}}{{if .Text}}<p style="margin:0 0 12px">{{.Text}}</p>{{end}}
{{if .List}}<ul style="margin:0 0 12px;padding-left:20px">{{range .List}}<li>{{.}}</li>{{end}}</ul>{{end}}
{{if .Board}}<p style="margin:0 0 12px"><img src="{{$.BoardSrc}}" alt="{{$.BoardAlt}}" width="{{$.BoardWidth}}" height="{{$.BoardHeight}}" style="width:{{$.BoardWidth}}px;max-width:100%;height:auto;display:block"></p>{{end}}
{{if .URL}}{{if .Button}}{{if .LinkLabel}}<p style="margin:0 0 6px;color:#555">{{.LinkLabel}}</p>{{end}}<p style="margin:0 0 16px"><a href="{{.URL}}" style="display:inline-block;background:#1f5fbf;color:#fff;text-decoration:none;padding:10px 18px;border-radius:6px;font-weight:bold">{{.Button}}</a></p>
{{else if .Anchor}}<p style="margin:0 0 12px">{{if .LinkLabel}}{{.LinkLabel}} {{end}}<a href="{{.URL}}">{{.Anchor}}</a></p>
{{else}}<p style="margin:0 0 12px"><a href="{{.URL}}">{{.LinkLabel}}</a></p>{{end}}{{end}}
{{end}}{{end}}</div></body></html>
`))
