package mailin

import (
	"bytes"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// htmlText turns an HTML body into text, at most max bytes: block elements
// and <br> end lines; what a reader does not see (<head>, <style>,
// <script>) and what quotes the message answered (<blockquote>, Gmail's
// div.gmail_quote, Thunderbird's attribution, Yahoo's quote) are dropped, and
// so is everything from Outlook's reply header (#divRplyFwdMsg, or the
// #appendonsend marker before it) on, since Outlook does not put the
// original in a blockquote.
func htmlText(b []byte, max int) (string, error) {
	doc, err := html.Parse(bytes.NewReader(b))
	if err != nil {
		// Its reader cannot fail, so this is its limit on nesting.
		return "", fmt.Errorf("%w: HTML: %v", ErrTooComplex, err)
	}
	t := htmlTexter{max: max}
	t.walk(doc)
	return clip(t.out.String(), max), nil
}

type htmlTexter struct {
	out  strings.Builder
	max  int
	pre  int // <pre> elements open: whitespace is kept there
	stop bool
	last byte // the last byte written, to write no blank line nor double space
}

// walk writes n and what it holds. html.Parse refuses documents nested
// over 512 deep, so the recursion is bounded.
func (t *htmlTexter) walk(n *html.Node) {
	if t.enter(n) {
		for c := n.FirstChild; c != nil && !t.stop; c = c.NextSibling {
			t.walk(c)
		}
	}
	t.leave(n)
}

// enter writes what starts at n and says whether to visit its children.
func (t *htmlTexter) enter(n *html.Node) bool {
	if t.out.Len() >= t.max {
		t.stop = true
		return false
	}
	switch n.Type {
	case html.TextNode:
		t.text(n.Data)
		return false
	case html.DocumentNode:
		return true
	case html.ElementNode:
	default:
		return false // comments, doctype
	}
	if id := attr(n, "id"); id == "divRplyFwdMsg" || id == "appendonsend" {
		t.stop = true
		return false
	}
	switch n.DataAtom {
	case atom.Head, atom.Style, atom.Script, atom.Template, atom.Title, atom.Blockquote:
		return false
	case atom.Br:
		t.newline()
	case atom.Pre:
		t.pre++
	case atom.Td, atom.Th:
		t.space()
	}
	for _, c := range strings.Fields(attr(n, "class")) {
		switch c {
		case "gmail_quote", "gmail_quote_container", "moz-cite-prefix", "yahoo_quoted":
			return false
		}
	}
	if isBlock(n.DataAtom) {
		t.newline()
	}
	return true
}

func (t *htmlTexter) leave(n *html.Node) {
	if n.Type != html.ElementNode {
		return
	}
	if n.DataAtom == atom.Pre {
		t.pre--
	}
	if isBlock(n.DataAtom) {
		t.newline()
	}
}

// text writes a text node, its white space collapsed as a browser shows it
// (outside <pre>).
func (t *htmlTexter) text(s string) {
	if t.pre > 0 {
		t.writeString(s)
		return
	}
	if first, _ := utf8.DecodeRuneInString(s); unicode.IsSpace(first) {
		t.space()
	}
	for i, word := range strings.FieldsFunc(s, unicode.IsSpace) {
		if i > 0 {
			t.space()
		}
		t.writeString(word)
	}
	if last, _ := utf8.DecodeLastRuneInString(s); unicode.IsSpace(last) {
		t.space()
	}
}

// newline ends the line, unless it is ended already: a thousand nested
// <div>s make one line break, not a thousand bytes of them.
func (t *htmlTexter) newline() {
	if t.last != '\n' && t.last != 0 {
		t.writeByte('\n')
	}
}

// space separates words, once.
func (t *htmlTexter) space() {
	if t.last != ' ' && t.last != '\n' && t.last != 0 {
		t.writeByte(' ')
	}
}

func (t *htmlTexter) writeByte(c byte) {
	t.out.WriteByte(c)
	t.last = c
}

func (t *htmlTexter) writeString(s string) {
	if s != "" {
		t.out.WriteString(s)
		t.last = s[len(s)-1]
	}
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

// isBlock says whether an element starts and ends a line.
func isBlock(a atom.Atom) bool {
	switch a {
	case atom.Address, atom.Article, atom.Aside, atom.Blockquote, atom.Center,
		atom.Dd, atom.Div, atom.Dl, atom.Dt, atom.Fieldset, atom.Figure,
		atom.Footer, atom.Form, atom.H1, atom.H2, atom.H3, atom.H4, atom.H5,
		atom.H6, atom.Header, atom.Hr, atom.Li, atom.Main, atom.Nav, atom.Ol,
		atom.P, atom.Pre, atom.Section, atom.Table, atom.Tr, atom.Ul:
		return true
	}
	return false
}
