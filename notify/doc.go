// Package notify turns the notices that game changes cause into email and
// delivers them from the outbox: rendering (text with an ASCII board, links
// with personal tokens) and a worker that sends due mail with retries and
// backoff. How a message travels (SMTP, or the log on a machine without
// SMTP) is a Sender.
package notify
