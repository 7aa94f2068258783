#!/usr/bin/env bash
# Keyless verification, end to end (process start included): the mean wall time of
# `skillc verify` over N runs for a typical keyless bundle of each kind.
#   bash bench/keyless.sh [SKILLC] [N]      (defaults: target/release/skillc, 50)
# The goal (issue 37): at most 50 ms per verify of a typical keyless bundle on a 2-core machine.
set -euo pipefail
cd "$(dirname "$0")/.."
skillc=${1:-target/release/skillc}
n=${2:-50}
conf=tests/data/sigstore-conformance/bundle-verify
keyless=tests/data/keyless
gh=https://token.actions.githubusercontent.com
beacon=https://github.com/sigstore-conformance/extremely-dangerous-public-oidc-beacon/.github/workflows/extremely-dangerous-oidc-beacon.yml@refs/heads/main
alpha=https://github.com/acme/skills/.github/workflows/release.yml@refs/heads/main

bench() {
  local name=$1; shift
  "$skillc" verify "$@" 2>/dev/null || { echo "$name: verify failed" >&2; "$skillc" verify "$@"; exit 1; }
  local start end
  start=$(date +%s%N)
  for _ in $(seq "$n"); do "$skillc" verify "$@" 2>/dev/null; done
  end=$(date +%s%N)
  printf '%-52s %6.1f ms\n' "$name" "$(echo "($end - $start) / $n / 1000000" | bc -l)"
}

echo "skillc verify, mean of $n runs ($("$skillc" --version))"
bench "public-good v0.3, Rekor v1, embedded root" "$conf/a.txt" \
  --bundle "$conf/happy-path-v0.3/bundle.sigstore.json" \
  --certificate-identity "$beacon" --certificate-oidc-issuer "$gh"
bench "Rekor v2 + TSA timestamp, custom root" "$conf/a.txt" \
  --bundle "$conf/rekor2-timestamp-with-embedded-cert/bundle.sigstore.json" \
  --trusted-root "$conf/rekor2-timestamp-with-embedded-cert/trusted_root.json" \
  --certificate-identity "$beacon" --certificate-oidc-issuer "$gh"
bench "DSSE in-toto statement, test instance" "$keyless/file/artifact.txt" \
  --bundle "$keyless/file/artifact.txt.intoto.sigstore.json" --trusted-root "$keyless/trusted_root.json" \
  --certificate-identity "$alpha" --certificate-oidc-issuer "$gh"
bench "haiku.skills directory (SKILL.sigstore), test instance" "$keyless/skills/alpha" \
  --trusted-root "$keyless/trusted_root.json" \
  --certificate-identity "$alpha" --certificate-oidc-issuer "$gh"
