#!/usr/bin/env bash
# `skillc tokens` against Python tiktoken on the same text: equal counts (every skill's L1 entry,
# body and L3 file) and the speed ratio, whole processes, best of 3.
#   bash bench/tokens-python.sh [DIR]   (default: the four repositories of ../shared/corpus/)
# Python tiktoken runs offline from a venv under target/: its rank files are placed in its
# cache under the names it looks for (sha1 of their URL), copied from data/.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
bin="$PWD/target/release/skillc"
venv="$PWD/target/tiktoken-venv"
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/python" -c 'import tiktoken' 2>/dev/null || "$venv/bin/pip" install --quiet tiktoken
export TIKTOKEN_CACHE_DIR="$PWD/target/tiktoken-cache"
mkdir -p "$TIKTOKEN_CACHE_DIR"
for name in o200k_base cl100k_base; do
  key=$(printf '%s' "https://openaipublic.blob.core.windows.net/encodings/$name.tiktoken" | sha1sum | cut -d' ' -f1)
  cp data/$name.tiktoken "$TIKTOKEN_CACHE_DIR/$key"
done

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
if [ $# -ge 1 ]; then
  dir="$1"
else
  tar -xzf ../shared/corpus/public-skills.tar.gz -C "$work"
  dir="$work"
fi

"$bin" tokens --no-config --format json "$dir" >"$work/skillc.json" || true

# What `skillc tokens` counts (each skill's body and L3 text files), counted by Python tiktoken
# in one process: prints [[l2, [l3 tokens or null, ...]], ...] in the report's order.
cat >"$work/count.py" <<'PY'
import json, os, sys
import tiktoken
report, root = json.load(open(sys.argv[1])), sys.argv[2]
e = tiktoken.get_encoding(report["encoding"])
out = []
for s in report["skills"]:
    skill = s["path"] if os.path.exists(s["path"]) else os.path.join(root, s["path"])
    names = [n for n in ("SKILL.md", "skill.md") if os.path.isfile(os.path.join(skill, n))]
    path = os.path.join(skill, names[0]) if os.path.isdir(skill) and names else skill
    if os.path.isfile(skill):
        skill = os.path.dirname(skill)
    lines = open(path, encoding="utf-8").read().split("\n")
    body = ""
    if lines and lines[0].rstrip("\r") == "---":
        for i in range(1, len(lines)):
            if lines[i].rstrip("\r") == "---":
                body = "\n".join(lines[i + 1:])
                break
    l3 = []
    for f in s["l3"]:
        if f["tokens"] is None:
            l3.append(None)
        else:
            text = open(os.path.join(skill, f["path"]), "rb").read().decode("utf-8")
            l3.append(len(e.encode_ordinary(text)))
    out.append([len(e.encode_ordinary(body)), l3])
json.dump(out, sys.stdout)
PY

"$venv/bin/python" - "$bin" "$dir" "$work/skillc.json" "$work/count.py" <<'PY'
import json, subprocess, sys, time
bin_, root, report_path, script = sys.argv[1:5]
report = json.load(open(report_path))
counts = json.loads(subprocess.run([sys.executable, script, report_path, root], capture_output=True,
                                   check=True, text=True).stdout)
mismatch, files, l3_bytes = 0, 0, 0
for s, (l2, l3) in zip(report["skills"], counts):
    if s["l2"] != l2:
        mismatch += 1
        print(f"MISMATCH L2 {s['path']}: skillc {s['l2']}, tiktoken {l2}")
    for f, n in zip(s["l3"], l3):
        files += 1
        if f["tokens"] is not None:
            l3_bytes += f["bytes"]
        if f["tokens"] != n:
            mismatch += 1
            print(f"MISMATCH L3 {s['path']} {f['path']}: skillc {f['tokens']}, tiktoken {n}")
skillc_total = sum(s["l2"] + sum(f["tokens"] or 0 for f in s["l3"]) for s in report["skills"])
python_total = sum(l2 + sum(n or 0 for n in l3) for l2, l3 in counts)
print(f"{len(report['skills'])} skills, {files} L3 files ({l3_bytes / 1e6:.1f} MB of text), {report['encoding']}")
print(f"tokens (L2 + L3): skillc {skillc_total:,}, Python tiktoken {python_total:,}; mismatches: {mismatch}")

def best(cmd):
    times = []
    for _ in range(3):
        t = time.perf_counter(); subprocess.run(cmd, capture_output=True); times.append(time.perf_counter() - t)
    return min(times)

me = best([bin_, "tokens", "--no-config", "--format", "json", root])
py = best([sys.executable, script, report_path, root])
print(f"skillc tokens: {me:.3f} s   Python tiktoken (same counting, one process): {py:.3f} s   ratio {py / me:.1f}x")
sys.exit(1 if mismatch else 0)
PY
