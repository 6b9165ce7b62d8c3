#!/usr/bin/env bash
# Start-up of a real web application with and without the agent (see AppStartup): the user's own jar,
# started as it is, on JDK 17 and 25; wall time to the first HTTP answer and CPU time to ready.
#   bench/app-startup.sh --app APP.jar|UNPACKED_DIR [--name NAME] [--path /] [--runs 5] [--profile] [-- APP ARGS]
# Writes bench/target/app-startup/NAME.md and NAME.json. Nothing else may run on the machine meanwhile.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
if [ -z "${SKIP_BUILD:-}" ]; then
  mvn -q -B -pl bench -am package -DskipTests
fi
exec java -cp bench/target/benchmarks.jar dev.effectful.bench.AppStartup --agent agent/target/effectful-agent.jar "$@"
