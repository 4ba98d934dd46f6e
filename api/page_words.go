package api

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"

	"github.com/lesspost/lesspost/internal/catalog"
)

// The static pages' words before their script runs. An element marked
// data-i18n="key" shows the web.key message and one marked
// data-i18n-aria="key" is labelled by it, in whatever language the script
// then picks; the files leave the text (and the aria-label) empty and the
// server writes the English message in when it loads them, so a page's
// words live in the catalogue only and cannot drift from the script's.
var (
	startTag    = regexp.MustCompile(`<[a-zA-Z][a-zA-Z0-9]*(?:\s[^>]*)?>`)
	textWord    = regexp.MustCompile(`\sdata-i18n="([^"]*)"`)
	ariaWord    = regexp.MustCompile(`\sdata-i18n-aria="([^"]*)"`)
	emptyLabel  = []byte(` aria-label=""`)
	textEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")
	attrEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;")
)

// withPageWords is the page body with the English words of its marked
// elements written in (see above). An element whose text or label the file
// already holds, or a key the catalogue lacks, is refused: either would be
// words living twice.
func withPageWords(name string, body []byte, cat *catalog.Catalog) ([]byte, error) {
	word := func(key string) (string, error) {
		forms := cat.Forms(catalog.Source, scriptWordPrefix+key)
		if forms == nil {
			return "", fmt.Errorf("web: %s: no message %s%s in the catalogue", name, scriptWordPrefix, key)
		}
		if len(forms) > 1 || strings.Contains(forms["other"], "{{") {
			return "", fmt.Errorf("web: %s: %s%s takes arguments, which a static page cannot fill", name, scriptWordPrefix, key)
		}
		return forms["other"], nil
	}
	var out bytes.Buffer
	last := 0
	for _, loc := range startTag.FindAllIndex(body, -1) {
		tag := body[loc[0]:loc[1]]
		if m := ariaWord.FindSubmatch(tag); m != nil {
			text, err := word(string(m[1]))
			if err != nil {
				return nil, err
			}
			if bytes.Count(tag, emptyLabel) != 1 {
				return nil, fmt.Errorf("web: %s: %s needs one empty aria-label for the server to fill", name, tag)
			}
			tag = bytes.Replace(tag, emptyLabel, []byte(` aria-label="`+attrEscaper.Replace(text)+`"`), 1)
		}
		out.Write(body[last:loc[0]])
		out.Write(tag)
		last = loc[1]
		if m := textWord.FindSubmatch(tag); m != nil {
			text, err := word(string(m[1]))
			if err != nil {
				return nil, err
			}
			if !bytes.HasPrefix(body[last:], []byte("</")) {
				return nil, fmt.Errorf("web: %s: %s must be empty for the server to fill", name, tag)
			}
			out.WriteString(textEscaper.Replace(text))
		}
	}
	out.Write(body[last:])
	return out.Bytes(), nil
}
