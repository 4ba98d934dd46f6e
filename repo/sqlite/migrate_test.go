package sqlite

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/lesspost/lesspost/migrations"
)

// Migrate reports what it applied and the version the database is at: on a
// new file every migration, on an old one (the schema 11 fixture) the rest,
// on a current one none; and a database it migrated opens as it is.
func TestMigrateReports(t *testing.T) {
	all, err := fs.Glob(migrations.FS, "*.sql")
	if err != nil {
		t.Fatal(err)
	}
	old := filepath.Join(t.TempDir(), "old.db")
	copyFile(t, schema11DB, old)
	tests := []struct {
		name string
		path string
		want []string
	}{
		{"a new file", filepath.Join(t.TempDir(), "new.db"), all},
		{"schema 11", old, all[11:]},
		{"current", freshPath(t), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := Migrate(t.Context(), tt.path)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(m.Applied, tt.want) || m.Version != SchemaVersion() {
				t.Errorf("Migrate = %+v, want %v applied and version %d", m, tt.want, SchemaVersion())
			}
			if fi, err := os.Stat(tt.path); err != nil || fi.Mode().Perm() != privateMode {
				t.Errorf("the database file: %v, %v", fi.Mode(), err)
			}
			again, err := Migrate(t.Context(), tt.path)
			if err != nil || len(again.Applied) != 0 || again.Version != m.Version {
				t.Errorf("again: %+v, %v", again, err)
			}
			db, err := Open(t.Context(), tt.path)
			if err != nil {
				t.Fatal(err)
			}
			db.Close()
		})
	}
}

func TestSchemaVersion(t *testing.T) {
	names, err := fs.Glob(migrations.FS, "*.sql")
	if err != nil {
		t.Fatal(err)
	}
	if want, _ := migrationVersion(names[len(names)-1]); SchemaVersion() != want || want < 13 {
		t.Errorf("SchemaVersion() = %d, want %d (the newest file's)", SchemaVersion(), want)
	}
}
