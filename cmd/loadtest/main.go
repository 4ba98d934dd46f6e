// Command loadtest drives a running lesspost server over HTTP and measures
// it: accepted turns per second, latency percentiles and errors by kind.
//
// Subcommands:
//
//	loadtest play   [flags]   play legal turns in many games from C concurrent clients (the default)
//	loadtest read   [flags]   read "my games" and single games, for the stored-games goal
//	loadtest seed   [flags]   fill a database file with finished games (server stopped)
//	loadtest mail   [flags]   turn -> SMTP hand-off latency, from the outbox of a database file
//	loadtest smtp   [flags]   an SMTP server that accepts and discards every message
//	loadtest login  [flags]   sign in through the server's log and print a personal access token
//	loadtest attack [flags]   black-box check of the mail policy: one attacker mails strangers through every route
//
// play signs in like any client: with --token (a personal access token, or an account token for a run under 15 minutes), or
// with --login-from-log FILE, which asks the server for a login email and
// reads the code from the server's log file (a server without SMTP prints
// every email to its log). It creates games whose every seat has the load
// account's email address, so the account token may play whichever seat is
// to move; each client picks a legal turn for its game with the rules engine
// (domain/less), posts it with the game's ply and an Idempotency-Key, and
// keeps the game from the 201 answer. A turn counts as accepted when the
// server answered 201, which it does only after the turn committed.
//
// Run "loadtest help" or "loadtest play --help" for the flags. Everything
// runs against the address given: use 127.0.0.1 for local measurements.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	if errors.Is(err, flag.ErrHelp) {
		return
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "loadtest:", err)
		os.Exit(1)
	}
}

type command struct {
	name, summary string
	run           func(ctx context.Context, args []string, stdout, stderr io.Writer) error
}

func commands() []command {
	return []command{
		{"play", "play legal turns from concurrent clients and measure throughput and latency (default)", runPlay},
		{"read", `read "my games" and single games from concurrent clients and measure latency`, runRead},
		{"seed", "fill a database file with finished games, for the read measurement (server stopped)", runSeed},
		{"mail", "turn -> SMTP hand-off latency from the outbox of a database file", runMail},
		{"smtp", "run an SMTP server that accepts and discards every message", runSMTP},
		{"login", "sign in through the server's log and print a personal access token, for --token", runLogin},
		{"attack", "one account from one address tries to mail strangers through every route; checks the mail policy's bound", runAttack},
	}
}

// run dispatches to a subcommand; without one (or with flags first) it plays.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	name := "play"
	if len(args) > 0 && len(args[0]) > 0 && args[0][0] != '-' {
		name, args = args[0], args[1:]
	}
	if name == "help" {
		usage(stdout)
		return nil
	}
	for _, c := range commands() {
		if c.name == name {
			return c.run(ctx, args, stdout, stderr)
		}
	}
	usage(stderr)
	return fmt.Errorf("unknown subcommand %q", name)
}

func usage(w io.Writer) {
	fmt.Fprint(w, `Usage: loadtest [subcommand] [flags]

Load and measure a lesspost server. Subcommands:

`)
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-6s %s\n", c.name, c.summary)
	}
	fmt.Fprint(w, `
"loadtest SUBCOMMAND --help" lists its flags. Without a subcommand, play.

Example (a server on 127.0.0.1:8080 without SMTP, its log in /tmp/lesspost.log):

  loadtest play --url http://127.0.0.1:8080 --login-from-log /tmp/lesspost.log \
    --clients 64 --games 256 --duration 30s --warmup 5s
`)
}

// newFlagSet returns a flag set whose --help prints a summary line first.
func newFlagSet(name, summary string, out io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("loadtest "+name, flag.ContinueOnError)
	fs.SetOutput(out)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: loadtest %s [flags]\n\n%s\n\nFlags:\n", name, summary)
		fs.PrintDefaults()
	}
	return fs
}

// parseFlags parses and refuses positional arguments.
func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	return nil
}
