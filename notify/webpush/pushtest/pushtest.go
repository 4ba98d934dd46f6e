// Package pushtest is a push service (RFC 8030) in process, for tests. It
// is written from the RFCs with the standard library alone, apart from the
// sender it tests: it checks each message's VAPID JWT (RFC 8292: ES256 by
// the key the browser subscribed with, aud the service's origin, exp within
// 24 hours, a mailto: or https: sub) and decrypts its aes128gcm payload as
// the browser would (RFC 8291, RFC 8188), then keeps what it received. A
// subscription's browser is a Browser: its private key never leaves it.
package pushtest

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lesspost/lesspost/domain/hooks"
)

// Service is the push service: an HTTPS server on loopback (or, made with
// NewPlain, an HTTP one).
type Service struct {
	srv *httptest.Server
	now func() time.Time

	mu       sync.Mutex
	browsers map[string]*Browser
	gone     map[string]bool
	script   []Answer // the next answers, instead of accepting
	received []Message
	refused  []string
}

// Answer is a scripted answer to the next message.
type Answer struct {
	Status int
	Header http.Header
}

// Message is a message the service accepted, decrypted.
type Message struct {
	Browser string // the Browser's ID
	Payload []byte
	TTL     int
	Urgency string
	Topic   string
	Subject string // the JWT's sub
}

// Browser is one subscription as the browser holds it.
type Browser struct {
	ID       string
	Endpoint string
	// ServerKey is the application server key it subscribed with.
	ServerKey []byte
	key       *ecdh.PrivateKey
	auth      []byte
}

// Subscription is what the browser hands the application server.
func (b *Browser) Subscription() hooks.PushSubscription {
	return hooks.PushSubscription{Endpoint: b.Endpoint, P256DH: b.key.PublicKey().Bytes(), Auth: b.auth}
}

// New starts a service, stopped when t ends. now is its clock (nil:
// time.Now), for the JWT's expiry.
func New(t testing.TB, now func() time.Time) *Service {
	return start(t, now, httptest.NewTLSServer)
}

// NewPlain starts a service that speaks plain HTTP, as one on a closed
// network may (which lesspost calls only with --egress-allow-private).
func NewPlain(t testing.TB, now func() time.Time) *Service {
	return start(t, now, httptest.NewServer)
}

func start(t testing.TB, now func() time.Time, serve func(http.Handler) *httptest.Server) *Service {
	if now == nil {
		now = time.Now
	}
	s := &Service{now: now, browsers: map[string]*Browser{}, gone: map[string]bool{}}
	s.srv = serve(http.HandlerFunc(s.serve))
	t.Cleanup(s.srv.Close)
	return s
}

// Client is an HTTP client that trusts the service's certificate.
func (s *Service) Client() *http.Client { return s.srv.Client() }

// Origin is the service's origin, the aud of the JWTs it takes.
func (s *Service) Origin() string { return s.srv.URL }

// Subscribe makes a browser's subscription for the application server key
// serverKey (65 bytes, uncompressed P-256).
func (s *Service) Subscribe(serverKey []byte) *Browser {
	key, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		panic(err)
	}
	auth := make([]byte, 16)
	rand.Read(auth)
	s.mu.Lock()
	defer s.mu.Unlock()
	id := strconv.Itoa(len(s.browsers) + 1)
	b := &Browser{ID: id, Endpoint: s.srv.URL + "/push/" + id, ServerKey: bytes.Clone(serverKey), key: key, auth: auth}
	s.browsers[id] = b
	return b
}

// Unsubscribe ends a subscription: its endpoint answers 410 Gone.
func (s *Service) Unsubscribe(b *Browser) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.gone[b.ID] = true
}

// Script makes the next messages, once checked, get these answers instead
// of being accepted.
func (s *Service) Script(answers ...Answer) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.script = append(s.script, answers...)
}

// Received lists the messages accepted, in order.
func (s *Service) Received() []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Message(nil), s.received...)
}

// Refused lists why messages were refused as malformed or unauthorized.
func (s *Service) Refused() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.refused...)
}

func (s *Service) serve(w http.ResponseWriter, r *http.Request) {
	id, ok := strings.CutPrefix(r.URL.Path, "/push/")
	s.mu.Lock()
	b, known := s.browsers[id]
	gone := s.gone[id]
	s.mu.Unlock()
	switch {
	case r.Method != http.MethodPost:
		http.Error(w, "POST only", http.StatusMethodNotAllowed)
		return
	case !ok || !known:
		http.Error(w, "no such subscription", http.StatusNotFound)
		return
	case gone:
		http.Error(w, "unsubscribed", http.StatusGone)
		return
	}
	msg, status, err := s.check(r, b)
	if err != nil {
		s.mu.Lock()
		s.refused = append(s.refused, err.Error())
		s.mu.Unlock()
		http.Error(w, err.Error(), status)
		return
	}
	s.mu.Lock()
	if len(s.script) > 0 {
		a := s.script[0]
		s.script = s.script[1:]
		s.mu.Unlock()
		for k, v := range a.Header {
			w.Header()[k] = v
		}
		w.WriteHeader(a.Status)
		return
	}
	s.received = append(s.received, msg)
	n := len(s.received) // under the lock: messages arrive at once
	s.mu.Unlock()
	w.Header().Set("Location", s.srv.URL+"/message/"+strconv.Itoa(n))
	w.WriteHeader(http.StatusCreated)
}

// check verifies a message for b and decrypts it; on failure, the status
// a push service answers.
func (s *Service) check(r *http.Request, b *Browser) (Message, int, error) {
	sub, err := s.checkVAPID(r.Header.Get("Authorization"), b)
	if err != nil {
		return Message{}, http.StatusUnauthorized, fmt.Errorf("vapid: %w", err)
	}
	ttl, err := strconv.Atoi(r.Header.Get("TTL"))
	if err != nil || ttl < 0 {
		return Message{}, http.StatusBadRequest, fmt.Errorf("TTL %q: a number of seconds is required", r.Header.Get("TTL"))
	}
	if ce := r.Header.Get("Content-Encoding"); ce != "aes128gcm" {
		return Message{}, http.StatusBadRequest, fmt.Errorf("Content-Encoding %q: want aes128gcm", ce)
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, 4097))
	if err != nil {
		return Message{}, http.StatusBadRequest, err
	}
	if len(body) > 4096 {
		return Message{}, http.StatusRequestEntityTooLarge, errors.New("a body over 4096 bytes")
	}
	payload, err := b.Decrypt(body)
	if err != nil {
		return Message{}, http.StatusBadRequest, fmt.Errorf("decrypt: %w", err)
	}
	return Message{Browser: b.ID, Payload: payload, TTL: ttl, Urgency: r.Header.Get("Urgency"),
		Topic: r.Header.Get("Topic"), Subject: sub}, 0, nil
}

// checkVAPID verifies an Authorization header of RFC 8292: "vapid t=<JWT>,
// k=<key>", the key the one b subscribed with, the JWT signed with it.
func (s *Service) checkVAPID(header string, b *Browser) (subject string, err error) {
	scheme, params, _ := strings.Cut(header, " ")
	if !strings.EqualFold(scheme, "vapid") {
		return "", fmt.Errorf("scheme %q, want vapid", scheme)
	}
	var token, key string
	for p := range strings.SplitSeq(params, ",") {
		name, value, _ := strings.Cut(strings.TrimSpace(p), "=")
		switch name {
		case "t":
			token = value
		case "k":
			key = value
		}
	}
	k, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(key, "="))
	if err != nil || !bytes.Equal(k, b.ServerKey) {
		return "", fmt.Errorf("k=%q is not the key the subscription was made with", key)
	}
	pub, err := ecdsa.ParseUncompressedPublicKey(elliptic.P256(), k)
	if err != nil {
		return "", fmt.Errorf("k: %w", err)
	}
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return "", errors.New("t is no JWT")
	}
	var head struct{ Alg, Typ string }
	if err := decodeJSON(parts[0], &head); err != nil || head.Alg != "ES256" {
		return "", fmt.Errorf("JWT header %+v (%v): want alg ES256", head, err)
	}
	sig, err := base64.RawURLEncoding.DecodeString(parts[2])
	if err != nil || len(sig) != 64 {
		return "", errors.New("the JWT's signature is no ES256 signature")
	}
	digest := sha256.Sum256([]byte(parts[0] + "." + parts[1]))
	if !ecdsa.Verify(pub, digest[:], new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:])) {
		return "", errors.New("the JWT's signature does not verify with k")
	}
	var claims struct {
		Aud string
		Exp int64
		Sub string
	}
	if err := decodeJSON(parts[1], &claims); err != nil {
		return "", fmt.Errorf("JWT claims: %w", err)
	}
	now := s.now()
	switch exp := time.Unix(claims.Exp, 0); {
	case claims.Aud != s.srv.URL:
		return "", fmt.Errorf("aud %q, want the push service's origin %q", claims.Aud, s.srv.URL)
	case !exp.After(now):
		return "", fmt.Errorf("the JWT expired at %v", exp)
	case exp.After(now.Add(24 * time.Hour)):
		return "", fmt.Errorf("exp %v is more than 24 hours ahead", exp)
	case !strings.HasPrefix(claims.Sub, "mailto:") && !strings.HasPrefix(claims.Sub, "https:"):
		return "", fmt.Errorf("sub %q is no mailto: or https: URL", claims.Sub)
	}
	return claims.Sub, nil
}

func decodeJSON(part string, v any) error {
	raw, err := base64.RawURLEncoding.DecodeString(part)
	if err != nil {
		return err
	}
	return json.Unmarshal(raw, v)
}

// Decrypt opens an aes128gcm body (RFC 8188) encrypted for the browser
// (RFC 8291 section 3.4): one record, whose key and nonce come from the
// ECDH secret of the browser's key and the sender's one-time key, mixed
// with the browser's auth secret.
func (b *Browser) Decrypt(body []byte) ([]byte, error) {
	if len(body) < 21 {
		return nil, errors.New("shorter than a header")
	}
	salt, rs, idlen := body[:16], binary.BigEndian.Uint32(body[16:20]), int(body[20])
	if idlen != 65 || len(body) < 21+idlen {
		return nil, fmt.Errorf("keyid of %d bytes, want the sender's 65-byte public key", idlen)
	}
	senderPub, records := body[21:21+idlen], body[21+idlen:]
	if rs < 18 || uint32(len(records)) > rs {
		return nil, fmt.Errorf("%d bytes of records with rs %d: a push message is one record", len(records), rs)
	}
	sender, err := ecdh.P256().NewPublicKey(senderPub)
	if err != nil {
		return nil, fmt.Errorf("keyid: %w", err)
	}
	secret, err := b.key.ECDH(sender)
	if err != nil {
		return nil, err
	}
	prkKey, err := hkdf.Extract(sha256.New, secret, b.auth)
	if err != nil {
		return nil, err
	}
	keyInfo := "WebPush: info\x00" + string(b.key.PublicKey().Bytes()) + string(senderPub)
	ikm, err := hkdf.Expand(sha256.New, prkKey, keyInfo, 32)
	if err != nil {
		return nil, err
	}
	prk, err := hkdf.Extract(sha256.New, ikm, salt)
	if err != nil {
		return nil, err
	}
	cek, err := hkdf.Expand(sha256.New, prk, "Content-Encoding: aes128gcm\x00", 16)
	if err != nil {
		return nil, err
	}
	nonce, err := hkdf.Expand(sha256.New, prk, "Content-Encoding: nonce\x00", 12)
	if err != nil {
		return nil, err
	}
	block, err := aes.NewCipher(cek)
	if err != nil {
		return nil, err
	}
	gcm, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	plain, err := gcm.Open(nil, nonce, records, nil) // the first record's sequence number is 0
	if err != nil {
		return nil, fmt.Errorf("open: %w", err)
	}
	// Padding: zeros after a delimiter, 2 in the last record.
	end := len(plain) - 1
	for end >= 0 && plain[end] == 0 {
		end--
	}
	if end < 0 || plain[end] != 2 {
		return nil, errors.New("no last-record delimiter (2) before the padding")
	}
	return plain[:end], nil
}
