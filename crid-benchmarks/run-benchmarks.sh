#!/usr/bin/env bash
# Reruns every crid benchmark, writes JMH's JSON to docs/benchmarks/results/, and redraws the tables and
# charts of docs/BENCHMARKS.md from it.
#
#   crid-benchmarks/run-benchmarks.sh            the full run (about 15 minutes on 2 cores, build included)
#   QUICK=1 crid-benchmarks/run-benchmarks.sh    a short run that only checks the pipeline (about 4 minutes)
#   SKIP_BUILD=1 ...                             reuse crid-benchmarks/target/benchmarks.jar
#   ONLY="paced jpa" ...                         run only these groups (nextid, plain, virtual-threads, bulk,
#                                                registry, paced, runway, jpa); the report leaves the others out
#   RUNS_IN_A_ROW=3 ...                          how often the plain user's benchmark, the paced PostgreSQL
#                                                node and JPA @Crid beside the assigned floor run in a row,
#                                                each run with its own baseline
#   JAVA_VIRTUAL_THREADS=/path/to/bin/java ...   the Java 21+ that runs the virtual thread row (by default
#                                                Temurin 25 from /usr/lib/jvm, else `java` if it is 21+)
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
all_groups="nextid plain virtual-threads bulk registry paced runway jpa"
groups="${ONLY:-$all_groups}"
for group in $groups; do
	[[ " $all_groups " == *" $group "* ]] \
		|| { echo "ONLY names '$group', which is not one of: $all_groups" >&2; exit 2; }
done
runs_in_a_row="${RUNS_IN_A_ROW:-3}"
[[ "$runs_in_a_row" =~ ^[1-9][0-9]*$ ]] \
	|| { echo "RUNS_IN_A_ROW is '$runs_in_a_row' but must be a whole number, 1 or more" >&2; exit 2; }

java_feature() { # java command; prints its feature release (17, 21, 25, ...), or 0
	local version
	version="$("$1" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = //p' || true)"
	version="${version%%.*}"
	echo "${version:-0}"
}

vt_java="${JAVA_VIRTUAL_THREADS:-}"
if [[ -z "$vt_java" ]]; then
	if [[ -x /usr/lib/jvm/temurin-25-jdk-amd64/bin/java ]]; then
		vt_java=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
	elif (( $(java_feature java) >= 21 )); then
		vt_java=java
	fi
fi

if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
	echo "Building the benchmarks jar"
	./mvnw -B -q -pl crid-benchmarks -am package -DskipTests
fi

if [[ "${QUICK:-0}" == 1 ]]; then
	mode="quick run (QUICK=1)"
	next_id=(-f 1 -wi 1 -w 1s -i 2 -r 1s)
	plain=(-f 1 -wi 1 -w 1s -i 2 -r 1s)
	bulk=(-f 1 -wi 1 -w 1s -i 2 -r 1s)
	registry=(-f 1 -wi 1 -w 1s -i 2 -r 1s)
	paced=(-f 1 -wi 1 -w 2s -i 2 -r 2s)
	jpa=(-f 1 -wi 1 -i 1 -p rows=20000)
	jpa_paired=(-f 1 -wi 2 -i 4 -p rows=20000)
else
	mode="full run"
	next_id=(-f 2 -wi 3 -w 1s -i 5 -r 1s)
	plain=(-f 1 -wi 3 -w 1s -i 5 -r 1s) # as PlainUserBenchmark's annotations say: what a user's run gets
	bulk=(-f 1 -wi 3 -w 1s -i 5 -r 1s)
	registry=(-f 1 -wi 2 -w 2s -i 5 -r 2s)
	paced=(-f 1 -wi 3 -w 2s -i 5 -r 4s)
	jpa=(-f 1 -wi 5 -i 9 -p rows=100000)
	jpa_paired=(-f 1 -wi 16 -i 24 -p rows=100000) # as JpaPairedInsertBenchmark's annotations say
fi
[[ -n "${ONLY:-}" ]] && mode="$mode, only $groups"

mkdir -p "$results" "$logs"
rm -f "$results"/*.json "$results"/stats.jsonl "$results"/machine.txt
stats="$root/$results/stats.jsonl"
: > "$stats"

load() { cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo n/a; }

heap="-Xms2g -Xmx2g"

run() { # name, JMH arguments...; the java that runs it is $RUN_JAVA, else java; its heap options $RUN_HEAP,
	# else $heap (RUN_HEAP= gives none: the JVM's default heap)
	local name=$1; shift
	local java_cmd="${RUN_JAVA:-java}" heap_options="${RUN_HEAP-$heap}" load_at_start began
	load_at_start="$(load)"
	began=$(date +%s)
	echo "== $name: $java_cmd -jar $jar $*"
	"$java_cmd" -jar "$jar" "$@" -foe true -rf json -rff "$results/$name.json" \
		-jvmArgsAppend "${heap_options:+$heap_options }-Dcrid.benchmarks.stats=$stats -Dcrid.benchmarks.run=$name" \
		> "$logs/$name.log" 2>&1 \
		|| { echo "$name failed; its log:" >&2; tail -50 "$logs/$name.log" >&2; exit 1; }
	grep -E '^[A-Za-z]+Benchmark\.|^Benchmark ' "$logs/$name.log" || true
	printf '{"kind":"run","run":"%s","loadAtStart":"%s","loadAtEnd":"%s","seconds":%d}\n' \
		"$name" "$load_at_start" "$(load)" $(( $(date +%s) - began )) >> "$stats"
}

selected() { [[ " $groups " == *" $1 "* ]]; }

# The benchmark threads' CPU time per call beside the throughput: what a call costs, which other work on the
# machine hardly changes (it only runs between iterations, so it costs the measurement nothing).
cpu_time=(-prof dev.crid.benchmarks.CpuTimeProfiler)

started=$(date +%s)
load_at_start="$(load)"
if selected nextid; then
	run nextid-t1 "${next_id[@]}" -t 1 "${cpu_time[@]}" 'dev\.crid\.benchmarks\.NextIdBenchmark\.'
	run nextid-t2 "${next_id[@]}" -t 2 "${cpu_time[@]}" 'dev\.crid\.benchmarks\.NextIdBenchmark\.'
fi
# A user's own benchmark: one fork, no JVM options, so the default heap and collector; each run its own baseline.
if selected plain; then
	for (( n = 1; n <= runs_in_a_row; n++ )); do
		RUN_HEAP= run "plain-$n" "${plain[@]}" -t 1 "${cpu_time[@]}" 'dev\.crid\.benchmarks\.PlainUserBenchmark\.'
	done
fi
if selected virtual-threads; then
	if [[ -n "$vt_java" ]] && (( $(java_feature "$vt_java") >= 21 )); then
		RUN_JAVA="$vt_java" run virtual-threads "${next_id[@]}" -p registry=memory "${cpu_time[@]}" \
			'dev\.crid\.benchmarks\.VirtualThreadsBenchmark\.'
	else
		echo "== virtual-threads skipped: needs Java 21 or later; set JAVA_VIRTUAL_THREADS to its bin/java" >&2
	fi
fi
if selected bulk; then
	run bulk "${bulk[@]}" -p registry=memory,postgresql 'dev\.crid\.benchmarks\.BulkIdsBenchmark\.'
fi
if selected registry; then
	run registry-t1 "${registry[@]}" -t 1 'dev\.crid\.benchmarks\.RegistryAllocationBenchmark\.'
	run registry-t4 "${registry[@]}" -t 4 'dev\.crid\.benchmarks\.RegistryAllocationBenchmark\.'
fi
# The first run has every row; the runs after it repeat the target's rows, each with its own baseline (JPA
# alternating which strategy goes first, so that neither always meets the database as the other left it).
if selected paced; then
	run paced-1 "${paced[@]}" -p registry=memory,delayed,postgresql 'dev\.crid\.benchmarks\.PacedNextIdBenchmark\.'
	for (( n = 2; n <= runs_in_a_row; n++ )); do
		run "paced-$n" "${paced[@]}" -p registry=postgresql 'dev\.crid\.benchmarks\.PacedNextIdBenchmark\.'
	done
fi
# The runway's cost: the paced PostgreSQL node without a runway and with one of 10 s, in one command.
if selected runway; then
	run runway "${paced[@]}" -p registry=postgresql -p runwaySeconds=0,10 'dev\.crid\.benchmarks\.PacedNextIdBenchmark\.crid$'
fi
if selected jpa; then
	run jpa-1 "${jpa[@]}" 'dev\.crid\.benchmarks\.JpaInsertBenchmark\.'
	# @Crid beside the floor in alternate iterations of one trial, the target's measurement.
	for (( n = 1; n <= runs_in_a_row; n++ )); do
		run "jpa-paired-$n" "${jpa_paired[@]}" 'dev\.crid\.benchmarks\.JpaPairedInsertBenchmark\.'
	done
fi

commit="$(git rev-parse --short HEAD)"
git diff --quiet HEAD -- . ':!docs' || commit="$commit with uncommitted changes"
{
	echo "cpu: $(lscpu | sed -n 's/^Model name: *//p' | head -1)"
	echo "cores: $(nproc)"
	echo "memory: $(free -g | awk '/^Mem:/ { print $2 " GiB" }')"
	echo "os: $(. /etc/os-release && echo "$PRETTY_NAME"), Linux $(uname -r)"
	echo "java: $(java -version 2>&1 | sed -n 2p), heap $heap"
	if selected plain; then
		echo "java-plain: the JVM's defaults: $(java -XX:+PrintFlagsFinal -version 2>/dev/null \
			| awk '$2 == "InitialHeapSize" || $2 == "MaxHeapSize" { printf "%s %d MiB, ", $2, $4 / 1048576 }
				$2 == "UseG1GC" && $4 == "true" { printf "G1, " } $2 == "UseSerialGC" && $4 == "true" { printf "Serial, " }' \
			| sed 's/, $//')"
	fi
	if selected virtual-threads && [[ -n "$vt_java" ]]; then
		echo "java-virtual-threads: $("$vt_java" -version 2>&1 | sed -n 2p), heap $heap"
	fi
	echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "commit: $commit"
	echo "mode: $mode"
	echo "duration: $(( ($(date +%s) - started) / 60 )) min"
	echo "load: $load_at_start at the start, $(load) at the end (1, 5, 15 min)"
} > "$results/machine.txt"

python3 crid-benchmarks/report.py "$results" docs
echo "Done in $(( ($(date +%s) - started) / 60 )) min; logs in $logs"
