package api

import (
	"fmt"
	"reflect"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/internal/catalog"
)

// The server-rendered pages (the tournament page, its sign-up, the mail
// footer's pages) read their words through tables, one struct per page and
// language; the words themselves are the catalogue's. A field F of a table
// under prefix p is the message p+"f" (F with a lower-case first letter); a
// countForms field is a plural message; a map's entry k is p+"f."+k, the
// keys being English's; a nested struct's fields are under p+"f.". Lang is
// the language's tag itself, not a message.

// phraseTables are a table type's tables of every language of domain.Locales.
func phraseTables[T any](cat *catalog.Catalog, prefix string) map[string]*T {
	out := map[string]*T{}
	for _, lang := range domain.Locales {
		t := new(T)
		if err := fillPhrases(cat, lang, prefix, reflect.ValueOf(t).Elem()); err != nil {
			panic(fmt.Sprintf("api: the %s words of %s: %v", strings.TrimSuffix(prefix, "."), lang, err))
		}
		out[lang] = t
	}
	return out
}

// phraseKey is the message of a table's field.
func phraseKey(prefix, field string) string {
	r, size := utf8.DecodeRuneInString(field)
	return prefix + string(unicode.ToLower(r)) + field[size:]
}

var countFormsType = reflect.TypeFor[countForms]()

// fillPhrases sets every field of the struct v from lang's messages under prefix.
func fillPhrases(cat *catalog.Catalog, lang, prefix string, v reflect.Value) error {
	for i := range v.NumField() {
		f, field := v.Type().Field(i), v.Field(i)
		key := phraseKey(prefix, f.Name)
		switch {
		case f.Name == "Lang":
			field.SetString(lang)
		case f.Type == countFormsType:
			forms := cat.Forms(lang, key)
			if forms == nil {
				return fmt.Errorf("no message %s", key)
			}
			field.Set(reflect.ValueOf(countForms{One: forms["one"], Other: forms["other"]}))
		case f.Type.Kind() == reflect.String:
			forms := cat.Forms(lang, key)
			if forms == nil {
				return fmt.Errorf("no message %s", key)
			}
			field.SetString(forms["other"])
		case f.Type.Kind() == reflect.Map && f.Type.Elem().Kind() == reflect.String:
			m := reflect.MakeMap(f.Type)
			for _, k := range cat.Keys(key + ".") {
				m.SetMapIndex(reflect.ValueOf(strings.TrimPrefix(k, key+".")).Convert(f.Type.Key()),
					reflect.ValueOf(cat.Forms(lang, k)["other"]).Convert(f.Type.Elem()))
			}
			field.Set(m)
		case f.Type.Kind() == reflect.Struct:
			if err := fillPhrases(cat, lang, key+".", field); err != nil {
				return err
			}
		default:
			return fmt.Errorf("%s: a %s, which no message fills", f.Name, f.Type)
		}
	}
	return nil
}
