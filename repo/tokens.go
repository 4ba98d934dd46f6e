package repo

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base32"
)

// randomToken returns n random bytes as lower-case base32 without padding:
// URL-safe, and easy to read out of an email.
func randomToken(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return base32Lower.EncodeToString(b)
}

var base32Lower = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

func hashToken(token string) []byte {
	h := sha256.Sum256([]byte(token))
	return h[:]
}
