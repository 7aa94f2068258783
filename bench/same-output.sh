#!/usr/bin/env bash
# Proves a change kept skillc's outputs: runs two binaries over the fixtures, the shared corpus
# and a generated registry in every machine-read format and diffs what they print (stdout,
# stderr and exit code) byte for byte, the security rules' included.
#   bash bench/same-output.sh OLD NEW [SKILLS]      (SKILLS: the generated registry's size,
#                                                    default 3000; 0 skips it)
# Environment: FULL=1 also compares the `full` format (a renderer change differs there on
# purpose: the differences are then listed, not failed). Exit 0 when every output is the same.
set -euo pipefail
[[ $# -ge 2 ]] || { sed -n 2,8p "$0" >&2; exit 2; }
old="$(realpath "$1")"
new="$(realpath "$2")"
cd "$(dirname "$0")/.."
count="${3:-3000}"
work="$PWD/target/same-output"
rm -rf "$work" && mkdir -p "$work/old" "$work/new"

trees=()
for case in fixtures/err/*/ fixtures/ok; do trees+=("${case%/}"); done
corpus="$PWD/target/corpus"
if [[ ! -d "$corpus" && -f ../shared/corpus/public-skills.tar.gz ]]; then
  mkdir -p "$corpus" && tar -xzf ../shared/corpus/public-skills.tar.gz -C "$corpus"
fi
[[ -d "$corpus" ]] && for repo in "$corpus"/*/; do trees+=("${repo%/}"); done
if [[ "$count" -gt 0 ]]; then
  registry="$PWD/target/bench/registry-$count-s1"
  python3 bench/registry.py "$registry" "$count" 1 > /dev/null
  trees+=("$registry")
fi

commands=(
  "validate --format json"
  "validate --format concise"
  "validate --format github"
  "validate --format sarif"
  "validate --statistics"
  "validate --extend-select security --format json"
  "tokens --format json"
  "list --format json"
)
[[ -n "${FULL:-}" ]] && commands+=("validate --format full --color never")

run() {  # side bin tree index command...
  local side="$1" bin="$2" tree="$3" i="$4"
  shift 4
  local dir
  dir="$tree"
  # Fixtures run from inside the case, as tests/fixtures.rs does (their args.txt aside).
  (cd "$dir" && "$bin" "$@" . > "$work/$side/$i.out" 2> "$work/$side/$i.err"; echo "exit $?" >> "$work/$side/$i.err") || true
}

i=0
different=0
for tree in "${trees[@]}"; do
  for command in "${commands[@]}"; do
    i=$((i + 1))
    # shellcheck disable=SC2086
    run old "$old" "$tree" "$i" $command
    # shellcheck disable=SC2086
    run new "$new" "$tree" "$i" $command
    if ! cmp -s "$work/old/$i.out" "$work/new/$i.out" || ! cmp -s "$work/old/$i.err" "$work/new/$i.err"; then
      different=$((different + 1))
      echo "DIFFERENT: $command on $tree (target/same-output/{old,new}/$i.*)"
      if [[ "$command" == *full* ]]; then
        diff "$work/old/$i.out" "$work/new/$i.out" | head -20 || true
      fi
    fi
  done
done
echo "$i outputs compared, $different different"
[[ "$different" -eq 0 ]]
