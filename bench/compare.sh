#!/usr/bin/env bash
# Two skillc binaries side by side on the generated registry of bench/pipeline.sh, run
# interleaved (old, new, old, new, …) so that both see the same load: on a shared machine the
# same binary varies by up to ±20% from one minute to the next, and only runs made together
# compare. Each number is the minimum of RUNS runs.
#   bash bench/compare.sh OLD NEW [SKILLS]    (SKILLS default 61000: the corpus must exist,
#                                              run bench/pipeline.sh SKILLS once first)
# Environment: RUNS (default 3), SEED (default 1). Prints a Markdown table on stdout.
set -euo pipefail
[[ $# -ge 2 ]] || { sed -n 2,8p "$0" >&2; exit 2; }
old="$(realpath "$1")"
new="$(realpath "$2")"
cd "$(dirname "$0")/.."
count="${3:-61000}"
corpus="target/bench/registry-$count-s${SEED:-1}"
[[ -d "$corpus" ]] || { echo "no corpus at $corpus: run bash bench/pipeline.sh $count first" >&2; exit 2; }
find "$corpus" -type f -print0 | xargs -0 cat > /dev/null
results="target/bench/compare.jsonl"
: > "$results"
floor=(bash -c 'find "$1" \( -name SKILL.md -o -name skill.md \) -print0 | xargs -0 cat > /dev/null' floor "$corpus")
runs=(
  "--format json"
  "--format full"
  "--statistics"
  "-q --format concise"
)
for ((i = 0; i < ${RUNS:-3}; i++)); do
  python3 bench/measure.py run "$results" "floor: find | xargs cat" 1 "$count" -- "${floor[@]}"
  for args in "${runs[@]}"; do
    for bin in old new; do
      path=$old
      [[ $bin == new ]] && path=$new
      # shellcheck disable=SC2086 # the arguments are words
      python3 bench/measure.py run "$results" "$bin: validate $args" 1 "$count" -- \
        "$path" validate --no-config $args "$corpus"
    done
  done
done
python3 bench/measure.py report "$results"
