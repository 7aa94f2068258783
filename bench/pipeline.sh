#!/usr/bin/env bash
# The throughput, CPU and memory of `skillc validate` on a generated registry of skills, beside
# the floor (`cat` of the same skill files) in the same run, then one-skill latency.
#   bash bench/pipeline.sh [SKILLS]        (default 61000, the size of a real public registry)
# Environment: SKILLC=path (use this binary; otherwise `cargo build --release`), RUNS (default 3:
# each number is the minimum of RUNS runs), SEED (default 1: the corpus generated).
# Needs python3 (standard library only). The corpus is generated once into
# target/bench/registry-SKILLS-sSEED/ and reused. Prints a Markdown table on stdout.
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
[[ -x "$bin" ]] || { echo "not an executable: $bin" >&2; exit 2; }

out="$PWD/target/bench"
mkdir -p "$out"
corpus="$out/registry-$count-s$seed"
echo "corpus: $corpus" >&2
stats=$(python3 bench/registry.py "$corpus" "$count" "$seed")
results="$out/results.jsonl"
: > "$results"
load() { python3 -c 'import os; print("%.1f" % os.getloadavg()[0])'; }  # other work on the machine skews every number
load_start=$(load)

m() {  # label runs skills command... : measure one command, append its row to $results
  python3 bench/measure.py run "$results" "$1" "$2" "$3" -- "${@:4}"
}
skill_files() {  # dirs... -> number of skill files below them (what the floor reads)
  find "$@" \( -name SKILL.md -o -name skill.md \) -print | wc -l | tr -d ' '
}
floor=(bash -c 'find "$@" \( -name SKILL.md -o -name skill.md \) -print0 | xargs -0 cat > /dev/null' floor)

# Warm the page cache with every file of the corpus, so that no run pays for the disk.
find "$corpus" -type f -print0 | xargs -0 cat > /dev/null
skills=$(skill_files "$corpus")

# What skillc finds and says, once (then every timed run goes to /dev/null).
set +e
"$bin" validate --no-config --format json "$corpus" > "$out/report.json" 2> /dev/null
code=$?
set -e
read -r seen diags errors warnings infos < <(python3 bench/measure.py summary "$out/report.json")
rm -f "$out/report.json"

echo "measuring, min of $runs runs each:" >&2
m "floor: find | xargs cat" "$runs" "$skills" "${floor[@]}" "$corpus"
m "validate --format json" "$runs" "$skills" "$bin" validate --no-config --format json "$corpus"
m "validate --format full" "$runs" "$skills" "$bin" validate --no-config --format full "$corpus"
m "validate --statistics" "$runs" "$skills" "$bin" validate --no-config --statistics "$corpus"
m "validate -q --format concise" "$runs" "$skills" "$bin" validate --no-config -q --format concise "$corpus"
m "validate --format json --ignore SK402" "$runs" "$skills" "$bin" validate --no-config --format json --ignore SK402 "$corpus"
m "validate --format json --select SK0" "$runs" "$skills" "$bin" validate --no-config --format json --select SK0 "$corpus"

# Linearity: the same run on registries of a quarter and a half as many skills, generated once
# like this one (the same seed: their skills are this one's first). The registry is one flat
# folder, so a part of it cannot be given as a few PATHs.
for part in 4 2; do
  (( count / part > 0 )) || continue
  some="$out/registry-$((count / part))-s$seed"
  python3 bench/registry.py "$some" "$((count / part))" "$seed" > /dev/null
  find "$some" -type f -print0 | xargs -0 cat > /dev/null
  m "validate --format json, 1/$part of the skills" "$runs" "$(skill_files "$some")" \
    "$bin" validate --no-config --format json "$some"
done

# The real public skills of ../shared/corpus/ (four repositories), when they are there.
tarball=../shared/corpus/public-skills.tar.gz
if [[ -f "$tarball" ]]; then
  public="$out/public"
  [[ -d "$public" ]] || { mkdir -p "$public.tmp" && tar -xzf "$tarball" -C "$public.tmp" && mv "$public.tmp" "$public"; }
  find "$public" -type f -print0 | xargs -0 cat > /dev/null
  n=$(skill_files "$public")
  m "public corpus: floor" "$runs" "$n" "${floor[@]}" "$public"
  m "public corpus: validate --format json" "$runs" "$n" "$bin" validate --no-config --format json "$public"
fi

# One skill, as a pre-commit hook runs it: small, and a 12 KB body (SK402 must tokenize it).
small=$(python3 bench/registry.py --one "$out/one" 1000)
large=$(python3 bench/registry.py --one "$out/one" 12288)
m "one skill, 1 KB body (ms)" 20 0 "$bin" validate --no-config "$small"
m "one skill, 12 KB body (ms)" 20 0 "$bin" validate --no-config "$large"

# The report.
python3 - "$stats" <<'PY'
import json, sys
s = json.loads(sys.argv[1])
how = "reused" if s["reused"] else f"generated in {s['seconds']} s"
print(f"Corpus: {s['skills']:,} skills (seed {s['seed']}, {how}): {s['skill_bytes'] / 1e6:.0f} MB of skill files, "
      f"{s['total_files']:,} files and {s['total_bytes'] / 1e6:.0f} MB in all; {s['owners']:,} owners, {s['repos']:,} repositories.\n")
PY
echo "$("$bin" --version), $(nproc 2>/dev/null || sysctl -n hw.ncpu) CPUs, load average $load_start at the start and $(load) at the end; each row the minimum of $runs runs (one-skill rows: of 20)."
echo
python3 bench/measure.py report "$results"
echo
echo "skillc saw $seen skills (find counts $skills) and reported $diags diagnostics ($errors errors, $warnings warnings, $infos infos), exit $code."
[[ "$seen" == "$skills" ]] || echo "WARNING: skillc saw $seen skills but the corpus holds $skills skill files."
