#!/usr/bin/env bash
# The soak: an application with the real agent attached calls effectful tools from 2 threads for N
# minutes, one journal cycle file per second, 10 s retention, against a loopback ledger; then judges
# heap, cycle files, the intent index, held intents and duplicates. Prints the table, writes
# reliability/target/soak.json.
#   reliability/soak.sh [--minutes N] [--seconds N] [--sample-seconds N] [--retention-seconds N]
set -euo pipefail
cd "$(dirname "$0")/.."
extra=(); minutes=10
while [ $# -gt 0 ]; do
  case "$1" in
    --minutes) minutes="$2"; shift 2 ;;
    --seconds|--sample-seconds|--retention-seconds) extra+=("$1" "$2"); shift 2 ;;
    *) echo "usage: $0 [--minutes N] [--seconds N] [--sample-seconds N] [--retention-seconds N]" >&2; exit 2 ;;
  esac
done
. reliability/classpath.sh
campaign_build
campaign_classpath soak
exec java -cp "$cp" dev.effectful.agent.reliability.Soak --minutes "$minutes" "${extra[@]}" \
  --out reliability/target --agent "$snap/effectful-agent.jar"
