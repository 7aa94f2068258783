#!/usr/bin/env bash
# Times `skillc validate` on one skill and on a generated corpus.
#   bash bench/validate.sh [SKILLS]     (default 10000)
# Needs python3. Prints wall times; uses hyperfine when it is installed.
set -euo pipefail
cd "$(dirname "$0")/.."
count="${1:-10000}"
cargo build --release --quiet
bin="$PWD/target/release/skillc"
corpus="$(mktemp -d)"
trap 'rm -rf "$corpus"' EXIT
python3 bench/corpus.py "$corpus" "$count"

time_it() {  # label, runs, command...
  local label="$1" runs="$2"; shift 2
  if command -v hyperfine >/dev/null; then
    hyperfine --warmup 3 --runs "$runs" -N --ignore-failure --export-markdown /dev/null "$*" | sed "s/^/[$label] /"
  else
    python3 - "$label" "$runs" "$@" <<'PY'
import subprocess, sys, time
label, runs, cmd = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
subprocess.run(cmd, capture_output=True)
times = []
for _ in range(runs):
    t = time.perf_counter(); subprocess.run(cmd, capture_output=True); times.append(time.perf_counter() - t)
times.sort()
print(f"[{label}] runs={runs} min={times[0]*1000:.1f} ms median={times[len(times)//2]*1000:.1f} ms")
PY
  fi
}

time_it "one skill, 12 KB body" 20 "$bin" validate --no-config -q "$corpus/skills/skill-00000"
time_it "$count skills, 12 KB bodies" 5 "$bin" validate --no-config -q --format concise "$corpus/skills"
small="$(mktemp -d)"
python3 bench/corpus.py "$small" "$count" 60
time_it "one skill, 3.5 KB body" 50 "$bin" validate --no-config -q "$small/skills/skill-00000"
time_it "$count skills, 3.5 KB bodies" 5 "$bin" validate --no-config -q --format concise "$small/skills"
rm -rf "$small"
echo "diagnostics on the corpus: $("$bin" validate --no-config -q --format concise "$corpus/skills" | wc -l)"
