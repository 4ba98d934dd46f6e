// Package idempotency owns what a store answers for a stored response to an
// idempotent request, whichever store read it.
package idempotency

import "github.com/lesspost/lesspost/domain"

// Replay is the answer to idem when a response r was stored under its key
// for the request whose fingerprint is stored: r, or a conflict *Error when
// the key was used for a different request.
func Replay(idem domain.Idempotency, stored []byte, r domain.Response) (domain.Response, bool, error) {
	if string(stored) != string(idem.Fingerprint) {
		return domain.Response{}, false, domain.Errorf(domain.KindConflict, domain.CodeIdempotencyReused,
			"this Idempotency-Key was already used for a different request")
	}
	return r, true, nil
}
