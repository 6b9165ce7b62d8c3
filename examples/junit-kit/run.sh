#!/usr/bin/env bash
# Installs Effectful into a scratch local repository, then runs this example's tests against the
# installed kit on JDK 17 and JDK 25. Never touches ~/.m2 (it is only copied, to work offline).
#   examples/junit-kit/run.sh [scratch-repo]      (JDK25_HOME overrides the JDK 25 location)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
repo="${1:-/tmp/effectful-junit-kit-repo}"
jdk25="${JDK25_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
if [ ! -d "$repo" ]; then
  mkdir -p "$repo"
  [ -d "$HOME/.m2/repository" ] && cp -r "$HOME/.m2/repository/." "$repo/"
fi
(cd "$root" && mvn -B -q -o -Dmaven.repo.local="$repo" -pl .,annotations,runtime,junit install -DskipTests)
(cd "$here" && mvn -B -o -Dmaven.repo.local="$repo" verify)
if [ -x "$jdk25/bin/java" ]; then
  (cd "$here" && JAVA_HOME="$jdk25" mvn -B -o -Dmaven.repo.local="$repo" clean verify)
fi
