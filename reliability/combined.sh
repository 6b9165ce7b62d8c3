#!/usr/bin/env bash
# The combined crash campaign: the fleet campaign (three host JVMs on one PostgreSQL, seeded kill -9 of hosts
# and of the database, freezes) with blocking, CompletableFuture and Kotlin suspend tools, a key-header tool and
# an approval tool whose requests the campaign approves through the CLI while the hosts work, and each host's
# journal disk filled and freed (as root). Prints the table and the seed, writes reliability/target/combined.json.
#   reliability/combined.sh [--host-kills N] [--db-kills N] [--db-freezes N] [--host-freezes N] [--disk-fills N] [--seed S]
# Defaults: 300 host kills, 20 database kills, 10 database freezes, 10 host freezes, 20 disk fills.
set -euo pipefail
cd "$(dirname "$0")/.."
exec reliability/fleet.sh --mixed --host-kills 300 --db-kills 20 --db-freezes 10 --host-freezes 10 --disk-fills 20 "$@"
