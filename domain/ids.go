package domain

import (
	"crypto/rand"
	"encoding/base32"
	"encoding/binary"
)

// NewID returns a random identifier with a prefix. Ids are public (they
// appear in links); access is granted by tokens, never by knowing an id.
func NewID(prefix string) string {
	return prefix + "_" + RandomToken(12)
}

// RandomToken is n random bytes from crypto/rand, in lower-case base32
// without padding: URL-safe, and easy to read out of an email.
func RandomToken(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return base32Lower.EncodeToString(b)
}

var base32Lower = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// RandomUint64 draws a number from crypto/rand.
func RandomUint64() uint64 {
	var b [8]byte
	rand.Read(b[:])
	return binary.LittleEndian.Uint64(b[:])
}
