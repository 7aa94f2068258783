#!/usr/bin/env bash
# Runs every fuzz target for SECONDS each (default 60) with cargo-fuzz on a nightly toolchain.
# Usage: bash fuzz/run.sh [SECONDS] [TARGET...]
# New inputs that raise coverage go to fuzz/corpus/TARGET (not committed); a crash is written
# to fuzz/artifacts/TARGET and the run fails. Fix it, then add the input to fuzz/seeds/TARGET,
# where `cargo test --test fuzz_seeds` keeps it fixed on stable.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(skill_file config tool_schema archive signing server fix security)
fi
# Safe Rust needs no AddressSanitizer; debug assertions make integer overflow a crash.
flags=(--sanitizer none --debug-assertions)
cargo +nightly fuzz build "${flags[@]}"
for target in "${targets[@]}"; do
  mkdir -p "fuzz/corpus/$target"
  echo "== fuzz $target for ${seconds}s"
  # `grep` hides libFuzzer's progress lines; the status kept is libFuzzer's. (Read right after
  # the pipeline: behind `|| true` under pipefail, PIPESTATUS was `true`'s and a crash passed.)
  set +e
  cargo +nightly fuzz run "${flags[@]}" "$target" "fuzz/corpus/$target" "fuzz/seeds/$target" fixtures -- \
    -max_total_time="$seconds" -max_len=65536 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    2>&1 | grep -E "^(Done|stat::number_of_executed_units|stat::peak_rss_mb|==|SUMMARY|thread|panicked)|ERROR|Test unit written"
  status=${PIPESTATUS[0]}
  set -e
  if [ "$status" -ne 0 ]; then
    echo "fuzz target $target failed; the input is in fuzz/artifacts/$target/"
    exit 1
  fi
done
echo "fuzz: ${#targets[@]} passed, 0 failed"
