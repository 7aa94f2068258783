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
"$venv/bin/python" - "$bin" "$dir" "$work/skillc.json" <<'PY'
import json, os, subprocess, sys, time
bin_, root, report = sys.argv[1], sys.argv[2], json.load(open(sys.argv[3]))
enc = report["encoding"]

def python_counts():
    """What `skillc tokens` counts, counted by Python tiktoken in one process."""
    import tiktoken
    e = tiktoken.get_encoding(enc)
    out = []
    for s in report["skills"]:
        path = s["path"]
        if not os.path.exists(path):
            path = os.path.join(root, path)
        text = open(path, encoding="utf-8").read()
        lines = text.split("\n")
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
                continue
            data = open(os.path.join(os.path.dirname(path), f["path"]), "rb").read()
            l3.append(len(e.encode_ordinary(data.decode("utf-8"))))
        out.append((len(e.encode_ordinary(body)), l3))
    return out

counts = python_counts()
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
print(f"{len(report['skills'])} skills, {files} L3 files ({l3_bytes / 1e6:.1f} MB of text), {enc}")
print(f"tokens (L2 + L3): skillc {skillc_total:,}, Python tiktoken {python_total:,}; mismatches: {mismatch}")

def best(cmd):
    times = []
    for _ in range(3):
        t = time.perf_counter(); subprocess.run(cmd, capture_output=True); times.append(time.perf_counter() - t)
    return min(times)

me = best([bin_, "tokens", "--no-config", "--format", "json", root])
# Python timed as one process doing the same counting (interpreter, import and ranks load included).
script = os.path.join(os.path.dirname(sys.argv[3]), "count.py")
with open(script, "w") as f:
    f.write("import json, os, sys\nreport = json.load(open(sys.argv[1])); root = sys.argv[2]; enc = report['encoding']\n")
    import inspect
    f.write(inspect.getsource(python_counts))
    f.write("python_counts()\n")
py = best([sys.executable, script, sys.argv[3], root])
print(f"skillc tokens: {me:.3f} s   Python tiktoken: {py:.3f} s   ratio {py / me:.1f}x")
sys.exit(1 if mismatch else 0)
PY
