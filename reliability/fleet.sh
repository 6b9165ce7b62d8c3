#!/usr/bin/env bash
# The fleet crash campaign: three host JVMs (own network namespaces as root, else loopback) on one
# PostgreSQL started from Maven Central's binaries; seeded kill -9 of hosts and of the database, freezes
# of the database and of hosts holding a lease; then the ledger and the store are judged.
# Prints the table and the seed, writes reliability/target/fleet.json.
# --mixed: the combined campaign (reliability/combined.sh): CompletableFuture, Kotlin suspend, key-header and
# approval tools beside the blocking ones, approvals given through the CLI during the run; writes combined.json.
# --disk-fills N: each host's journal on a small tmpfs of its own (root only; skipped saying why otherwise),
# filled below the journal's reserve and freed again N times while the hosts work.
#   reliability/fleet.sh [--host-kills N] [--db-kills N] [--db-freezes N] [--host-freezes N] [--disk-fills N] [--mixed] [--seed S]
set -euo pipefail
cd "$(dirname "$0")/.."
seed=20261203; args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --seed) seed="$2"; shift 2 ;;
    --host-kills|--db-kills|--db-freezes|--host-freezes|--disk-fills) args+=("$1" "$2"); shift 2 ;;
    --mixed) args+=("$1"); shift ;;
    *) echo "usage: $0 [--host-kills N] [--db-kills N] [--db-freezes N] [--host-freezes N] [--disk-fills N] [--mixed] [--seed S]" >&2; exit 2 ;;
  esac
done
. reliability/classpath.sh
campaign_build
campaign_classpath fleet
campaign_java dev.effectful.agent.fleet.FleetCampaign --seed "$seed" "${args[@]}" \
  --out reliability/target --agent "$snap/effectful-agent.jar"
