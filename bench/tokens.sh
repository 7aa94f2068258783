#!/usr/bin/env bash
# Token accounting throughput on a generated corpus, and adversarial text.
#   bash bench/tokens.sh [SKILLS]     (default 10000)
set -euo pipefail
cd "$(dirname "$0")/.."
count="${1:-10000}"
cargo build --release --quiet
bin="$PWD/target/release/skillc"
corpus="$(mktemp -d)"
trap 'rm -rf "$corpus"' EXIT
python3 bench/corpus.py "$corpus" "$count"
bytes=$(find "$corpus/skills" -name 'SKILL.md' -o -name 'skill.md' | xargs cat | wc -c)

seconds() {  # command... -> best of 3 wall times in seconds
  python3 - "$@" <<'PY'
import subprocess, sys, time
best = None
for _ in range(3):
    t = time.perf_counter(); subprocess.run(sys.argv[1:], capture_output=True); d = time.perf_counter() - t
    best = d if best is None or d < best else best
print(f"{best:.3f}")
PY
}

l1=$(seconds "$bin" list --no-config "$corpus/skills")
all=$(seconds "$bin" tokens --no-config --format json "$corpus/skills")
python3 - "$count" "$bytes" "$l1" "$all" <<'PY'
import sys
n, b, l1, full = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
print(f"L1 only (skillc list):      {n} skills in {l1:.2f} s = {n / l1:,.0f} skills/s")
print(f"L1+L2+L3 (skillc tokens):   {b / 1e6:.1f} MB of skill files in {full:.2f} s = {b / 1e6 / full:.1f} MB/s")
PY

# Adversarial: 1,000,000 bytes without a space; 250,000 copies of one 4-byte emoji.
adv="$corpus/adv"
python3 - "$adv" <<'PY'
import os, sys
root = sys.argv[1]
for name, body in [("no-spaces", "x" * 1_000_000), ("emoji", "\U0001F600" * 250_000)]:
    os.makedirs(os.path.join(root, name))
    with open(os.path.join(root, name, "SKILL.md"), "w") as f:
        f.write(f"---\nname: {name}\ndescription: Use when measuring.\n---\n{body}\n")
PY
for name in no-spaces emoji; do
  t=$(python3 -c "import subprocess,time,sys; t=time.perf_counter(); subprocess.run(sys.argv[1:], capture_output=True); print(f'{time.perf_counter()-t:.2f}')" "$bin" tokens --no-config --format json "$adv/$name")
  echo "adversarial $name (1 MB body): skillc tokens in $t s"
done
