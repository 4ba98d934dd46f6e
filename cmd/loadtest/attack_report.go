package main

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"
)

// attackReport is what "loadtest attack" found.
type attackReport struct {
	URL, Attacker, Organiser, Victim string
	Duration                         time.Duration
	// Began is the run's start; the attack went from Started (after the
	// set-up) to Attacked; Ended is the end of the drain.
	Began, Started, Attacked, Ended time.Time
	Interrupted                     bool
	// Bound is the most mail a stranger's mailbox may get; BoundWhy says
	// where it comes from.
	Bound     int
	BoundWhy  string
	Routes    []routeReport
	Mailboxes []mailboxReport
	Emails    int
}

type routeReport struct {
	Name     string
	Requests int
	Answers  map[string]int
	Note     string
}

// mailboxReport is the mail one mailbox got, its +tags folded.
type mailboxReport struct {
	Mailbox string
	Role    string // victim, stranger, attacker, organiser
	// Stranger says the attacker's mail to it is bounded: every mailbox but
	// the tool's own accounts'.
	Stranger  bool
	Total     int
	Max10     int // the most in any 10 minutes
	Logins    int
	Subjects  map[string]int
	Words     map[string]int // the attacker's words, by how many emails carried them
	Addresses int            // distinct addresses (+tags) mailed
}

func newAttackReport(a *attackRun, routes []*routeState, mail []sunkMail, began, started, attacked, ended time.Time) *attackReport {
	cfg := a.cfg
	r := &attackReport{URL: a.base, Attacker: cfg.Attacker, Organiser: cfg.Organiser, Victim: cfg.Victim, Duration: cfg.Duration,
		Began: began, Started: started, Attacked: attacked, Ended: ended, Emails: len(mail)}
	if cfg.MaxPerStranger > 0 {
		r.Bound, r.BoundWhy = cfg.MaxPerStranger, fmt.Sprintf("%d (--max-per-stranger)", cfg.MaxPerStranger)
	} else {
		r.Bound, r.BoundWhy = attackBound(ended.Sub(began).Round(time.Second))
	}
	for _, rs := range routes {
		rs.mu.Lock()
		r.Routes = append(r.Routes, routeReport{Name: rs.name, Requests: rs.requests, Answers: maps.Clone(rs.answers), Note: rs.note})
		rs.mu.Unlock()
	}
	roles := map[string]string{mailboxOf(cfg.Victim): "victim", mailboxOf(cfg.Attacker): "attacker", mailboxOf(cfg.Organiser): "organiser"}
	for i := range cfg.Strangers {
		roles[mailboxOf(a.stranger(i))] = "stranger"
	}
	byBox := map[string][]sunkMail{}
	for _, m := range mail {
		byBox[m.Mailbox] = append(byBox[m.Mailbox], m)
	}
	for box, ms := range byBox {
		role := roles[box]
		if role == "" {
			role = "other" // not aimed at: still a stranger
		}
		mr := mailboxReport{Mailbox: box, Role: role, Stranger: role != "attacker" && role != "organiser", Total: len(ms),
			Subjects: map[string]int{}, Words: map[string]int{}}
		addresses := map[string]bool{}
		var times []time.Time
		for _, m := range ms {
			addresses[strings.ToLower(m.To)] = true
			times = append(times, m.At)
			mr.Subjects[m.Subject]++
			if m.Login {
				mr.Logins++
			}
			for _, w := range m.Words {
				mr.Words[w]++
			}
		}
		mr.Addresses = len(addresses)
		mr.Max10 = mostWithin(times, 10*time.Minute)
		r.Mailboxes = append(r.Mailboxes, mr)
	}
	rank := map[string]int{"victim": 0, "stranger": 1, "other": 2, "attacker": 3, "organiser": 4}
	slices.SortFunc(r.Mailboxes, func(x, y mailboxReport) int {
		if c := cmp.Compare(rank[x.Role], rank[y.Role]); c != 0 {
			return c
		}
		if c := cmp.Compare(len(x.Mailbox), len(y.Mailbox)); c != 0 { // s2 before s10
			return c
		}
		return cmp.Compare(x.Mailbox, y.Mailbox)
	})
	return r
}

// mostWithin is the most of times within any stretch of d.
func mostWithin(times []time.Time, d time.Duration) int {
	times = slices.Clone(times)
	slices.SortFunc(times, time.Time.Compare)
	best, i := 0, 0
	for j := range times {
		for times[j].Sub(times[i]) >= d {
			i++
		}
		best = max(best, j-i+1)
	}
	return best
}

func (r *attackReport) mailbox(box string) *mailboxReport {
	for i := range r.Mailboxes {
		if r.Mailboxes[i].Mailbox == box {
			return &r.Mailboxes[i]
		}
	}
	return nil
}

// verdict is an error naming every stranger over the bound or reached by
// the attacker's words, or nil.
func (r *attackReport) verdict() error {
	var errs []error
	for _, m := range r.Mailboxes {
		if !m.Stranger {
			continue
		}
		if m.Total > r.Bound {
			errs = append(errs, fmt.Errorf("%s got %d emails, more than %d", m.Mailbox, m.Total, r.Bound))
		}
		if len(m.Words) > 0 {
			errs = append(errs, fmt.Errorf("%s got the attacker's words: %v", m.Mailbox, m.Words))
		}
	}
	return errors.Join(errs...)
}

func (r *attackReport) print(w io.Writer) {
	fmt.Fprintf(w, "mail attack on %s by %s from one client address: %v of attack (set-up %v before it, drain %v after)\n",
		r.URL, r.Attacker, r.Attacked.Sub(r.Started).Round(time.Second), r.Started.Sub(r.Began).Round(time.Second),
		r.Ended.Sub(r.Attacked).Round(time.Second))
	if r.Interrupted {
		fmt.Fprintln(w, "INTERRUPTED: the figures are of a shorter run")
	}
	fmt.Fprintf(w, "bound per stranger's mailbox: %s\n\n", r.BoundWhy)

	fmt.Fprintln(w, "requests by route, and the answers by status and code:")
	total := 0
	for _, rt := range r.Routes {
		total += rt.Requests
		var parts []string
		for _, k := range slices.Sorted(maps.Keys(rt.Answers)) {
			parts = append(parts, fmt.Sprintf("%s ×%d", k, rt.Answers[k]))
		}
		line := strings.Join(parts, ", ")
		if rt.Note != "" {
			line = strings.TrimPrefix(line+"; "+rt.Note, "; ")
		}
		fmt.Fprintf(w, "  %-38s %6d  %s\n", rt.Name, rt.Requests, line)
	}
	fmt.Fprintf(w, "  %-38s %6d\n\n", "all", total)

	fmt.Fprintf(w, "mail by mailbox, +tags folded (%d emails in all):\n", r.Emails)
	fmt.Fprintf(w, "  %-24s %-9s %6s %8s %8s %9s  %s\n", "mailbox", "role", "total", "max/10m", "sign-in", "addresses", "attacker's words")
	for _, m := range r.Mailboxes {
		words := "none"
		if len(m.Words) > 0 {
			words = fmt.Sprint(m.Words)
		}
		flag := ""
		if m.Stranger && m.Total > r.Bound {
			flag = "  OVER THE BOUND"
		}
		if !m.Stranger {
			words = "(own account: not bounded)"
		}
		fmt.Fprintf(w, "  %-24s %-9s %6d %8d %8d %9d  %s%s\n", m.Mailbox, m.Role, m.Total, m.Max10, m.Logins, m.Addresses, words, flag)
	}
	strangers := 0
	for _, m := range r.Mailboxes {
		if m.Stranger && (m.Role == "victim" || m.Total > r.Bound || len(m.Words) > 0) {
			fmt.Fprintf(w, "\n%s's mail by subject:\n", m.Mailbox)
			for _, s := range slices.Sorted(maps.Keys(m.Subjects)) {
				fmt.Fprintf(w, "  %3d  %s\n", m.Subjects[s], s)
			}
		}
		if m.Stranger {
			strangers++
		}
	}
	fmt.Fprintln(w)
	if err := r.verdict(); err != nil {
		fmt.Fprintf(w, "FAIL:\n  %s\n", strings.ReplaceAll(err.Error(), "\n", "\n  "))
		return
	}
	fmt.Fprintf(w, "PASS: none of %d strangers' mailboxes got more than %d emails, nor any of the attacker's words\n", strangers, r.Bound)
}
