#!/usr/bin/env bash
# OpenAPI fuzzing (docs/behaviour.md section 9): schemathesis runs every operation of /v2/openapi.json
# (fuzzing phase) and its stateful phase (OpenAPI links) against the built service on a real
# Neo4j, and fails on any server error or any answer that does not match its declared schema.
# Failures are printed with the curl that reproduces them. The coverage phase is left out: on
# two cores it alone takes minutes.
#
#   FUZZ_NEO4J_PORT (default $TEST_NEO4J_PORT or 7697)  Neo4j to use (started here if not running)
#   FUZZ_PORT (default 7833)  port of the fuzzed service;  FUZZ_PHASES (default fuzzing,stateful)
#   FUZZ_DB_TIMEOUT_MS (default 30000)  DB_TIMEOUT_MS of the fuzzed service
#   FUZZ_EXAMPLES (default 5)  examples per operation and stateful scenarios; the run is bounded
#   by that count (a time budget would make schemathesis repeat fuzzing until it is spent).
#   Measured with 5 (2026-11-23, 2 cores shared with other runs, load average ~30): 160 operations,
#   922 cases (fuzzing 111 s, stateful 15 scenarios 49 s), 190 s in all, 43 CPU-s (fuzzer, service
#   and Neo4j): under the ~4 minutes CI gives this step (.ci/run: timeout 420 s, pip install included).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

SCHEMATHESIS_VERSION=4.32.5
VENV=.venv
neo4j_port=${FUZZ_NEO4J_PORT:-${TEST_NEO4J_PORT:-7697}}
port=${FUZZ_PORT:-7833}
examples=${FUZZ_EXAMPLES:-5}

if ! "$VENV/bin/st" --version 2>/dev/null | grep -q "$SCHEMATHESIS_VERSION"; then
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION"
fi

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
started_neo4j=
if ! port_open "$neo4j_port"; then
  node scripts/neo4j-local.mjs start --detach --port "$neo4j_port" --data-dir ".neo4j/fuzz-data-$neo4j_port"
  started_neo4j=1
fi
[ -f dist/src/main.js ] || npm run build --silent

admin="fuzz_admin_$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')"
log=$(mktemp)
# The fuzzer judges answers, not latency: on a busy CI box a first (planning) query may pass the
# default 4-s DB_TIMEOUT_MS and answer 503, which it would count as a server error. The deadline
# itself is tested by test/http/outage.test.ts; here it is as long as in the test suite.
ADMIN_API_KEY=$admin PORT=$port HOST=127.0.0.1 NEO4J_URI="bolt://127.0.0.1:$neo4j_port" LOG_LEVEL=error \
  DB_TIMEOUT_MS=${FUZZ_DB_TIMEOUT_MS:-30000} node dist/src/main.js >"$log" 2>&1 &
service_pid=$!
cleanup() {
  kill "$service_pid" 2>/dev/null || true
  wait "$service_pid" 2>/dev/null || true
  # The service's own account of any 5xx the fuzzer met (error lines only: LOG_LEVEL=error).
  if grep -q '"level":50' "$log" 2>/dev/null; then
    echo "--- service errors during the fuzz run:" >&2
    grep '"level":50' "$log" | cut -c1-4000 >&2
  fi
  if [ -n "$started_neo4j" ]; then node scripts/neo4j-local.mjs stop --port "$neo4j_port" >/dev/null 2>&1 || true; fi
  rm -f "$log"
}
trap cleanup EXIT

base="http://127.0.0.1:$port"
for _ in $(seq 1 120); do
  curl -fs "$base/readyz" >/dev/null 2>&1 && break
  kill -0 "$service_pid" 2>/dev/null || { cat "$log" >&2; exit 1; }
  sleep 0.5
done

# One project and environment of its own, with a resource, a user and a tenant, for the fuzzer.
FUZZ_PROJ="fuzz_$(od -An -N4 -tx1 /dev/urandom | tr -d ' \n')"
export FUZZ_PROJ FUZZ_ENV=fuzz
api() { curl -fsS -X "$1" "$base$2" -H "authorization: Bearer $admin" -H 'content-type: application/json' ${3:+-d "$3"} >/dev/null; }
api POST /v2/projects "{\"key\":\"$FUZZ_PROJ\",\"name\":\"fuzz\"}"
api POST "/v2/projects/$FUZZ_PROJ/envs" "{\"key\":\"$FUZZ_ENV\",\"name\":\"fuzz\"}"
api POST "/v2/schema/$FUZZ_PROJ/$FUZZ_ENV/resources" '{"key":"doc","name":"Doc","actions":{"read":{}}}'
api POST "/v2/facts/$FUZZ_PROJ/$FUZZ_ENV/users" '{"key":"u"}'

# Deleting the fuzzer's own project or environment would turn every later call into a 404.
# The request timeout lies past the service's own deadline (DB_TIMEOUT_MS), so every call gets the
# service's answer (a 503 at worst) to judge: with 10 s, a decision call on a loaded box (a run
# beside other Neo4j servers, load average 10) was counted as a network error at 10 s.
"$VENV/bin/st" --config-file scripts/schemathesis.toml run "$base/v2/openapi.json" \
  --header "Authorization: Bearer $admin" \
  --checks not_a_server_error,response_schema_conformance \
  --phases "${FUZZ_PHASES:-fuzzing,stateful}" \
  --exclude-by 'method == "DELETE" and (path == "/v2/projects/{proj_id}" or path == "/v2/projects/{proj_id}/envs/{env_id}")' \
  --max-examples "$examples" --suppress-health-check too_slow \
  --workers 2 --request-timeout "$(( ${FUZZ_DB_TIMEOUT_MS:-30000} / 1000 + 10 ))" --seed 1 \
  --generation-database none --no-color
