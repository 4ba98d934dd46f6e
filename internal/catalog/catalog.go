// Package catalog owns lesspost's words: every message the mails, the pages,
// the push payloads, the goal sentences and the play page's script show, in
// every language, in one file per language (locales/en.toml, de.toml, …)
// that a translator edits without touching Go or JavaScript. The rules
// pages are documents, not messages, and stay in docs.
//
// The files are go-i18n v2 message files in TOML (comments carry each
// language's house style, which JSON could not). A key is "area.name": web.*
// the play and sign-in pages' script (and, in English, their text before it
// runs, which the server writes into the pages), page.*, signup.* and choice.* the
// server-rendered pages, mail.* the emails, push.* the push notifications,
// goal.* the goal sentences, log.* the tournament log. A value is a string,
// or an inline table of CLDR plural forms (zero, one, two, few, many, other)
// chosen by a count. Arguments are named, {{.name}}, in every message, so a
// translator meets one style and may put them in any order (the tests
// refuse fmt verbs and {name}); the mails' messages are text/templates that
// may also call plural. A translation keeps the arguments English has.
//
// English is the source and the fallback: a key a language lacks is shown in
// English. The shipped languages are held complete by this package's tests
// (every key of en.toml, the same arguments, the plural forms the
// language's CLDR rules need: French, Italian and Spanish need "many", for a
// million and more).
//
// Adding a language is adding one file, locales/<tag>.toml (a BCP 47 tag
// such as pt). go-i18n's tool lists what to translate:
//
//	goi18n merge -sourceLanguage en -outdir out locales/en.toml locales/pt.toml
//
// writes out/translate.pt.toml, every message pt lacks with its English
// text; translate the values, keep the keys and the arguments, give each
// plural message the forms the language needs (the test names any missing),
// and put the messages into locales/pt.toml (either TOML style loads).
// Nothing else changes: the languages the server speaks are the files'
// (Languages), so the play page's script, the mails, the pages, the push
// payloads and the API contract's Locale (the languages an account may
// choose) all take the new one. testdata/pt.toml is a sample of a few keys:
// the tests that load it (here, in api and in notify) show it chosen and
// everything it lacks falling back to English.
package catalog

import (
	"embed"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/BurntSushi/toml"
	"github.com/nicksnyder/go-i18n/v2/i18n"
	"golang.org/x/text/language"
)

// Source is the language every other file translates, and the fallback.
const Source = "en"

//go:embed locales/*.toml
var locales embed.FS

// Catalog is the messages of every language, ready to render. It is safe
// for concurrent use.
type Catalog struct {
	bundle     *i18n.Bundle
	languages  []string                            // the file names' tags, Source first
	messages   map[string]map[string]*i18n.Message // by language, then key
	localizers map[string]*i18n.Localizer
}

// Shipped is the catalogue built into the binary (locales/*.toml). Its files
// are checked by the tests, so a failure to load them is a build mistake.
var Shipped = sync.OnceValue(func() *Catalog {
	sub, err := fs.Sub(locales, "locales")
	if err != nil {
		panic(err)
	}
	c, err := Load(sub)
	if err != nil {
		panic(fmt.Sprintf("catalog: the shipped locales: %v", err))
	}
	return c
})

// Load reads every *.toml file at the root of fsys, one language each, named
// by its tag (en.toml, de.toml, pt-BR.toml). en.toml must be among them.
func Load(fsys fs.FS) (*Catalog, error) {
	names, err := fs.Glob(fsys, "*.toml")
	if err != nil {
		return nil, fmt.Errorf("catalog: list the locales: %w", err)
	}
	c := &Catalog{
		bundle:     i18n.NewBundle(language.MustParse(Source)),
		messages:   map[string]map[string]*i18n.Message{},
		localizers: map[string]*i18n.Localizer{},
	}
	c.bundle.RegisterUnmarshalFunc("toml", toml.Unmarshal)
	for _, name := range names {
		lang := strings.TrimSuffix(name, path.Ext(name))
		if _, err := language.Parse(lang); err != nil {
			return nil, fmt.Errorf("catalog: %s is not named by a language tag: %w", name, err)
		}
		buf, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, fmt.Errorf("catalog: read %s: %w", name, err)
		}
		file, err := c.bundle.ParseMessageFileBytes(buf, name)
		if err != nil {
			return nil, fmt.Errorf("catalog: parse %s: %w", name, err)
		}
		byKey := map[string]*i18n.Message{}
		for _, m := range file.Messages {
			byKey[m.ID] = m
		}
		c.messages[lang] = byKey
		c.languages = append(c.languages, lang)
		c.localizers[lang] = i18n.NewLocalizer(c.bundle, lang)
	}
	if c.messages[Source] == nil {
		return nil, fmt.Errorf("catalog: no %s.toml, the source language", Source)
	}
	slices.SortFunc(c.languages, func(a, b string) int {
		switch {
		case a == Source:
			return -1
		case b == Source:
			return 1
		}
		return strings.Compare(a, b)
	})
	return c, nil
}

// Languages are the catalogue's languages, the source first.
func (c *Catalog) Languages() []string { return slices.Clone(c.languages) }

// Has reports whether lang is one of the catalogue's languages.
func (c *Catalog) Has(lang string) bool { return c.messages[lang] != nil }

// Text is the message key in lang (English where lang lacks it) with args
// filled in. A key no language has comes back as itself, as the script's t()
// does; the tests keep that from happening.
func (c *Catalog) Text(lang, key string, args map[string]any) string {
	return c.render(lang, key, &i18n.LocalizeConfig{MessageID: key, TemplateData: args})
}

// Count is the plural message key in lang in the form n takes (CLDR's
// rules), with args filled in; n is the argument "n" unless args has one.
func (c *Catalog) Count(lang, key string, n int, args map[string]any) string {
	data := map[string]any{"n": n}
	for k, v := range args {
		data[k] = v
	}
	return c.render(lang, key, &i18n.LocalizeConfig{MessageID: key, TemplateData: data, PluralCount: n})
}

func (c *Catalog) render(lang, key string, lc *i18n.LocalizeConfig) string {
	loc := c.localizers[lang]
	if loc == nil {
		loc = c.localizers[Source]
	}
	s, err := loc.Localize(lc)
	if err != nil && s == "" {
		return key
	}
	// A key only English has comes back in English with a not-found error:
	// that is the fallback working.
	return s
}

// Script is lang's messages whose key starts with prefix, for a page's
// script: by key without the prefix, a plain string or an object of plural
// forms (one, other, …), English where lang lacks a key. Arguments stay
// {{.name}}; the script fills them in.
func (c *Catalog) Script(lang, prefix string) map[string]any {
	out := map[string]any{}
	for _, l := range []string{Source, lang} {
		for key, m := range c.messages[l] {
			if rest, ok := strings.CutPrefix(key, prefix); ok {
				out[rest] = scriptForm(m)
			}
		}
	}
	return out
}

// scriptForm is a message as the script's t() takes it.
func scriptForm(m *i18n.Message) any {
	forms := pluralForms(m)
	if len(forms) == 1 && forms["other"] != "" {
		return m.Other
	}
	return forms
}

// pluralForms are a message's forms by CLDR name, the ones it has.
func pluralForms(m *i18n.Message) map[string]string {
	out := map[string]string{}
	for name, s := range map[string]string{"zero": m.Zero, "one": m.One, "two": m.Two, "few": m.Few, "many": m.Many, "other": m.Other} {
		if s != "" {
			out[name] = s
		}
	}
	return out
}

// Forms are the plural forms of the message key in lang as the file writes
// them, arguments unfilled ("other" alone for a plain string), English where
// lang lacks the key; nil where no language has it. The server-rendered
// pages' tables take their words this way and fill them in themselves.
func (c *Catalog) Forms(lang, key string) map[string]string {
	m, ok := c.messages[lang][key]
	if !ok {
		m, ok = c.messages[Source][key]
	}
	if !ok {
		return nil
	}
	return pluralForms(m)
}

// Keys are the source language's keys that start with prefix, sorted.
func (c *Catalog) Keys(prefix string) []string {
	var out []string
	for key := range c.messages[Source] {
		if strings.HasPrefix(key, prefix) {
			out = append(out, key)
		}
	}
	slices.Sort(out)
	return out
}

// A Phrase is a message that code outside the edge (domain's view models)
// wants said without holding words: its key and arguments. An argument
// that is itself a Phrase is said first, in the same language. Domain types
// satisfy it without importing this package.
type Phrase interface {
	Phrase() (key string, args map[string]any)
}

// Say is p in lang: its message with its arguments filled in, in the form
// its argument n takes when it has one (an int).
func (c *Catalog) Say(lang string, p Phrase) string {
	key, args := p.Phrase()
	if key == "" {
		return "" // nothing to say (the goal of a board that shows none)
	}
	filled := make(map[string]any, len(args))
	for name, v := range args {
		if inner, ok := v.(Phrase); ok {
			v = c.Say(lang, inner)
		}
		filled[name] = v
	}
	if n, ok := filled["n"].(int); ok {
		return c.Count(lang, key, n, filled)
	}
	return c.Text(lang, key, filled)
}
