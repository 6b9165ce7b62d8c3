#!/usr/bin/env bash
# The full crash campaign: kill -9 the workload at seeded random moments, restart it on the same
# journal, and judge the ledger and the journal. Prints the table, writes reliability/target/results.json.
#   reliability/run.sh [--kills N] [--seed S] [--tasks PER_ROUND] [--max-delay-ms MS]
set -euo pipefail
cd "$(dirname "$0")/.."
kills=500; seed=20261130; extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    --kills) kills="$2"; shift 2 ;;
    --seed) seed="$2"; shift 2 ;;
    --tasks|--max-delay-ms) extra+=("$1" "$2"); shift 2 ;;
    *) echo "usage: $0 [--kills N] [--seed S] [--tasks N] [--max-delay-ms MS]" >&2; exit 2 ;;
  esac
done
. reliability/classpath.sh
campaign_build
campaign_classpath campaign
campaign_java dev.effectful.agent.reliability.CrashCampaign --kills "$kills" --seed "$seed" \
  --out reliability/target --agent "$snap/effectful-agent.jar" "${extra[@]}"
