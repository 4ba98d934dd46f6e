package apitest

import (
	"encoding/json"
	"fmt"
	"mime"
	"net/http"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/lesspost/lesspost/api/internal/contract"
)

// CheckWebhook fails t unless a message a webhook endpoint received (its
// headers and body) conforms to the contract: to the callbacks of
// createWebhook. A test's receiver calls it with every message it gets.
func CheckWebhook(t testing.TB, header http.Header, body []byte) {
	t.Helper()
	c, err := contract.Load()
	if err != nil {
		t.Fatal(err)
	}
	if err := checkWebhook(c.Doc, header, body); err != nil {
		report(t, "a webhook message does not conform to openapi.yaml: %v\n%s", err, body)
	}
}

// webhookCallback is the operation that describes webhook messages.
func webhookCallback(doc *openapi3.T) (*openapi3.Operation, error) {
	for _, item := range doc.Paths.Map() {
		if op := item.Post; op != nil && op.OperationID == "createWebhook" {
			for _, cb := range op.Callbacks {
				for _, cbItem := range cb.Value.Map() {
					if cbItem.Post != nil {
						return cbItem.Post, nil
					}
				}
			}
		}
	}
	return nil, fmt.Errorf("openapi.yaml: createWebhook has no callback that POSTs the messages")
}

func checkWebhook(doc *openapi3.T, header http.Header, body []byte) error {
	op, err := webhookCallback(doc)
	if err != nil {
		return err
	}
	for _, p := range op.Parameters {
		if p.Value.In != openapi3.ParameterInHeader {
			continue
		}
		value, ok := header[http.CanonicalHeaderKey(p.Value.Name)]
		if !ok {
			if p.Value.Required {
				return fmt.Errorf("no header %s", p.Value.Name)
			}
			continue
		}
		if err := p.Value.Schema.Value.VisitJSON(strings.Join(value, ", ")); err != nil {
			return fmt.Errorf("header %s: %w", p.Value.Name, err)
		}
	}
	mt, _, _ := mime.ParseMediaType(header.Get("Content-Type"))
	media := op.RequestBody.Value.Content.Get(mt)
	if media == nil {
		return fmt.Errorf("Content-Type %q, which the callback does not take", header.Get("Content-Type"))
	}
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		return fmt.Errorf("body: %w", err)
	}
	if err := media.Schema.Value.VisitJSON(v); err != nil {
		return fmt.Errorf("body: %w", err)
	}
	return nil
}
