#!/usr/bin/env bash
# Reruns every crid benchmark, writes JMH's JSON to docs/benchmarks/results/, and redraws the tables and
# charts of docs/BENCHMARKS.md from it.
#
#   crid-benchmarks/run-benchmarks.sh            the full run (about 10 minutes on 2 cores, build included)
#   QUICK=1 crid-benchmarks/run-benchmarks.sh    a short run that only checks the pipeline (about 3 minutes)
#   SKIP_BUILD=1 ...                             reuse crid-benchmarks/target/benchmarks.jar
#   crid-benchmarks/report.py docs/benchmarks/results docs    redraw from the JSON without rerunning
#
# Needs PostgreSQL and MariaDB: the local servers (127.0.0.1:5432 user postgres, 127.0.0.1:3306 user
# root, database test), or the URLs in CRID_TEST_POSTGRES_URL / CRID_TEST_MARIADB_URL (with _USER and
# _PASSWORD). Run it on an otherwise idle machine: every figure is compared with a baseline from the
# same run, but a busy machine still skews them.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
results="docs/benchmarks/results"
logs="crid-benchmarks/target/benchmark-logs"
jar="crid-benchmarks/target/benchmarks.jar"

if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
	echo "Building the benchmarks jar"
	./mvnw -B -q -pl crid-benchmarks -am package -DskipTests
fi

if [[ "${QUICK:-0}" == 1 ]]; then
	mode="quick run (QUICK=1)"
	next_id=(-f 1 -wi 1 -w 1s -i 2 -r 1s)
	registry=(-f 1 -wi 1 -w 1s -i 2 -r 1s)
	paced=(-f 1 -wi 1 -w 2s -i 2 -r 2s)
	jpa=(-f 1 -wi 1 -i 1 -p rows=20000)
else
	mode="full run"
	next_id=(-f 2 -wi 3 -w 1s -i 5 -r 1s)
	registry=(-f 1 -wi 2 -w 2s -i 5 -r 2s)
	paced=(-f 1 -wi 3 -w 2s -i 5 -r 4s)
	jpa=(-f 1 -wi 2 -i 5 -p rows=100000)
fi

mkdir -p "$results" "$logs"
rm -f "$results"/*.json "$results"/stats.jsonl "$results"/machine.txt
stats="$root/$results/stats.jsonl"
: > "$stats"

run() { # name, JMH arguments...
	local name=$1; shift
	echo "== $name: java -jar $jar $*"
	java -jar "$jar" "$@" -foe true -rf json -rff "$results/$name.json" \
		-jvmArgsAppend "-Xms2g -Xmx2g -Dcrid.benchmarks.stats=$stats" > "$logs/$name.log" 2>&1 \
		|| { echo "$name failed; its log:" >&2; tail -50 "$logs/$name.log" >&2; exit 1; }
	grep -E '^[A-Za-z]+Benchmark\.|^Benchmark ' "$logs/$name.log" || true
}

started=$(date +%s)
load_at_start="$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo n/a)"
run nextid-t1 "${next_id[@]}" -t 1 'dev\.crid\.benchmarks\.NextIdBenchmark\.'
run nextid-t2 "${next_id[@]}" -t 2 'dev\.crid\.benchmarks\.NextIdBenchmark\.'
run registry-t1 "${registry[@]}" -t 1 'dev\.crid\.benchmarks\.RegistryAllocationBenchmark\.'
run registry-t4 "${registry[@]}" -t 4 'dev\.crid\.benchmarks\.RegistryAllocationBenchmark\.'
run paced "${paced[@]}" -p registry=memory,delayed,postgresql 'dev\.crid\.benchmarks\.PacedNextIdBenchmark\.'
run jpa "${jpa[@]}" 'dev\.crid\.benchmarks\.JpaInsertBenchmark\.'

commit="$(git rev-parse --short HEAD)"
git diff --quiet HEAD -- . ':!docs' || commit="$commit with uncommitted changes"
{
	echo "cpu: $(lscpu | sed -n 's/^Model name: *//p' | head -1)"
	echo "cores: $(nproc)"
	echo "memory: $(free -g | awk '/^Mem:/ { print $2 " GiB" }')"
	echo "os: $(. /etc/os-release && echo "$PRETTY_NAME"), Linux $(uname -r)"
	echo "java: $(java -version 2>&1 | sed -n 2p), heap -Xms2g -Xmx2g"
	echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "commit: $commit"
	echo "mode: $mode"
	echo "duration: $(( ($(date +%s) - started) / 60 )) min"
	echo "load: $load_at_start at the start, $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo n/a) at the end (1, 5, 15 min)"
} > "$results/machine.txt"

python3 crid-benchmarks/report.py "$results" docs
echo "Done in $(( ($(date +%s) - started) / 60 )) min; logs in $logs"
