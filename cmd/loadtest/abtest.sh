#!/usr/bin/env bash
# abtest.sh compares two builds of the server side by side on one machine:
# it runs `loadtest play` (unpaced, 64 clients, 256 two-player games, SQLite,
# an email per turn to `loadtest smtp`) against A, then B, then A again, for
# ROUNDS rounds, each on a fresh database, and prints a line a run: accepted
# turns per second, the server's CPU per accepted turn (from /proc), turn
# p99 and the server's largest RSS. Interleaving is what makes the
# comparison fair on a shared machine: the noise between two runs of one
# build is the yardstick for the difference between the builds.
#
# Usage (build each binary at its commit first):
#
#	go build -o /tmp/api-a ./cmd/api          # at the first commit
#	go build -o /tmp/api-b ./cmd/api          # at the second
#	go build -o /tmp/loadtest ./cmd/loadtest
#	cmd/loadtest/abtest.sh 3 30s /tmp/api-a /tmp/api-b /tmp/loadtest
#
# Extra arguments after the loadtest binary go to `loadtest play` (e.g.
# --players 4, --rate 300).
set -u
if [ $# -lt 5 ]; then
	sed -n '2,/^set -u/p' "$0" | sed 's/^# \{0,1\}//' >&2
	exit 2
fi
rounds=$1 duration=$2 a=$3 b=$4 loadtest=$5
shift 5
field() { grep -m1 "\"$1\":" | sed 's/.*: *\([0-9.]*\).*/\1/'; }
for round in $(seq 1 "$rounds"); do
	for which in A B; do
		bin=$a
		[ "$which" = B ] && bin=$b
		dir=$(mktemp -d)
		"$loadtest" smtp --addr 127.0.0.1:2599 >"$dir/sink.log" 2>&1 &
		sink=$!
		"$bin" --addr 127.0.0.1:18099 --db "$dir/load.db" --smtp-host 127.0.0.1 --smtp-port 2599 \
			--smtp-tls none --smtp-from 'Less <games@lesspost.test>' --limit-games-account 1000000/1h \
			--limit-games-ip 1000000/1h >"$dir/server.log" 2>&1 &
		server=$!
		sleep 1.5
		"$loadtest" play --url http://127.0.0.1:18099 --login-from-log "$dir/sink.log" --pid "$server" \
			--clients 64 --games 256 --duration "$duration" --warmup 5s --json "$@" >"$dir/play.json" 2>"$dir/play.err"
		turns=$(field count <"$dir/play.json")
		rate=$(field per_second <"$dir/play.json")
		p99=$(field p99 <"$dir/play.json")
		cpu=$(field cpu_seconds <"$dir/play.json")
		rss=$(field rss_max_kib <"$dir/play.json")
		if [ -z "$turns" ] || [ "$turns" = 0 ]; then
			echo "$which round $round: no turns (see $dir)"
			kill "$server" "$sink" 2>/dev/null
			continue
		fi
		awk -v w="$which" -v r="$round" -v t="$turns" -v s="$rate" -v p="$p99" -v c="$cpu" -v m="$rss" 'BEGIN {
			printf "%s round %s: %.0f turns/s, server CPU %.3f ms/turn, turn p99 %.0f ms, RSS max %d MiB\n", w, r, s, 1000*c/t, p, m/1024 }'
		kill "$server" "$sink" 2>/dev/null
		wait "$server" "$sink" 2>/dev/null
		rm -rf "$dir"
	done
done
