package repo

import (
	"crypto/sha256"

	"github.com/lesspost/lesspost/domain"
)

// randomToken is domain.RandomToken: n random bytes, URL-safe and easy to
// read out of an email.
func randomToken(n int) string { return domain.RandomToken(n) }

func hashToken(token string) []byte {
	h := sha256.Sum256([]byte(token))
	return h[:]
}
