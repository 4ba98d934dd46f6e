package catalog

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Fill sets every field of the struct table points to from lang's messages
// under prefix, for code that reads its words through a table of fields (the
// server-rendered pages, the mails). The messages are taken as the files
// write them, arguments unfilled: the code fills them in. A field F is the
// message prefix+"f" (F with a lower-case first letter):
//   - a string field is the message;
//   - a struct whose fields are all strings named by CLDR forms (One,
//     Other, …) is a plural message, each field its form;
//   - an array of strings' element i is f.i;
//   - a map of strings' entry k is f.k, the keys being English's;
//   - any other struct's fields are under f., in the same way.
//
// A field named Lang is lang itself, not a message.
func (c *Catalog) Fill(lang, prefix string, table any) error {
	v := reflect.ValueOf(table)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return fmt.Errorf("catalog: fill a %T, not a pointer to a struct", table)
	}
	return c.fill(lang, prefix, v.Elem())
}

// FieldKey is the message of a table's field F under prefix (see Fill).
func FieldKey(prefix, field string) string {
	r, size := utf8.DecodeRuneInString(field)
	return prefix + string(unicode.ToLower(r)) + field[size:]
}

// formNames are the CLDR plural forms as a plural struct's fields name them.
var formNames = map[string]string{"Zero": "zero", "One": "one", "Two": "two", "Few": "few", "Many": "many", "Other": "other"}

// isPluralStruct reports whether t is a struct of CLDR forms (see Fill).
func isPluralStruct(t reflect.Type) bool {
	if t.Kind() != reflect.Struct || t.NumField() == 0 {
		return false
	}
	for i := range t.NumField() {
		f := t.Field(i)
		if formNames[f.Name] == "" || f.Type.Kind() != reflect.String {
			return false
		}
	}
	return true
}

func (c *Catalog) fill(lang, prefix string, v reflect.Value) error {
	for i := range v.NumField() {
		f, field := v.Type().Field(i), v.Field(i)
		key := FieldKey(prefix, f.Name)
		text := func(key string) (map[string]string, error) {
			forms := c.Forms(lang, key)
			if forms == nil {
				return nil, fmt.Errorf("catalog: no message %s", key)
			}
			return forms, nil
		}
		switch {
		case f.Name == "Lang" && f.Type.Kind() == reflect.String:
			field.SetString(lang)
		case f.Type.Kind() == reflect.String:
			forms, err := text(key)
			if err != nil {
				return err
			}
			field.SetString(forms["other"])
		case isPluralStruct(f.Type):
			forms, err := text(key)
			if err != nil {
				return err
			}
			for j := range field.NumField() {
				field.Field(j).SetString(forms[formNames[f.Type.Field(j).Name]])
			}
		case f.Type.Kind() == reflect.Array && f.Type.Elem().Kind() == reflect.String:
			for j := range field.Len() {
				forms, err := text(key + "." + strconv.Itoa(j))
				if err != nil {
					return err
				}
				field.Index(j).SetString(forms["other"])
			}
		case f.Type.Kind() == reflect.Map && f.Type.Elem().Kind() == reflect.String && f.Type.Key().Kind() == reflect.String:
			m := reflect.MakeMap(f.Type)
			for _, k := range c.Keys(key + ".") {
				m.SetMapIndex(reflect.ValueOf(strings.TrimPrefix(k, key+".")).Convert(f.Type.Key()),
					reflect.ValueOf(c.Forms(lang, k)["other"]).Convert(f.Type.Elem()))
			}
			field.Set(m)
		case f.Type.Kind() == reflect.Struct:
			if err := c.fill(lang, key+".", field); err != nil {
				return err
			}
		default:
			return fmt.Errorf("catalog: %s is a %s, which no message fills", f.Name, f.Type)
		}
	}
	return nil
}

// Tables fills a table of type T (see Fill) for each of langs from the
// messages under prefix. It panics when a message is missing: tables are
// filled from the shipped catalogue when a package starts, and the tests
// keep every message there, so a failure is a build mistake.
func Tables[T any](c *Catalog, langs []string, prefix string) map[string]*T {
	out := make(map[string]*T, len(langs))
	for _, lang := range langs {
		t := new(T)
		if err := c.Fill(lang, prefix, t); err != nil {
			panic(fmt.Sprintf("catalog: the %s tables of %s: %v", prefix, lang, err))
		}
		out[lang] = t
	}
	return out
}
