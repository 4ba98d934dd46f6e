package repo_test

import (
	"strings"
	"testing"

	"github.com/lesspost/lesspost/repo"
	"github.com/lesspost/lesspost/repo/postgres"
	"github.com/lesspost/lesspost/repo/postgres/pgtest"
	"github.com/lesspost/lesspost/repo/repotest"
	"github.com/lesspost/lesspost/repo/sqlite"
)

// A path opens the SQLite store, a postgres:// or postgresql:// URL the
// PostgreSQL one; either is migrated, so MigrateStore then applies nothing
// and finds the binary's version.
func TestOpenStoreByURL(t *testing.T) {
	pg := pgtest.DSN(t)
	tests := []struct {
		name, dsn string
		postgres  bool
	}{
		{"path", repotest.Path(t), false},
		{"postgres://", pg, true},
		{"postgresql://", "postgresql://" + strings.TrimPrefix(pg, "postgres://"), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := repo.IsPostgres(tt.dsn); got != tt.postgres {
				t.Errorf("IsPostgres = %v, want %v", got, tt.postgres)
			}
			s := repotest.OpenDSN(t, tt.dsn)
			switch s.(type) {
			case *postgres.DB:
				if !tt.postgres {
					t.Errorf("opened %T, want the SQLite store", s)
				}
			case *sqlite.DB:
				if tt.postgres {
					t.Errorf("opened %T, want the PostgreSQL store", s)
				}
			default:
				t.Errorf("opened %T", s)
			}
			m, err := repo.MigrateStore(t.Context(), tt.dsn)
			if err != nil || len(m.Applied) != 0 || m.Known == 0 || m.Version != m.Known {
				t.Errorf("MigrateStore after OpenStore = %+v, %v; want nothing applied, at the known version", m, err)
			}
		})
	}
}
