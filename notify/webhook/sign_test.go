package webhook_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"strings"
	"testing"
	"time"

	"github.com/lesspost/lesspost/notify/webhook"
)

// The test vector of the Standard Webhooks specification and its
// reference libraries.
const (
	vectorSecret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
	vectorID     = "msg_p5jXN8AQM9LWM0D4loKWxJek"
	vectorTS     = 1614265330
	vectorBody   = `{"test": 2432232314}`
	vectorSig    = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="
)

func TestSign(t *testing.T) {
	ts := time.Unix(vectorTS, 0)
	other := "whsec_" + base64.StdEncoding.EncodeToString([]byte("another key of 24 bytes!"))
	tests := []struct {
		name    string
		secrets []string
		want    string
		wantErr bool
	}{
		{"the specification's vector", []string{vectorSecret}, vectorSig, false},
		{"without the prefix", []string{strings.TrimPrefix(vectorSecret, "whsec_")}, vectorSig, false},
		{"two secrets during a rotation", []string{other, vectorSecret}, verifyOne(t, other) + " " + vectorSig, false},
		{"not base64", []string{"whsec_not base64!"}, "", true},
		{"empty", []string{"whsec_"}, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := webhook.Sign(tt.secrets, vectorID, ts, []byte(vectorBody))
			if (err != nil) != tt.wantErr {
				t.Fatalf("error %v, want error %v", err, tt.wantErr)
			}
			if got != tt.want {
				t.Errorf("signature %q, want %q", got, tt.want)
			}
		})
	}
}

// verifyOne signs the vector's message with secret the way a receiver
// computes it, independently of Sign.
func verifyOne(t *testing.T, secret string) string {
	t.Helper()
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
	if err != nil {
		t.Fatal(err)
	}
	m := hmac.New(sha256.New, key)
	m.Write([]byte(vectorID + "." + "1614265330" + "." + vectorBody))
	return "v1," + base64.StdEncoding.EncodeToString(m.Sum(nil))
}
