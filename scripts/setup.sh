#!/usr/bin/env bash
# The test set-up: everything the tests need beyond `npm ci`, installed when missing, silent
# (one summary line) when present. `npm test` runs it first (package.json "pretest"), and so does
# .ci/run, so CI cannot pass where a new user's `npm ci && npm test` fails.
#
#   - a Chromium or Chrome for the console's browser tests: CHROMIUM_PATH, else one found on the
#     machine (scripts/browser-path.cjs: PATH, Debian's /usr/bin/chromium, macOS bundles), else
#     Debian's `chromium` installed with apt-get (as root, or with password-less `sudo -n`);
#   - Python 3 with the venv .venv-permit holding Permit's official Python SDK, pinned in
#     test/permit-python/requirements.txt (made again when that file changes);
#   - the Maven artifacts of Neo4j for the local launcher (unless NEO4J_URI names a Neo4j, or a
#     Docker engine is there for testcontainers), and the walk extension's jar (neo4j/extension,
#     `mvn package`, rebuilt only when its sources are newer than the jar), which the launcher and
#     testcontainers load.
#
# Where something is missing and cannot be installed here, it stops with one message naming what
# is missing and how to get it. It never asks for a password and never skips a suite.
#
#   bash scripts/setup.sh        the test set-up
#   bash scripts/setup.sh --ci   also the CI-only tools (shellcheck, for .ci/run's lint step)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

ci=
[ "${1:-}" = "--ci" ] && ci=1

say() { printf 'setup: %s\n' "$*" >&2; }
fail() {
  printf '\nsetup: %s\n\n' "$*" >&2
  exit 1
}

# apt-get as root, or through password-less sudo; returns 1 (installing nothing) when neither is
# possible. The variable goes through `env`: `sudo VAR=value cmd` works but `$SUDO VAR=value cmd`
# with an empty $SUDO runs "VAR=value" as a command name.
can_apt() {
  command -v apt-get >/dev/null 2>&1 || return 1
  [ "$(id -u)" = 0 ] && return 0
  command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null
}
apt_install() {
  can_apt || return 1
  local as=()
  [ "$(id -u)" = 0 ] || as=(sudo -n)
  say "installing $* (Debian's packages, apt-get)..."
  # A fresh machine may have no package lists yet: update once, only when the install needs it.
  ${as[@]+"${as[@]}"} env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null 2>&1 || {
    ${as[@]+"${as[@]}"} env DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null &&
      ${as[@]+"${as[@]}"} env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
  }
}
no_apt_reason() {
  if ! command -v apt-get >/dev/null 2>&1; then echo "apt-get is not available on this machine"
  else echo "installing needs root or password-less sudo (sudo -n), and this user has neither"; fi
}

# 1. A browser for test/browser (the admin console, driven by playwright-core).
browser_rc=0
browser=$(node scripts/browser-path.cjs) || browser_rc=$?
[ "$browser_rc" = 2 ] && fail "the browser tests cannot start (see the line above)."
if [ -z "$browser" ]; then
  if apt_install chromium; then
    browser=$(node scripts/browser-path.cjs) || fail "apt-get installed chromium, yet no browser is found (scripts/browser-path.cjs)."
  else
    fail "no Chromium or Chrome for the console's browser tests (test/browser), and none can be installed: $(no_apt_reason).
       Install one (Debian/Ubuntu: apt-get install chromium; macOS: brew install --cask chromium),
       or set CHROMIUM_PATH to the binary of one, then run the tests again."
  fi
fi

# 2. Python 3 and the venv with Permit's Python SDK (test/permit-python).
venv=.venv-permit
req=test/permit-python/requirements.txt
python_line="no Python suite"
if [ -f "$req" ]; then
  want=$(cksum <"$req")
  if [ ! -x "$venv/bin/python" ] || [ "$(cat "$venv/.requirements.cksum" 2>/dev/null)" != "$want" ]; then
    if ! command -v python3 >/dev/null 2>&1; then
      apt_install python3 python3-venv ||
        fail "Python 3 is missing for the Permit SDK tests (test/permit-python): $(no_apt_reason). Install Python 3.9+ with its venv module."
    fi
    rm -rf "$venv"
    if ! python3 -m venv "$venv" >/dev/null 2>&1; then
      # Debian's python3 keeps venv (ensurepip) in a package of its own.
      rm -rf "$venv"
      apt_install python3-venv ||
        fail "python3 cannot make a venv (Debian: apt-get install python3-venv): $(no_apt_reason)."
      python3 -m venv "$venv" || fail "python3 cannot make a venv in $venv."
    fi
    say "installing $(grep -cvE '^\s*(#|$)' "$req") pinned Python packages into $venv ($req)..."
    "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$req" ||
      fail "pip could not install $req into $venv (is PyPI reachable?)."
    printf '%s\n' "$want" >"$venv/.requirements.cksum"
  fi
  python_line="$venv ($("$venv/bin/python" --version 2>&1))"
fi

# 3. Neo4j for the tests: NEO4J_URI, else Docker (testcontainers), else the local launcher (Maven).
if [ -n "${NEO4J_URI:-}" ]; then
  neo4j_line="NEO4J_URI=$NEO4J_URI"
elif command -v java >/dev/null 2>&1 && command -v mvn >/dev/null 2>&1; then
  for attempt in 1 2 3; do
    if node --input-type=module -e "await (await import('./scripts/neo4j-local.mjs')).resolveClasspath()"; then break; fi
    [ "$attempt" = 3 ] && fail "Maven could not resolve the Neo4j artifacts from Maven Central (neo4j/pom.xml): is it reachable?"
    say "retrying in 10 s..."
    sleep 10
  done
  node --input-type=module -e "await (await import('./scripts/neo4j-local.mjs')).buildExtension()" ||
    fail "Maven could not build the walk extension (neo4j/extension/pom.xml): see the lines above."
  neo4j_line="local launcher (Maven artifacts cached, walk extension built)"
elif [ -S /var/run/docker.sock ] || [ -n "${DOCKER_HOST:-}" ]; then
  neo4j_line="Docker (testcontainers)"
else
  fail "no Neo4j for the tests: set NEO4J_URI, or run a Docker engine, or install Java 17+ and Maven (the local launcher)."
fi

# 4. CI only: shellcheck for the lint of every shell script.
if [ -n "$ci" ] && ! command -v shellcheck >/dev/null 2>&1; then
  apt_install shellcheck || fail "shellcheck is missing for .ci/run's lint step: $(no_apt_reason)."
fi

say "browser $browser; python $python_line; neo4j $neo4j_line"
