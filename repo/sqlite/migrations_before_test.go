package sqlite

import (
	"io/fs"
	"testing"
	"testing/fstest"

	"github.com/lesspost/lesspost/migrations"
)

// migrationsBefore is the migrations a database had before version (e.g.
// "0013"): to write data as an older schema did and then migrate it.
func migrationsBefore(t *testing.T, version string) fstest.MapFS {
	t.Helper()
	names, err := fs.Glob(migrations.FS, "*.sql")
	if err != nil {
		t.Fatal(err)
	}
	before := fstest.MapFS{}
	for _, name := range names {
		if name < version {
			data, err := fs.ReadFile(migrations.FS, name)
			if err != nil {
				t.Fatal(err)
			}
			before[name] = &fstest.MapFile{Data: data}
		}
	}
	return before
}
