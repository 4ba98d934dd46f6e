package main

import (
	"bytes"
	"encoding/base64"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lesspost/lesspost/repo/repotest"
	"github.com/lesspost/lesspost/repo/sqlite"
)

const (
	keyA = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa-key-a"
	keyB = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb-key-b"
)

// legacySetting is where versions before secret files stored the generated
// signing secret (base64 of 32 bytes).
const legacySetting = "signing_secret"

func TestSigningKeys(t *testing.T) {
	legacy := bytes.Repeat([]byte{0xA5}, 32)
	tests := []struct {
		name       string
		env        string            // LESSPOST_SECRET
		file       string            // --secret-file's content; "" with fileFlag: a missing file
		fileFlag   bool              // --secret-file given
		stored     bool              // the database holds a legacy secret
		want       func([]byte) bool // checks the first key; nil: an error is wanted
		wantKeys   int
		wantCreate bool // the default secret file is created
	}{
		{name: "first start generates a key", want: func(k []byte) bool { return len(k) >= 32 }, wantKeys: 1, wantCreate: true},
		{name: "the database's key moves to the file", stored: true, want: func(k []byte) bool { return bytes.Equal(k, legacy) },
			wantKeys: 1, wantCreate: true},
		{name: "environment, newest first", env: keyA + " " + keyB, stored: true,
			want: func(k []byte) bool { return string(k) == keyA }, wantKeys: 2},
		{name: "file, newest first", fileFlag: true, file: "# rotated\n" + keyB + "\n\n" + keyA + "\n",
			want: func(k []byte) bool { return string(k) == keyB }, wantKeys: 2},
		{name: "file with a base64 key", fileFlag: true, file: "base64:" + base64.StdEncoding.EncodeToString(legacy) + "\n",
			want: func(k []byte) bool { return bytes.Equal(k, legacy) }, wantKeys: 1},
		{name: "missing file is not generated", fileFlag: true},
		{name: "file with a short key", fileFlag: true, file: keyA + "\nhunter2\n"},
		{name: "file without a key", fileFlag: true, file: "# nothing\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			cfg := Config{DB: repotest.Path(t), Secret: tt.env}
			db, err := sqlite.Open(t.Context(), cfg.DB)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if tt.stored {
				if err := db.SetSetting(t.Context(), legacySetting, base64.StdEncoding.EncodeToString(legacy)); err != nil {
					t.Fatal(err)
				}
			}
			if tt.fileFlag {
				cfg.SecretFile = filepath.Join(dir, "keys")
				if tt.file != "" {
					if err := os.WriteFile(cfg.SecretFile, []byte(tt.file), 0o600); err != nil {
						t.Fatal(err)
					}
				}
			}
			var logs bytes.Buffer
			keys, err := signingKeys(t.Context(), cfg, db, slog.New(slog.NewJSONHandler(&logs, nil)))
			if tt.want == nil {
				if err == nil {
					t.Fatalf("signingKeys succeeded, want an error")
				}
				if strings.Contains(err.Error(), "hunter2") || strings.Contains(err.Error(), keyA) {
					t.Errorf("the error quotes a key: %v", err)
				}
				if _, err := os.Stat(cfg.SecretFile); tt.file == "" && err == nil {
					t.Error("a missing --secret-file was created")
				}
				return
			}
			if err != nil {
				t.Fatalf("signingKeys: %v", err)
			}
			if len(keys) != tt.wantKeys || !tt.want(keys[0]) {
				t.Errorf("got %d keys, first %q; want %d keys", len(keys), keys[0], tt.wantKeys)
			}
			for _, k := range keys {
				if bytes.Contains(logs.Bytes(), k) || strings.Contains(logs.String(), base64.StdEncoding.EncodeToString(k)) {
					t.Errorf("a key was logged: %s", logs.String())
				}
			}
			// No key is left in the database.
			if _, found, err := db.LegacySecret(t.Context()); err != nil || found {
				t.Errorf("the database still holds a signing secret (found %v, %v)", found, err)
			}
			def := defaultSecretFile(cfg.DB)
			fi, err := os.Stat(def)
			if !tt.wantCreate {
				if err == nil {
					t.Errorf("%s was created", def)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if fi.Mode().Perm() != 0o600 {
				t.Errorf("%s has mode %v, want -rw-------", def, fi.Mode().Perm())
			}
			// The next start reads the same keys from the file.
			again, err := signingKeys(t.Context(), cfg, db, slog.New(slog.DiscardHandler))
			if err != nil || !slices.EqualFunc(again, keys, bytes.Equal) {
				t.Errorf("second start: keys changed (%v)", err)
			}
		})
	}
}

func TestSecretFileReadableByOthersIsReported(t *testing.T) {
	dir := t.TempDir()
	cfg := Config{DB: filepath.Join(dir, "lesspost.db"), SecretFile: filepath.Join(dir, "keys")}
	if err := os.WriteFile(cfg.SecretFile, []byte(keyA+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(cfg.SecretFile, 0o644); err != nil {
		t.Fatal(err)
	}
	var logs bytes.Buffer
	if _, err := signingKeys(t.Context(), cfg, openTestDB(t), slog.New(slog.NewJSONHandler(&logs, nil))); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(logs.String(), `"level":"WARN"`) || !strings.Contains(logs.String(), "readable by other users") {
		t.Errorf("no warning about the secret file's mode: %s", logs.String())
	}
}
