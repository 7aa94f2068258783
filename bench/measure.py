#!/usr/bin/env python3
"""Measures commands for bench/pipeline.sh (python3 standard library only).

    measure.py run RESULTS LABEL RUNS SKILLS -- CMD...   run CMD RUNS times (stdout and stderr
        to /dev/null); append one JSON line to RESULTS: the minimum over the runs of the wall
        time, of the CPU time (user + sys) and of the peak RSS, every exit code seen, and SKILLS
        (0 for a single skill: its times are shown in ms)
    measure.py summary JSON                              the counts of a `--format json` report
    measure.py report RESULTS                            the Markdown table of RESULTS (rows of
        one label merged: the minimum of each number)

CPU and peak RSS are the child's own rusage from os.wait4, which includes every process it
waited for (find, xargs and cat for the floor): no GNU time, no hyperfine.
"""
import json
import os
import subprocess
import sys
import time


MAIN = "validate --format json"  # the label of the default run, given by pipeline.sh


def once(cmd):
    """Runs cmd once: (wall s, CPU s, peak RSS MB, exit code)."""
    start = time.perf_counter()
    child = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)  # reaped here, not by Popen
    rss = usage.ru_maxrss / (1024 * 1024 if sys.platform == "darwin" else 1024)  # bytes on macOS, KiB on Linux
    return wall, usage.ru_utime + usage.ru_stime, rss, child.returncode


def run(results, label, runs, skills, cmd):
    samples = [once(cmd) for _ in range(int(runs))]
    row = {
        "label": label,
        "skills": int(skills),
        "runs": int(runs),
        "wall": min(s[0] for s in samples),
        "cpu": min(s[1] for s in samples),
        "rss": min(s[2] for s in samples),
        "exit": sorted({s[3] for s in samples}),
    }
    with open(results, "a") as f:
        f.write(json.dumps(row) + "\n")
    shown = f"{row['wall'] * 1000:.1f} ms" if not row["skills"] else f"{row['wall']:.2f} s"
    print(f"  {label}: {shown}, exit {row['exit']}", file=sys.stderr)


def summary(path):
    """One line: what skillc saw and said (the JSON report's summary and its diagnostics)."""
    with open(path, encoding="utf-8") as f:
        report = json.load(f)
    s = report["summary"]
    print(f"{s['skills']} {len(report['diagnostics'])} {s['errors']} {s['warnings']} {s['infos']}")


def report(results):
    # Rows of one label (bench/compare.sh measures each RUNS times, interleaved) are merged:
    # the minimum of each number, every exit code, in the order the labels first appear.
    rows = {}
    for line in open(results):
        r = json.loads(line)
        seen = rows.setdefault(r["label"], r)
        if seen is not r:
            for key in ("wall", "cpu", "rss"):
                seen[key] = min(seen[key], r[key])
            seen["exit"] = sorted(set(seen["exit"]) | set(r["exit"]))
    rows = list(rows.values())
    print("| run | skills | wall | CPU | CPU/wall | peak RSS | skills/s | wall/floor | exit |")
    print("|---|--:|--:|--:|--:|--:|--:|--:|--:|")
    floor = None
    for r in rows:
        ms = not r["skills"]
        wall = f"{r['wall'] * 1000:.1f} ms" if ms else f"{r['wall']:.2f} s"
        cpu = f"{r['cpu'] * 1000:.1f} ms" if ms else f"{r['cpu']:.2f} s"
        rate = "" if ms else f"{r['skills'] / r['wall']:,.0f}"
        if "floor" in r["label"]:
            floor, ratio = r, ""
        else:  # the floor of the same files: the last floor row, when it covers the same skills
            ratio = f"{r['wall'] / floor['wall']:.1f}×" if floor and r["skills"] == floor["skills"] else ""
        exit_codes = ",".join(map(str, r["exit"]))
        label = r["label"].replace("|", "\\|")  # a pipe inside a cell must be escaped
        print(f"| {label} | {r['skills'] or 1:,} | {wall} | {cpu} | {r['cpu'] / r['wall']:.2f} | "
              f"{r['rss']:,.0f} MB | {rate} | {ratio} | {exit_codes} |")
    # Linearity: the default JSON run on the first 1/4 and 1/2 of the owners, and on all of them.
    main = [r for r in rows if r["label"] == MAIN]
    parts = [r for r in rows if r["label"].startswith(MAIN + ", ")] + main
    if len(parts) > 1:
        per = [f"{r['label'][len(MAIN) + 2:] or 'all'} ({r['skills']:,} skills) {r['wall'] / r['skills'] * 1e6:.0f}"
               for r in parts]
        flat = (parts[-1]["wall"] / parts[-1]["skills"]) / (parts[0]["wall"] / parts[0]["skills"])
        print(f"\nLinearity of `{MAIN}`, µs of wall per skill: " + ", ".join(per) + f" (all / first: {flat:.2f})")


def main():
    args = sys.argv[1:]
    if args[:1] == ["run"] and len(args) > 6 and args[5] == "--":
        return run(args[1], args[2], args[3], args[4], args[6:])
    if args[:1] == ["summary"] and len(args) == 2:
        return summary(args[1])
    if args[:1] == ["report"] and len(args) == 2:
        return report(args[1])
    sys.exit(__doc__)


if __name__ == "__main__":
    main()
