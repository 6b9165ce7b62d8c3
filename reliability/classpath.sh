# Sourced by the reliability scripts: the class path a campaign runs on, from a private copy of this
# checkout's classes (so rebuilding the checkout during a long run cannot disturb it) and the agent
# module's test dependencies without any effectful artifact (never a stale SNAPSHOT from ~/.m2).
# One list of the modules whose classes the campaigns load: a module split off another is added here once.
#   campaign_classpath NAME   sets $snap (the copy, with effectful-agent.jar in it) and $cp
campaign_modules=(runtime journal annotations)

campaign_classpath() {
  local name="$1"
  mkdir -p reliability/target
  mvn -q -B -pl agent dependency:build-classpath -Dmdep.includeScope=test \
    -Dmdep.outputFile="$PWD/reliability/target/$name-deps.txt" >/dev/null
  local deps
  deps=$(tr ':' '\n' < "reliability/target/$name-deps.txt" | grep -v '/dev/effectful/' | paste -sd: -)
  snap="reliability/target/$name-snapshot"
  rm -rf "$snap"; mkdir -p "$snap"
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
