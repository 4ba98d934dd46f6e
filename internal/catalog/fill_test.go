package catalog

import (
	"reflect"
	"strings"
	"testing"
	"testing/fstest"
)

type sampleForms struct{ One, Other string }

type sampleTable struct {
	Lang    string
	Title   string
	Count   sampleForms
	Colours [2]string
	Kinds   map[sampleKind]string
	Inner   struct{ Note string }
}

type sampleKind string

var sampleFiles = fstest.MapFS{
	"en.toml": {Data: []byte(`
"t.title" = "Hello %s"
"t.count" = { one = "%d hole", other = "%d holes" }
"t.colours.0" = "Black"
"t.colours.1" = "White"
"t.kinds.a" = "first"
"t.kinds.b" = "second"
"t.inner.note" = "a note"
`)},
	"de.toml": {Data: []byte(`
"t.title" = "Hallo %s"
"t.count" = { one = "%d Loch", other = "%d Löcher" }
"t.colours.0" = "Schwarz"
"t.kinds.a" = "erste"
`)},
}

// Fill sets each kind of field from its message, English where the
// language lacks one, and names the message no language has.
func TestFill(t *testing.T) {
	c, err := Load(sampleFiles)
	if err != nil {
		t.Fatal(err)
	}
	var got sampleTable
	if err := c.Fill("de", "t.", &got); err != nil {
		t.Fatal(err)
	}
	want := sampleTable{Lang: "de", Title: "Hallo %s", Count: sampleForms{"%d Loch", "%d Löcher"},
		Colours: [2]string{"Schwarz", "White"}, Kinds: map[sampleKind]string{"a": "erste", "b": "second"}}
	want.Inner.Note = "a note"
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
	var more struct{ Title, Missing string }
	if err := c.Fill("de", "t.", &more); err == nil || !strings.Contains(err.Error(), "t.missing") {
		t.Errorf("a missing message: %v", err)
	}
	if err := c.Fill("de", "t.", got); err == nil {
		t.Error("a table not passed by pointer was filled")
	}
	tables := Tables[sampleTable](c, []string{"en", "de"}, "t.")
	if tables["en"].Title != "Hello %s" || tables["de"].Title != "Hallo %s" {
		t.Errorf("tables %+v", tables)
	}
}
