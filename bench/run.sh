#!/usr/bin/env bash
# Benchmarks: the cost of safety, side by side with what users would pick instead.
#   bench/run.sh [--quick] [--no-profile] [--only per_call,startup,first_call,recovery,fleet,profile] [--comparators a,b,...]
# Builds the agent and the benchmarks, runs every comparator, writes bench/target/results.json and
# bench/target/results.md and prints the table. --quick finishes within 5 minutes, the full run within 20.
# effectful_postgres and effectful_postgres_nofsync start their own PostgreSQL server from the Debian
# package (/usr/lib/postgresql/*/bin) on loopback; where it is not installed they are skipped, saying so.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

java_home="${JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")}"
java="$java_home/bin/java"
if ! "$java" -version 2>&1 | grep -q 'version "17'; then
  echo "run.sh: benchmarks run on JDK 17 ($java is not); set JAVA_HOME" >&2
  exit 2
fi
jdk25="${EFFECTFUL_JDK25_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
[[ -x "$jdk25/bin/java" ]] || jdk25=""

echo "== building (mvn -pl bench -am package)"
mvn -q -B -pl bench -am package -DskipTests

version="$(sed -n 's:.*<version>\(.*\)</version>.*:\1:p' pom.xml | head -1)"
agent="$root/agent/target/effectful-agent.jar"
annotations="$root/annotations/target/effectful-annotations-$version.jar"
out="$root/bench/target"

# The driver itself writes a Chronicle journal (recovery), so it gets what the agent would grant.
# Chronicle's jffi unpacks native libraries into the working directory: keep them in target.
cd "$out"
exec "$java" -Xmx2g \
  --add-exports java.base/sun.nio.ch=ALL-UNNAMED --add-exports java.base/jdk.internal.ref=ALL-UNNAMED \
  --add-opens java.base/java.lang.reflect=ALL-UNNAMED --add-opens java.base/java.lang=ALL-UNNAMED \
  -Dchronicle.analytics.disable=true -Dchronicle.announcer.disable=true ${BENCH_DRIVER_OPTS:-} \
  -jar "$out/benchmarks.jar" --agent "$agent" --annotations "$annotations" --out "$out" --jdk25 "$jdk25" "$@"
