// Package docs holds the rules of the games as lesspost plays them, written
// for players (rules.md for Less, les-rules.md for Les, and their
// translations rules.de.md, les-rules.fr.md, …), and renders them to HTML
// for the server's rules pages. The Markdown is the one source: the engines
// and the API cite its rule ids (M5, LT2), and its anchors (#m5) are what a
// refused turn's rule_ref points to.
package docs

import (
	"bytes"
	"embed"
	"fmt"
	"html/template"
	"strings"
	"sync"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/renderer/html"
)

//go:embed *.md
var files embed.FS

// Games are the games with rules pages, by ruleset name, and the base name
// of their Markdown file.
var Games = map[string]string{"less": "rules", "les": "les-rules"}

// Page is one game's rules in one language, ready to serve.
type Page struct {
	// Title is the document's first heading, as text.
	Title string
	// Body is the rest, as HTML.
	Body template.HTML
}

// Rules is the rules page of a game (a ruleset name) in a language; false
// when there is no such game or translation.
func Rules(game, locale string) (Page, bool) {
	pages, err := rendered()
	if err != nil {
		panic(err) // the files are compiled in: a test renders them all
	}
	p, ok := pages[game+"/"+locale]
	return p, ok
}

// FileName is the Markdown file of a game's rules in a language: English
// has none of the others' language suffix.
func FileName(game, locale string) string {
	if locale == "en" {
		return Games[game] + ".md"
	}
	return Games[game] + "." + locale + ".md"
}

var rendered = sync.OnceValues(renderAll)

// The documents are ours and compiled in, so their raw HTML (the <a id>
// anchors every rule carries, which rule_ref links point to) is passed
// through: nothing a user writes is ever rendered here. Goldmark is a
// CommonMark renderer that is widely used and kept up to date; tables
// (the error codes) are its GFM extension.
var markdown = goldmark.New(
	goldmark.WithExtensions(extension.Table),
	goldmark.WithRendererOptions(html.WithUnsafe()),
)

func renderAll() (map[string]Page, error) {
	out := map[string]Page{}
	entries, err := files.ReadDir(".")
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		name := e.Name()
		for game, base := range Games {
			locale, ok := localeOf(name, base)
			if !ok {
				continue
			}
			src, err := files.ReadFile(name)
			if err != nil {
				return nil, err
			}
			p, err := render(src)
			if err != nil {
				return nil, fmt.Errorf("docs: %s: %w", name, err)
			}
			out[game+"/"+locale] = p
		}
	}
	return out, nil
}

// localeOf reads the language of a file name of a game's base name:
// base.md is English, base.xx.md language xx.
func localeOf(name, base string) (string, bool) {
	if name == base+".md" {
		return "en", true
	}
	rest, ok := strings.CutPrefix(name, base+".")
	if !ok {
		return "", false
	}
	locale, ok := strings.CutSuffix(rest, ".md")
	return locale, ok && len(locale) == 2
}

// render splits off the title (the first line, "# …") and renders the rest.
func render(src []byte) (Page, error) {
	first, rest, _ := bytes.Cut(src, []byte("\n"))
	title, ok := strings.CutPrefix(string(first), "# ")
	if !ok {
		return Page{}, fmt.Errorf("the first line is not a title: %q", first)
	}
	var b bytes.Buffer
	if err := markdown.Convert(rest, &b); err != nil {
		return Page{}, err
	}
	// Tables and code blocks may be wider than a phone: they scroll
	// sideways inside a box of class scroll, and the page does not.
	body := strings.NewReplacer("<table>", `<div class="scroll"><table>`, "</table>", "</table></div>",
		"<pre>", `<div class="scroll"><pre>`, "</pre>", "</pre></div>").Replace(b.String())
	return Page{Title: strings.TrimSpace(title), Body: template.HTML(body)}, nil // our own compiled-in documents, see markdown
}
