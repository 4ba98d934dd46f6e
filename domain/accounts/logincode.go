package accounts

import (
	"crypto/pbkdf2"
	"crypto/sha256"
	"encoding/binary"
	"strings"
)

// A login email carries a link, whose token (32 characters, 160 random bits)
// no one types, and a code to type where the link cannot be followed (the
// email read on a phone, the sign-in page open on a computer): 8 characters
// of an alphabet without the look-alikes 0 O 1 I L, written XXXX-XXXX.
//
// A code alone is far too short to be a secret among every address's, so it
// signs in only together with its address, and each code can be guessed at
// only MaxLoginCodeMisses times: every wrong code sent for an address counts
// against every live code of the address, and a code with that many misses
// no longer signs in (its link still does). The odds of a guess, with
// N = 31^8 ≈ 8.5·10^11 codes:
//
//   - per code: at most MaxLoginCodeMisses tries, so ≤ 5/N ≈ 5.9·10^-12;
//   - per address: at most MaxLoginsPerHour codes an hour, so ≤ 5·5/N ≈
//     2.9·10^-11 an hour, ≤ 2.6·10^-7 in a year of trying without pause
//     (43,800 codes, each of which also lands in the owner's inbox);
//   - per client address: the API's limit on codes tried (30 per 10
//     minutes by default, 4,320 a day) does not raise these bounds, which
//     hold however many clients guess; it only keeps one client from
//     burning the codes of many addresses at once.
//
// The link's token alone is unguessable (2^160), so it is tried without a
// count. Links (and codes) sent before codes were short were the token
// itself, and still sign in as tokens until they expire.
const (
	LoginCodeLen       = 8
	MaxLoginCodeMisses = 5
	loginCodeAlphabet  = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
)

// LoginCode is the code a login email shows with its link's token: derived
// from the token, so the email needs nothing else (the outbox keeps only the
// token), and as random as the token is, with a bias of 31^8/2^64 < 10^-7.
func LoginCode(token string) string {
	h := sha256.Sum256([]byte("lesspost login code\x00" + token))
	n := binary.BigEndian.Uint64(h[:8])
	var b [LoginCodeLen]byte
	for i := range b {
		b[i] = loginCodeAlphabet[n%uint64(len(loginCodeAlphabet))]
		n /= uint64(len(loginCodeAlphabet))
	}
	return string(b[:])
}

// loginCodeRounds makes a stored code slow to find by trying them all: a
// store keeps a code only as LoginCodeHash, and 31^8 plain SHA-256 hashes
// are minutes of a graphics card, within the 15 minutes a code lives. With
// 10,000 rounds they are days; checking one code costs about 2 ms.
const loginCodeRounds = 10_000

// LoginCodeHash is how a store keeps (and looks up) an address's login
// code: PBKDF2-SHA256, salted with the address, so that a copy of the
// database does not give away the codes still live in it.
func LoginCodeHash(email, code string) []byte {
	h, err := pbkdf2.Key(sha256.New, code, []byte("lesspost login code\x00"+email), loginCodeRounds, sha256.Size)
	if err != nil {
		panic("domain: login code hash: " + err.Error()) // fixed, valid parameters: a bug
	}
	return h
}

// FormatLoginCode writes a code as people read it: two groups of four.
func FormatLoginCode(code string) string {
	if len(code) != LoginCodeLen {
		return code
	}
	return code[:LoginCodeLen/2] + "-" + code[LoginCodeLen/2:]
}

// NormalizeLoginCode reads a code as a person typed it: in either case, with
// or without the dash, with spaces. ok is false for what cannot be a code.
func NormalizeLoginCode(typed string) (code string, ok bool) {
	code = strings.ToUpper(strings.Map(func(r rune) rune {
		if r == '-' || r == ' ' || r == '\t' {
			return -1
		}
		return r
	}, typed))
	if len(code) != LoginCodeLen || strings.Trim(code, loginCodeAlphabet) != "" {
		return "", false
	}
	return code, true
}
