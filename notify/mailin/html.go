package mailin

import (
	"bytes"
	"strings"
	"unicode"

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
func htmlText(b []byte, max int) string {
	doc, err := html.Parse(bytes.NewReader(b))
	if err != nil {
		return "" // html.Parse fails only when its reader does
	}
	t := htmlTexter{max: max}
	t.walk(doc)
	return clip(t.out.String(), max)
}

type htmlTexter struct {
	out  strings.Builder
	max  int
	pre  int // <pre> elements open: whitespace is kept there
	stop bool
}

// walk visits the tree in document order without recursion: a message can
// nest elements as deep as it is long.
func (t *htmlTexter) walk(root *html.Node) {
	n := root
	for !t.stop {
		if t.enter(n) && n.FirstChild != nil {
			n = n.FirstChild
			continue
		}
		for {
			if n == root {
				return
			}
			t.leave(n)
			if n.NextSibling != nil {
				n = n.NextSibling
				break
			}
			n = n.Parent
		}
	}
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
		t.out.WriteByte('\n')
	case atom.Pre:
		t.pre++
	case atom.Td, atom.Th:
		t.out.WriteByte(' ')
	}
	for _, c := range strings.Fields(attr(n, "class")) {
		switch c {
		case "gmail_quote", "gmail_quote_container", "moz-cite-prefix", "yahoo_quoted":
			return false
		}
	}
	if isBlock(n.DataAtom) {
		t.out.WriteByte('\n')
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
		t.out.WriteByte('\n')
	}
}

// text writes a text node, its white space collapsed as a browser shows it
// (outside <pre>).
func (t *htmlTexter) text(s string) {
	if t.pre > 0 {
		t.out.WriteString(s)
		return
	}
	space := false
	for _, r := range s {
		if unicode.IsSpace(r) {
			space = true
			continue
		}
		if space {
			t.out.WriteByte(' ')
			space = false
		}
		t.out.WriteRune(r)
	}
	if space {
		t.out.WriteByte(' ')
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
