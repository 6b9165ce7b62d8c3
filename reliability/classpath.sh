# Sourced by the reliability scripts: builds this checkout's agent and its modules from the reactor (never
# from SNAPSHOTs installed in ~/.m2, which a fresh clone does not have and an old build may have left
# stale), and gives the class path a campaign runs on: a private copy of the built classes (so rebuilding
# the checkout during a long run cannot disturb it) and the agent module's test dependencies.
# One list of the modules whose classes the campaigns load: a module split off another is added here once.
#   campaign_build            builds (skipped with SKIP_BUILD=1, which reuses the last build's class path)
#   campaign_classpath NAME   sets $snap (the copy, with effectful-agent.jar in it) and $cp
#   campaign_java MAIN ARGS   runs MAIN on $cp (exec) with the flags Chronicle Queue needs on JDK 17+
campaign_modules=(runtime core annotations)
campaign_deps=reliability/target/campaign-deps.txt

# Runs a step quietly; on failure prints what failed, the cause from its output and where the rest is.
campaign_step() {
  local what="$1"; shift
  local log="reliability/target/$(echo "$what" | tr -c 'a-z0-9\n' '-').log"
  mkdir -p reliability/target
  if ! "$@" >"$log" 2>&1; then
    echo "reliability: $what failed: $*" >&2
    # the cause, without Maven's advice on how to read its own log
    grep -E '\[ERROR\]|ERROR|Exception|error:' "$log" \
      | grep -vE '^\[ERROR\] *$|-> \[Help|re-run Maven|Re-run Maven|\[Help [0-9]\]|For more information|resume the build|mvn <args>' \
      | head -30 >&2 || tail -30 "$log" >&2
    echo "reliability: the whole output is in $log" >&2
    exit 2
  fi
}

campaign_build() {
  if [ -n "${SKIP_BUILD:-}" ]; then
    [ -s "$campaign_deps" ] && return 0
    echo "reliability: SKIP_BUILD is set but no earlier build left $campaign_deps; run once without SKIP_BUILD" >&2
    exit 2
  fi
  # one reactor build: the modules' jars and test classes, and the agent's test class path resolved from the
  # same reactor (dependency:build-classpath alone would look for the sibling modules in ~/.m2)
  campaign_step "build" mvn -B -pl agent -am package -DskipTests dependency:build-classpath \
    -Dmdep.includeScope=test -Dmdep.outputFile=target/campaign-deps.txt
  cp agent/target/campaign-deps.txt "$campaign_deps"
}

campaign_classpath() {
  local name="$1"
  mkdir -p reliability/target
  if [ ! -s "$campaign_deps" ]; then
    echo "reliability: $campaign_deps is missing; call campaign_build first" >&2
    exit 2
  fi
  local deps
  # the libraries only: this checkout's modules (reactor paths, or a stray installed SNAPSHOT) come from the copy
  deps=$(tr ':' '\n' < "$campaign_deps" | grep -v '/dev/effectful/' | grep -v "^$PWD/" | paste -sd: -)
  snap="reliability/target/$name-snapshot"
  rm -rf "$snap"; mkdir -p "$snap"
  local need
  for need in agent/target/test-classes agent/target/effectful-agent.jar; do
    if [ ! -e "$need" ]; then
      echo "reliability: $need is missing; build first (without SKIP_BUILD)" >&2
      exit 2
    fi
  done
  cp -r agent/target/test-classes "$snap/test"
  cp agent/target/effectful-agent.jar "$snap/effectful-agent.jar"
  cp="$snap/test"
  local m
  for m in "${campaign_modules[@]}"; do
    if [ ! -d "$m/target/classes" ]; then
      echo "reliability: $m/target/classes is missing; build first (without SKIP_BUILD)" >&2
      exit 2
    fi
    cp -r "$m/target/classes" "$snap/$m"
    cp="$cp:$snap/$m"
  done
  cp="$cp:$deps"
}

campaign_java() {
  exec java --add-exports java.base/sun.nio.ch=ALL-UNNAMED --add-opens java.base/java.lang.reflect=ALL-UNNAMED \
    --add-exports java.base/jdk.internal.ref=ALL-UNNAMED --add-opens java.base/java.lang=ALL-UNNAMED \
    -Dchronicle.analytics.disable=true -Dchronicle.announcer.disable=true \
    -cp "$cp" "$@"
}
