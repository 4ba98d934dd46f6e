package sqlite

import "crypto/sha256"

func hashToken(token string) []byte {
	h := sha256.Sum256([]byte(token))
	return h[:]
}
