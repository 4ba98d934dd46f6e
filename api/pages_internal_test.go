package api

import (
	"testing"
	"testing/fstest"
)

// A file of a kind without a known Content-Type is refused when the site is
// loaded, not served as something a browser would have to guess.
func TestLoadSite(t *testing.T) {
	site, err := loadSite(fstest.MapFS{
		"play.html": {Data: []byte("<!doctype html>")},
		"play.js":   {Data: []byte("export {}")},
	})
	if err != nil {
		t.Fatal(err)
	}
	if site.pages["play.html"].etag == "" || site.assets["play.js"].contentType != "text/javascript; charset=utf-8" {
		t.Errorf("site %+v", site)
	}
	if _, err := loadSite(fstest.MapFS{"notes.txt": {Data: []byte("x")}}); err == nil {
		t.Error("a .txt file was accepted")
	}
	if _, err := embeddedSite(); err != nil {
		t.Errorf("the embedded pages: %v", err)
	}
}
