package main

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// window is the measured part of a run: results that complete inside it
// count; the warmup before it and the stragglers after it do not.
type window struct {
	start, end time.Time
}

func (w window) contains(t time.Time) bool { return !t.Before(w.start) && t.Before(w.end) }

// recorder collects one client's results for each operation. Each client
// has its own, so recording takes no lock; they are merged at the end.
type recorder struct {
	w      window
	ops    map[string]*opStats
	errors map[string]int // "op: kind" -> count, measured window only
	// warmupErrors counts errors before the window, so a broken setup shows.
	warmupErrors map[string]int
}

type opStats struct {
	latencies []time.Duration // of the successes completed in the window
	perSecond []int           // successes by second of the window
}

func newRecorder(w window) *recorder {
	return &recorder{w: w, ops: map[string]*opStats{}, errors: map[string]int{}, warmupErrors: map[string]int{}}
}

func (r *recorder) op(name string) *opStats {
	s := r.ops[name]
	if s == nil {
		secs := int((r.w.end.Sub(r.w.start) + time.Second - 1) / time.Second)
		s = &opStats{perSecond: make([]int, max(secs, 1))}
		r.ops[name] = s
	}
	return s
}

// ok records a success that took d and completed at end.
func (r *recorder) ok(name string, d time.Duration, end time.Time) {
	if !r.w.contains(end) {
		return
	}
	s := r.op(name)
	s.latencies = append(s.latencies, d)
	s.perSecond[int(end.Sub(r.w.start)/time.Second)]++
}

// fail records an error of an operation that completed at end.
func (r *recorder) fail(name string, err error, end time.Time) {
	key := name + ": " + errorKind(err)
	switch {
	case r.w.contains(end):
		r.errors[key]++
	case end.Before(r.w.start):
		r.warmupErrors[key]++
	}
}

// merge adds other's results to r.
func (r *recorder) merge(other *recorder) {
	for name, s := range other.ops {
		m := r.op(name)
		m.latencies = append(m.latencies, s.latencies...)
		for i, n := range s.perSecond {
			if i < len(m.perSecond) {
				m.perSecond[i] += n
			}
		}
	}
	for k, n := range other.errors {
		r.errors[k] += n
	}
	for k, n := range other.warmupErrors {
		r.warmupErrors[k] += n
	}
}

// progress counts successes as they happen, for the progress line.
type progress struct {
	mu sync.Mutex
	n  map[string]int
}

func (p *progress) add(name string) {
	p.mu.Lock()
	if p.n == nil {
		p.n = map[string]int{}
	}
	p.n[name]++
	p.mu.Unlock()
}

func (p *progress) get(name string) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.n[name]
}

// Summary is what a run measured; --json prints it as is.
type Summary struct {
	Mode     string         `json:"mode"`
	URL      string         `json:"url"`
	Clients  int            `json:"clients"`
	Games    int            `json:"games,omitempty"`
	Players  int            `json:"players,omitempty"`
	Rate     float64        `json:"target_rate,omitempty"`
	Warmup   Duration       `json:"warmup"`
	Measured Duration       `json:"measured"`
	Started  time.Time      `json:"measured_from"`
	Ops      []OpSummary    `json:"ops"`
	Errors   map[string]int `json:"errors"`
	// WarmupErrors are errors before the measured window.
	WarmupErrors map[string]int `json:"warmup_errors,omitempty"`
	ErrorCount   int            `json:"error_count"`
	Server       *ServerStats   `json:"server,omitempty"`
	Mail         *MailSummary   `json:"mail,omitempty"`
	WAL          *WALStats      `json:"wal,omitempty"`
	Client       ClientStats    `json:"client"`
}

// OpSummary is one operation's throughput and latency.
type OpSummary struct {
	Name      string   `json:"name"`
	Count     int      `json:"count"`
	PerSecond float64  `json:"per_second"`
	MinSecond int      `json:"min_in_a_second"` // the slowest full second of the window
	MedSecond int      `json:"median_in_a_second"`
	MaxSecond int      `json:"max_in_a_second"`
	P50       Duration `json:"p50"`
	P95       Duration `json:"p95"`
	P99       Duration `json:"p99"`
	P999      Duration `json:"p99_9"`
	Max       Duration `json:"max"`
	Mean      Duration `json:"mean"`
}

// ServerStats is the server process's memory, read from /proc (--pid).
type ServerStats struct {
	PID        int     `json:"pid"`
	RSSMaxKiB  int64   `json:"rss_max_kib"`  // the largest RSS sampled during the window
	RSSEndKiB  int64   `json:"rss_end_kib"`  // RSS at the end of the window
	HWMKiB     int64   `json:"rss_peak_kib"` // VmHWM: the peak since the process started
	CPUSeconds float64 `json:"cpu_seconds"`  // user+system CPU used during the window
}

// ClientStats is what the load client itself used, since it shares the machine.
type ClientStats struct {
	CPUSeconds float64 `json:"cpu_seconds"`
}

// Duration prints as milliseconds in JSON.
type Duration time.Duration

func (d Duration) MarshalJSON() ([]byte, error) {
	return []byte(strconv.FormatFloat(float64(d)/float64(time.Millisecond), 'f', 3, 64)), nil
}

func (d Duration) String() string { return fmtDur(time.Duration(d)) }

func fmtDur(d time.Duration) string {
	switch {
	case d >= 10*time.Second:
		return fmt.Sprintf("%.1fs", d.Seconds())
	case d >= time.Second:
		return fmt.Sprintf("%.2fs", d.Seconds())
	default:
		return fmt.Sprintf("%.2fms", float64(d)/float64(time.Millisecond))
	}
}

// percentile is the nearest-rank percentile of sorted values.
func percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	rank := int(p/100*float64(len(sorted))+0.999999999) - 1
	return sorted[min(max(rank, 0), len(sorted)-1)]
}

func summarizeOp(name string, s *opStats, w window) OpSummary {
	lat := slices.Clone(s.latencies)
	slices.Sort(lat)
	out := OpSummary{Name: name, Count: len(lat)}
	if secs := w.end.Sub(w.start).Seconds(); secs > 0 {
		out.PerSecond = float64(len(lat)) / secs
	}
	// Only whole seconds: a last partial second would look like a dip.
	full := s.perSecond
	if whole := int(w.end.Sub(w.start) / time.Second); whole < len(full) {
		full = full[:whole]
	}
	if len(full) > 0 {
		sorted := slices.Clone(full)
		slices.Sort(sorted)
		out.MinSecond, out.MedSecond, out.MaxSecond = sorted[0], sorted[len(sorted)/2], sorted[len(sorted)-1]
	}
	if len(lat) == 0 {
		return out
	}
	var sum time.Duration
	for _, d := range lat {
		sum += d
	}
	out.P50, out.P95, out.P99 = Duration(percentile(lat, 50)), Duration(percentile(lat, 95)), Duration(percentile(lat, 99))
	out.P999, out.Max, out.Mean = Duration(percentile(lat, 99.9)), Duration(lat[len(lat)-1]), Duration(sum/time.Duration(len(lat)))
	return out
}

func (r *recorder) summary(order []string) []OpSummary {
	var out []OpSummary
	seen := map[string]bool{}
	for _, name := range order {
		if s, ok := r.ops[name]; ok {
			out = append(out, summarizeOp(name, s, r.w))
			seen[name] = true
		}
	}
	for _, name := range slices.Sorted(maps.Keys(r.ops)) {
		if !seen[name] {
			out = append(out, summarizeOp(name, r.ops[name], r.w))
		}
	}
	return out
}

// print writes the summary for people.
func (s *Summary) print(w io.Writer) {
	fmt.Fprintf(w, "lesspost loadtest %s: %s, %d clients", s.Mode, s.URL, s.Clients)
	switch {
	case s.Players > 0:
		fmt.Fprintf(w, ", %d games of %d players", s.Games, s.Players)
	case s.Games > 0:
		fmt.Fprintf(w, ", %d games to read", s.Games)
	}
	if s.Rate > 0 {
		fmt.Fprintf(w, ", paced to %.0f requests/s", s.Rate)
	}
	fmt.Fprintf(w, ", measured %v after %v warmup (from %s)\n\n", time.Duration(s.Measured), time.Duration(s.Warmup), s.Started.UTC().Format(time.RFC3339))
	fmt.Fprintf(w, "%-14s %9s %10s %22s %9s %9s %9s %9s %9s\n", "operation", "ok", "per sec", "per-second min/med/max", "p50", "p95", "p99", "p99.9", "max")
	for _, o := range s.Ops {
		fmt.Fprintf(w, "%-14s %9d %10.1f %22s %9v %9v %9v %9v %9v\n", o.Name, o.Count, o.PerSecond,
			fmt.Sprintf("%d/%d/%d", o.MinSecond, o.MedSecond, o.MaxSecond), o.P50, o.P95, o.P99, o.P999, o.Max)
	}
	fmt.Fprintf(w, "\nerrors in the window: %d\n", s.ErrorCount)
	printCounts(w, s.Errors)
	if len(s.WarmupErrors) > 0 {
		fmt.Fprintln(w, "errors during warmup:")
		printCounts(w, s.WarmupErrors)
	}
	if sv := s.Server; sv != nil {
		fmt.Fprintf(w, "\nserver pid %d: RSS max %.1f MB in the window, %.1f MB at its end, peak (VmHWM) %.1f MB; CPU %.1fs in the window (%.2f cores)\n",
			sv.PID, mb(sv.RSSMaxKiB), mb(sv.RSSEndKiB), mb(sv.HWMKiB), sv.CPUSeconds, sv.CPUSeconds/time.Duration(s.Measured).Seconds())
	}
	fmt.Fprintf(w, "load client: CPU %.1fs in the window (%.2f cores)\n", s.Client.CPUSeconds, s.Client.CPUSeconds/time.Duration(s.Measured).Seconds())
	if s.WAL != nil {
		s.WAL.print(w)
	}
	if s.Mail != nil {
		fmt.Fprintln(w)
		s.Mail.print(w)
	}
}

func mb(kib int64) float64 { return float64(kib) / 1024 }

func printCounts(w io.Writer, m map[string]int) {
	for _, k := range slices.Sorted(maps.Keys(m)) {
		fmt.Fprintf(w, "  %8d  %s\n", m[k], k)
	}
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// procStats reads a process's RSS, peak RSS (KiB) and CPU time from /proc.
func procStats(pid int) (rss, hwm int64, cpu float64, err error) {
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, 0, 0, err
	}
	for _, line := range strings.Split(string(status), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		switch f[0] {
		case "VmRSS:":
			rss, _ = strconv.ParseInt(f[1], 10, 64)
		case "VmHWM:":
			hwm, _ = strconv.ParseInt(f[1], 10, 64)
		}
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return rss, hwm, 0, err
	}
	// The command name is in parentheses and may hold spaces: fields after it.
	s := string(stat)
	if i := strings.LastIndexByte(s, ')'); i >= 0 {
		f := strings.Fields(s[i+1:])
		if len(f) > 13 {
			utime, _ := strconv.ParseFloat(f[11], 64)
			stime, _ := strconv.ParseFloat(f[12], 64)
			cpu = (utime + stime) / clockTicks
		}
	}
	return rss, hwm, cpu, nil
}

// clockTicks is USER_HZ, 100 on every Linux this runs on.
const clockTicks = 100

// serverSampler samples a process's RSS every second during the window.
type serverSampler struct {
	pid      int
	maxRSS   int64
	cpuStart float64
	err      error
}

func (s *serverSampler) start() {
	_, _, s.cpuStart, s.err = procStats(s.pid)
}

func (s *serverSampler) sample() {
	rss, _, _, err := procStats(s.pid)
	if err == nil {
		s.maxRSS = max(s.maxRSS, rss)
	}
}

func (s *serverSampler) stop() *ServerStats {
	rss, hwm, cpu, err := procStats(s.pid)
	if err != nil || s.err != nil {
		return nil
	}
	s.maxRSS = max(s.maxRSS, rss)
	return &ServerStats{PID: s.pid, RSSMaxKiB: s.maxRSS, RSSEndKiB: rss, HWMKiB: hwm, CPUSeconds: cpu - s.cpuStart}
}
