package api

import (
	"slices"
	"testing"

	"github.com/lesspost/lesspost/domain"
	"github.com/lesspost/lesspost/internal/catalog"
)

// The languages an account may choose are the catalogue's: a locale file
// without its tag in domain.Locales would reach the play page's script but
// no mail or server-rendered page, and a tag without its file would be
// English everywhere.
func TestLocalesAreTheCatalogues(t *testing.T) {
	got, want := slices.Sorted(slices.Values(domain.Locales)), catalog.Shipped().Languages()
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("domain.Locales %v, the catalogue's languages %v", domain.Locales, catalog.Shipped().Languages())
	}
}
