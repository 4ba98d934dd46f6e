package apitest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/lesspost/lesspost/api/internal/contract"
)

// checkEvents wraps a stream's body so that each event the test reads is
// checked against the schema its operation names in x-event-data: its data
// must be one, its event: field the data's kind, and it must have an id:.
// A stream whose operation names no schema fails the test.
func (ch *checker) checkEvents(req *http.Request, res *http.Response) io.ReadCloser {
	schema, err := eventSchema(ch.contract, req)
	if err != nil {
		ch.t.Errorf("%s %s: %v", req.Method, req.URL.Path, err)
		return res.Body
	}
	where := req.Method + " " + req.URL.Path
	return &eventChecker{body: res.Body, check: func(e sseEvent) {
		if err := checkEvent(schema, e); err != nil {
			report(ch.t, "%s sent an event that does not conform to openapi.yaml: %v\n%s", where, err, e)
		}
	}}
}

// eventSchema is the schema of the events of the stream req opens: the
// x-event-data of its operation's text/event-stream answer.
func eventSchema(c *contract.Contract, req *http.Request) (*openapi3.SchemaRef, error) {
	route, _, err := c.FindRoute(req)
	if err != nil {
		return nil, fmt.Errorf("an event stream that is not an operation of the contract: %w", err)
	}
	res := route.Operation.Responses.Status(http.StatusOK)
	if res == nil || res.Value == nil || res.Value.Content.Get("text/event-stream") == nil {
		return nil, fmt.Errorf("the contract has no text/event-stream answer for %s", route.Operation.OperationID)
	}
	return ExtensionSchema(c.Doc, res.Value.Content.Get("text/event-stream").Extensions["x-event-data"])
}

// ExtensionSchema resolves the {$ref: "#/components/schemas/Name"} of an
// extension such as x-event-data, which the loader leaves as it is.
func ExtensionSchema(doc *openapi3.T, ext any) (*openapi3.SchemaRef, error) {
	var ref struct {
		Ref string `json:"$ref"`
	}
	raw, err := json.Marshal(ext)
	if err == nil {
		err = json.Unmarshal(raw, &ref)
	}
	name, ok := strings.CutPrefix(ref.Ref, "#/components/schemas/")
	if err != nil || !ok {
		return nil, fmt.Errorf("x-event-data %s is no $ref to a schema of components", raw)
	}
	s := doc.Components.Schemas[name]
	if s == nil || s.Value == nil {
		return nil, fmt.Errorf("x-event-data names %s, which components.schemas does not have", name)
	}
	return s, nil
}

// sseEvent is one event of a stream (WHATWG HTML, 9.2.6), as a client
// dispatches it.
type sseEvent struct {
	id, event, data string
	hasID           bool
}

func (e sseEvent) String() string {
	return fmt.Sprintf("id: %s\nevent: %s\ndata: %s", e.id, e.event, e.data)
}

// checkEvent checks one event against the schema of its data.
func checkEvent(schema *openapi3.SchemaRef, e sseEvent) error {
	var v any
	if err := json.Unmarshal([]byte(e.data), &v); err != nil {
		return fmt.Errorf("data is not JSON: %w", err)
	}
	if err := schema.Value.VisitJSON(v); err != nil {
		return err
	}
	if d := schema.Value.Discriminator; d != nil {
		if kind, _ := v.(map[string]any)[d.PropertyName].(string); kind != e.event {
			return fmt.Errorf("event: %q, but the data's %s is %q", e.event, d.PropertyName, kind)
		}
	}
	if !e.hasID || e.id == "" {
		return fmt.Errorf("the event has no id:, which a client resumes after")
	}
	return nil
}

// eventChecker passes a stream's bytes on as they are read, and checks
// each event they complete.
type eventChecker struct {
	body  io.ReadCloser
	check func(sseEvent)

	mu    sync.Mutex
	line  []byte // the line read so far
	event sseEvent
	data  []string
}

func (r *eventChecker) Read(p []byte) (int, error) {
	n, err := r.body.Read(p)
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, b := range p[:n] {
		// Lines end with \n here: the server writes no \r.
		if b != '\n' {
			r.line = append(r.line, b)
			continue
		}
		r.field(string(bytes.TrimSuffix(r.line, []byte("\r"))))
		r.line = r.line[:0]
	}
	return n, err
}

// field takes one line of the stream.
func (r *eventChecker) field(line string) {
	if line == "" {
		if len(r.data) > 0 {
			r.event.data = strings.Join(r.data, "\n")
			r.check(r.event)
		}
		r.event, r.data = sseEvent{}, nil
		return
	}
	name, value, _ := strings.Cut(line, ":")
	value = strings.TrimPrefix(value, " ")
	switch name {
	case "": // a comment
	case "id":
		r.event.id, r.event.hasID = value, true
	case "event":
		r.event.event = value
	case "data":
		r.data = append(r.data, value)
	}
}

func (r *eventChecker) Close() error { return r.body.Close() }

// report fails t, unless t has ended: a stream or a receiver may be read
// by a goroutine that outlives the test's last look at it.
func report(t testing.TB, format string, args ...any) {
	t.Helper()
	if t.Context().Err() != nil {
		return
	}
	t.Errorf(format, args...)
}
