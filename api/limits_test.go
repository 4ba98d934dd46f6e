package api_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/lesspost/lesspost/api/internal/contract"
	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/domain/tournaments"
)

// The limits on text are said once in domain; openapi.yaml must give the
// same maxLength, or the contract lets through what the domain refuses (or
// the reverse) and the client reads two limits.
func TestLimitsMatchContract(t *testing.T) {
	c, err := contract.Load()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		schema, property string
		max              int
	}{
		{"CreateTournamentRequest", "name", tournaments.MaxNameLength},
		{"PlayerRequest", "name", domain.MaxNameLength},
		{"PlayerRequest", "email", domain.MaxEmailLength},
		{"UpdateMeRequest", "name", domain.MaxNameLength},
		{"LoginRequest", "email", domain.MaxEmailLength},
	}
	for _, tt := range tests {
		s, ok := c.Doc.Components.Schemas[tt.schema]
		if !ok || s.Value.Properties[tt.property] == nil {
			t.Errorf("openapi.yaml has no %s.%s", tt.schema, tt.property)
			continue
		}
		if got := s.Value.Properties[tt.property].Value.MaxLength; got == nil || *got != uint64(tt.max) {
			t.Errorf("%s.%s: maxLength %v, domain says %d", tt.schema, tt.property, got, tt.max)
		}
	}
}

// A tournament name of the documented length is taken; one longer is
// refused by the contract, before the domain sees it.
func TestTournamentNameLimit(t *testing.T) {
	h := newAttackHarness(t)
	org := h.login("org@example.org")
	create := func(name string) response {
		return h.do("POST", "/v1/tournaments", org, map[string]any{"name": name, "format": "round_robin", "players": entrants(2),
			"schedule": map[string]any{"starts": []time.Time{h.clock.Now().Add(time.Hour)}, "round_hours": 24}})
	}
	longest := strings.Repeat("é", tournaments.MaxNameLength)
	var tour struct {
		Name string `json:"name"`
	}
	create(longest).want(t, http.StatusCreated).decode(t, &tour)
	if tour.Name != longest {
		t.Errorf("name %q", tour.Name)
	}
	h.refused(t, http.StatusBadRequest, "invalid_request", "POST", "/v1/tournaments", org, map[string]any{
		"name": longest + "x", "format": "round_robin", "players": entrants(2),
		"schedule": map[string]any{"starts": []time.Time{h.clock.Now().Add(time.Hour)}, "round_hours": 24}})
}
