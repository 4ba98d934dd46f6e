// Package web holds the pages people open from their emails: the play page
// (a move or spectator link) and the sign-in page. They are static files,
// embedded in the binary: plain HTML, CSS and JavaScript modules with no
// build step, no CDN and no external fonts, so the server alone serves them
// and a strict Content-Security-Policy (no inline script or style) holds.
//
// The pages read the token from the URL fragment (#t=…), drop it from the
// address bar at once and talk to the JSON API with it; the server never
// renders game data into HTML.
package web

import (
	"embed"
	"io/fs"
)

//go:embed *.html *.js *.css *.svg
var files embed.FS

// Files are the pages and their assets, by file name.
var Files fs.FS = files
