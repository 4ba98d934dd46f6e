// Package notify turns the notices that game changes cause into email and
// delivers them from the outbox: rendering (a plain-text part with an ASCII
// board and an HTML part with a PNG board, in the recipient's language,
// threaded per game and seat, with one-click unsubscribe), and a worker that
// sends due mail with retries and backoff, several mails at a time (one
// thread's mails in order), recording what it sent in batches. How a message
// travels (SMTP over connections kept open while mail flows, or the log on a
// machine without SMTP) is a Sender.
package notify
