#!/usr/bin/env bash
# The cost of the security rules on a generated registry: `validate` with the default rules
# against `--extend-select security` (every file of every skill read and scanned), run
# interleaved so that both see the same load; the floor (`cat` of every file of the corpus,
# which the security rules read) beside them. Each number is the minimum of RUNS runs.
#   bash bench/security.sh [SKILLS]        (default 61000, the size of a real public registry)
# Environment: SKILLC=path (use this binary; otherwise `cargo build --release`), RUNS (default
# 3), SEED (default 1). The corpus is generated once into target/bench/registry-SKILLS-sSEED/
# (as bench/pipeline.sh does) and reused. Then, on 500 of its skills, `strace` (when installed)
# counts the files opened more than once by the security run. Prints a Markdown table.
set -euo pipefail
start_dir="$PWD"
cd "$(dirname "$0")/.."
count="${1:-61000}"
runs="${RUNS:-3}"
seed="${SEED:-1}"
if [[ -n "${SKILLC:-}" ]]; then
  bin="$SKILLC"
  [[ "$bin" = /* ]] || bin="$start_dir/$bin"
else
  cargo build --release --quiet
  bin="$PWD/target/release/skillc"
fi
out="$PWD/target/bench"
mkdir -p "$out"
corpus="$out/registry-$count-s$seed"
python3 bench/registry.py "$corpus" "$count" "$seed" > /dev/null
results="$out/security.jsonl"
: > "$results"
find "$corpus" -type f -print0 | xargs -0 cat > /dev/null
floor=(bash -c 'find "$1" -type f -print0 | xargs -0 cat > /dev/null' floor "$corpus")
for ((i = 0; i < runs; i++)); do
  python3 bench/measure.py run "$results" "floor: cat every file" 1 "$count" -- "${floor[@]}"
  python3 bench/measure.py run "$results" "validate (defaults)" 1 "$count" -- \
    "$bin" validate --no-config --exit-zero --format json "$corpus"
  python3 bench/measure.py run "$results" "validate --extend-select security" 1 "$count" -- \
    "$bin" validate --no-config --exit-zero --extend-select security --format json "$corpus"
done
python3 bench/measure.py report "$results"
python3 - "$results" <<'PY'
import json, sys
rows = {}
for line in open(sys.argv[1]):
    r = json.loads(line)
    rows[r["label"]] = min(rows.get(r["label"], 1e9), r["wall"])
base = rows["validate (defaults)"]
sec = rows["validate --extend-select security"]
print(f"\n--extend-select security / defaults: {sec / base:.2f}x ({sec:.2f} s against {base:.2f} s)")
PY
if command -v strace > /dev/null; then
  sample="$out/security-sample"
  rm -rf "$sample" && mkdir -p "$sample"
  mapfile -t dirs < <(find "$corpus" -mindepth 1 -maxdepth 1 -type d | sort)
  cp -r "${dirs[@]:0:500}" "$sample"/
  strace -f -qq -e trace=openat -o "$out/security.strace" \
    "$bin" validate --no-config --exit-zero --extend-select security --format json "$sample" > /dev/null
  python3 - "$out/security.strace" <<'PY'
import collections, re, sys
opened = collections.Counter()
for line in open(sys.argv[1]):
    m = re.search(r'openat\([^"]*"([^"]+)", O_RDONLY[^)]*\) = \d+', line)
    if m and "/security-sample/" in m.group(1):
        opened[m.group(1)] += 1
twice = {p: n for p, n in opened.items() if n > 1}
print(f"files opened: {len(opened)}; opened more than once: {len(twice)}")
for p, n in sorted(twice.items())[:10]:
    print(f"  {n}x {p}")
PY
fi
