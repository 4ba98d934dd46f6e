package api

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"path"
	"sync"

	"github.com/labstack/echo/v4"

	"github.com/lesspost/lesspost/api/web"
	"github.com/lesspost/lesspost/internal/catalog"
)

// CSPScriptPage is the Content-Security-Policy of the pages that run script
// (play and sign-in): script, style and images from this server only, no
// inline script or style, fetches to this server only. The tokens these
// pages hold are worth stealing; this is what keeps injected markup inert.
const CSPScriptPage = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

// assetCacheControl lets browsers keep an asset for five minutes and then
// revalidate it with its ETag (a 304 costs nothing). The names carry no
// content hash, because the JavaScript modules import each other by name;
// the short lifetime is what lets a deploy reach every player within minutes.
const assetCacheControl = "public, max-age=300"

// staticFile is an embedded file ready to serve.
type staticFile struct {
	body        []byte
	contentType string
	etag        string // a strong ETag from the content
}

// site is the embedded pages (HTML) and the assets they load.
type site struct {
	pages  map[string]staticFile // by file name, e.g. play.html
	assets map[string]staticFile // by file name, e.g. play.js
	worker staticFile            // the service worker, sw.js, served at /sw.js only
}

// workerFile is the service worker's file. It is served from the root, so
// that its scope (its path's directory at most) covers the play pages.
const workerFile = "sw.js"

// assetTypes are the Content-Types of the assets, by extension; openapi.yaml
// lists the same. A file of another kind in web/ is a mistake: loadSite fails.
var assetTypes = map[string]string{
	".js":  "text/javascript; charset=utf-8",
	".css": "text/css; charset=utf-8",
	".svg": "image/svg+xml",
}

// scriptWords is the module of the pages' words; scriptCatalogue is where
// in it the server writes the catalogue's web.* messages of every language.
const (
	scriptWords      = "i18n.js"
	scriptCatalogue  = "/* catalogue */ {}"
	scriptWordPrefix = "web."
)

// withCatalogue is i18n.js with the words of every language of cat in place
// of its marker: {"en": {key: message, …}, "de": …}, English first.
func withCatalogue(body []byte, cat *catalog.Catalog) ([]byte, error) {
	if bytes.Count(body, []byte(scriptCatalogue)) != 1 {
		return nil, fmt.Errorf("web: %s has no single %q to put the words in", scriptWords, scriptCatalogue)
	}
	var words bytes.Buffer
	words.WriteByte('{')
	for i, lang := range cat.Languages() {
		if i > 0 {
			words.WriteByte(',')
		}
		var msgs bytes.Buffer
		enc := json.NewEncoder(&msgs)
		enc.SetEscapeHTML(false) // a module, not HTML: keep « » & < > readable
		if err := enc.Encode(cat.Script(lang, scriptWordPrefix)); err != nil {
			return nil, fmt.Errorf("web: the words of %s: %w", lang, err)
		}
		fmt.Fprintf(&words, "\n  %q: %s", lang, bytes.TrimSpace(msgs.Bytes()))
	}
	words.WriteString("\n}")
	return bytes.Replace(body, []byte(scriptCatalogue), words.Bytes(), 1), nil
}

// loadSite reads every file of fsys once, puts cat's words into the script
// that holds them and the pages' English words into the pages (see
// withPageWords), and computes each file's ETag.
func loadSite(fsys fs.FS, cat *catalog.Catalog) (*site, error) {
	s := &site{pages: map[string]staticFile{}, assets: map[string]staticFile{}}
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		name := e.Name()
		body, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		switch {
		case name == scriptWords:
			if body, err = withCatalogue(body, cat); err != nil {
				return nil, err
			}
		case path.Ext(name) == ".html":
			if body, err = withPageWords(name, body, cat); err != nil {
				return nil, err
			}
		}
		sum := sha256.Sum256(body)
		f := staticFile{body: body, etag: `"` + hex.EncodeToString(sum[:12]) + `"`}
		ext := path.Ext(name)
		switch {
		case name == workerFile:
			f.contentType = assetTypes[ext]
			s.worker = f
		case ext == ".html":
			f.contentType = echo.MIMETextHTMLCharsetUTF8
			s.pages[name] = f
		case assetTypes[ext] != "":
			f.contentType = assetTypes[ext]
			s.assets[name] = f
		default:
			return nil, fmt.Errorf("web: %s: no content type for %q files", name, ext)
		}
	}
	return s, nil
}

// embeddedSite is loaded on first use; the files never change at run time.
var embeddedSite = sync.OnceValues(func() (*site, error) { return loadSite(web.Files, catalog.Shipped()) })

// playPage serves the page a move or spectator link opens. It is the same
// for every game and every caller: the id was checked against its pattern by
// the contract, and the page loads the game through the API with the token
// from the link, so nothing about the game is in this response.
func (s *Server) playPage(c echo.Context) error { return s.page(c, "play.html") }

// loginPage serves the sign-in page the login email links to; it also asks
// for a link and lists the signed-in player's games.
func (s *Server) loginPage(c echo.Context) error { return s.page(c, "login.html") }

func (s *Server) page(c echo.Context, name string) error {
	site, err := embeddedSite()
	if err != nil {
		return err
	}
	f, ok := site.pages[name]
	if !ok {
		return fmt.Errorf("web: no page %s", name)
	}
	h := c.Response().Header()
	h.Set("Content-Security-Policy", CSPScriptPage)
	// No other window (e.g. one that opened the link) may script this one.
	h.Set("Cross-Origin-Opener-Policy", "same-origin")
	// Always revalidate, so the page and the assets it names stay in step.
	h.Set(echo.HeaderCacheControl, "no-cache")
	return serveFile(c, f)
}

// asset serves a file the pages load: script modules, the style sheet, the icon.
func (s *Server) asset(c echo.Context) error {
	site, err := embeddedSite()
	if err != nil {
		return err
	}
	f, ok := site.assets[c.Param("file")]
	if !ok {
		return NewProblem(http.StatusNotFound, "not_found", "There is no such asset.")
	}
	c.Response().Header().Set(echo.HeaderCacheControl, assetCacheControl)
	return serveFile(c, f)
}

// serviceWorker serves the play page's service worker (push
// notifications). Browsers look for a new version at every navigation, at
// most daily; no-cache makes that a revalidation, so a deploy reaches them
// at once.
func (s *Server) serviceWorker(c echo.Context) error {
	site, err := embeddedSite()
	if err != nil {
		return err
	}
	h := c.Response().Header()
	h.Set(echo.HeaderCacheControl, "no-cache")
	h.Set("Content-Security-Policy", "default-src 'none'; connect-src 'self'; img-src 'self'")
	return serveFile(c, site.worker)
}

// serveFile answers with f, or 304 when the client holds this version.
func serveFile(c echo.Context, f staticFile) error {
	c.Response().Header().Set("ETag", f.etag)
	if match := c.Request().Header.Get("If-None-Match"); match != "" && etagMatches(match, f.etag) {
		return c.NoContent(http.StatusNotModified)
	}
	return c.Blob(http.StatusOK, f.contentType, f.body)
}
