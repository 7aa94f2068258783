#!/usr/bin/env python3
"""The latency of `skillc server` (python3 standard library only).

    python3 bench/server.py [--binary PATH] [--runs N]   (default: the repository's
                                                         target/release/skillc, 200 runs)

In a temporary workspace with a typical skill (skills/pdf-tools: ~150 lines, ~6 KB of body, two
links to files that exist and one broken) and a large one (skills/big: a ~40 KB body, so SK402
counts its tokens), it runs the server as an editor does (stdio pipes, Content-Length framing):
    startup      process spawn -> the initialize result
    first lint   a document's didOpen -> its publishDiagnostics (lazy set-up included)
    change       didChange (full text; a word added, then removed) -> the publishDiagnostics for
                 that version (or the next for the document, if unversioned); N per document.
                 In `typical` and `big` the word is in the body; in `fields` (a third skill) it is
                 in the description, so the collection rules (SK501-SK504) run again each time,
                 over every skill of the workspace (--workspace DIR: lint among DIR's skills)
and prints min, median, p95 and max, the diagnostic codes published (so one sees the lint ran),
and the exit code after shutdown and exit (0 expected). A reader thread stamps each message as
it arrives. Other work on the machine skews every number: the load average is printed too.

    python3 bench/server.py --burst [--binary PATH]

measures instead what a busy editor costs the server (issue 35):
    saves        a workspace of 3,000 skills, one open; 300 didSave sent at once, then a hover on
                 `name`: the hover's latency (send -> result) and the most threads the process
                 had (/proc/PID/task, sampled every 10 saves, then every 10 ms until 5 s after
                 the hover result arrived, while the scans the saves called for run)
    globs        a skillc.toml of 10,000 `exclude` globs; 200 codeAction requests on one line of
                 an open skill (an editor sends one on every cursor move): their latency
"""
import argparse
import json
import math
import os
import queue
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

TIMEOUT = 60  # seconds to wait for any one message

SYLLABLES = "ka ro mi te sul van dor pex qui lo ny zet ar".split()
WORDS = ("page form field table image font outline layer annotation signature stream object "
         "metadata encryption bookmark attachment").split()


def typical(extra):
    """The body of skills/pdf-tools; `extra` is a word added to its first paragraph (or "")."""
    lines = ["# PDF tools", "",
             f"Reads, fills and merges PDF files{extra}. Every task below runs one command of the",
             "bundled runner; the API reference lists each option in detail.", "",
             "## Quick start", "", "```bash",
             "python scripts/run.py extract report.pdf --out report.txt",
             "python scripts/run.py fill form.pdf --data values.json --out filled.pdf",
             "python scripts/run.py merge a.pdf b.pdf --out both.pdf", "```", "",
             "See [the API reference](references/api.md) for every option and",
             "[the runner](scripts/run.py) for its entry point.", ""]
    tasks = ["Extract text", "Extract tables", "Fill a form", "Flatten a form", "Merge files",
             "Split a file", "Rotate pages", "Add a watermark", "Compress", "Read metadata",
             "Encrypt", "Check signatures", "Redact"]
    for i, task in enumerate(tasks):
        a, b = WORDS[i % len(WORDS)], WORDS[(i + 5) % len(WORDS)]
        lines += [f"## {task}", "",
                  f"To {task.lower()}, open the file with the runner and name each {a} you need;",
                  f"the runner keeps every {b} it does not touch exactly as it was.", "",
                  f"1. Run `python scripts/run.py {task.lower().replace(' ', '-')} input.pdf`.",
                  f"2. Check the {a} count it prints against the original file.",
                  f"3. When the {b} is missing, rerun with `--verbose` and read the log.",
                  "4. Keep the output beside the input until the user has checked it.", ""]
    lines += ["## Troubleshooting", "",
              "Scanned documents have no text layer: run OCR first, as the",
              "[old guide](references/ocr.md) explains, then extract again.", ""]
    return "\n".join(lines)


def big(extra):
    """The body of skills/big: ~40 KB in ~490 lines (SK401 fires over 500), ~11,700 tokens. Made-up
    identifiers and numbers keep the tokenizer from seeing only common words."""
    rng = random.Random(1)  # the same text every call: the variants differ only by `extra`
    name = lambda: "_".join("".join(rng.choices(SYLLABLES, k=rng.randint(1, 3))) for _ in "ab")
    lines = ["# Big reference", "", f"Everything about the format in one file{extra}.", ""]
    for i in range(27):
        w, n = rng.sample(WORDS, 6), [name() for _ in range(3)]
        lines += [f"## Part {i}: the {w[0]} and the {w[1]}", "",
                  f"The {w[0]} relates to its {w[1]} through `{n[0]}`: when the {w[2]} may hold "
                  f"the {w[3]}, a reader checks the {w[4]} before the {w[5]}, then calls "
                  f"`{n[1]}` once per {w[1]}. Skipping that check leaves the {w[3]} out of date, "
                  f"and a later `{n[2]}` reads the old {w[4]} without any error.", "",
                  f"In practice the {w[5]} of each {w[0]} changes rarely, so `{n[1]}` may keep its "
                  f"result for the whole session: call `{n[0]}.reset()` after the user edits the "
                  f"{w[2]} or replaces the {w[3]}, and report each {w[4]} it could not read with "
                  f"its page number ({rng.randint(1, 500)} of {rng.randint(500, 900)} here) so "
                  "that the user can fix the source file before running the task again.", "",
                  f"Settings of the {w[0]}: " + ", ".join(f"`{name()}` ({rng.choice(WORDS)}, "
                  f"default {rng.randint(0, 4096)})" for _ in range(12)) + ".", "",
                  "```python", f"{n[0]} = load({w[0]!r}, offset=0x{rng.getrandbits(32):08x})",
                  f"for item in {n[0]}.{w[1]}s:", f"    {n[1]}(item, limit={rng.randint(1, 9999)})",
                  f"{n[2]}({n[0]}, strict=True)", "```", ""]
        lines += [f"- Every {w[0]} is read once, then kept for 2 pages at most.",
                  f"- Every {w[1]} is read once, then kept for 3 pages at most.", ""]
    return "\n".join(lines)


def skill_file(name, description, body):
    return f"---\nname: {name}\ndescription: {description}\nlicense: MIT\n---\n\n{body}"


def write(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


class Server:
    def __init__(self, binary, cwd):
        self.messages = queue.Queue()
        self.next_id = 0
        self.spawned = time.perf_counter()
        self.proc = subprocess.Popen([binary, "server"], cwd=cwd, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        threading.Thread(target=self.read, daemon=True).start()

    def read(self):
        """Puts (arrival time, message) on the queue for every framed message; None at the end."""
        out = self.proc.stdout
        while True:
            length = None
            while (line := out.readline()) not in (b"\r\n", b"\n", b""):
                name, _, value = line.decode("ascii").partition(":")
                if name.strip().lower() == "content-length":
                    length = int(value)
            if not line or length is None:
                break
            body = out.read(length)
            self.messages.put((time.perf_counter(), json.loads(body)))
        self.messages.put(None)

    def send(self, message):
        """Writes one message: the time just before it was written."""
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        sent = time.perf_counter()
        try:
            self.proc.stdin.write(b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
            self.proc.stdin.flush()
        except BrokenPipeError:
            self.gone()
        return sent

    def gone(self):
        sys.exit(f"the server ended early (exit code {self.proc.wait(timeout=TIMEOUT)})")

    def request(self, method, params):
        self.next_id += 1
        self.send({"id": self.next_id, "method": method, "params": params})
        return self.wait(lambda m: m.get("id") == self.next_id and "method" not in m)

    def notify(self, method, params):
        return self.send({"method": method, "params": params})

    def wait(self, wanted):
        """The first message `wanted` accepts, with its arrival time (others are dropped)."""
        while True:
            try:
                item = self.messages.get(timeout=TIMEOUT)
            except queue.Empty:
                sys.exit(f"no message from the server in {TIMEOUT} s")
            if item is None:
                self.gone()
            if wanted(item[1]):
                return item

    def diagnostics(self, uri, version):
        """(arrival time, diagnostic codes) of the publishDiagnostics for uri at version (the next
        one for uri when the server does not say the version)."""
        at, m = self.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                          and m["params"]["uri"] == uri
                          and m["params"].get("version") in (None, version))
        return at, [d.get("code", "?") for d in m["params"]["diagnostics"]]


def threads(pid):
    """How many threads process `pid` has (0 where /proc is not)."""
    try:
        return len(os.listdir(f"/proc/{pid}/task"))
    except OSError:
        return 0


def summary(t):
    """min, median, p95 and max of the times `t` (ms)."""
    t = sorted(t)
    p95 = t[math.ceil(0.95 * len(t)) - 1]
    return (f"min {t[0]:.1f}  median {statistics.median(t):.1f}  p95 {p95:.1f}  "
            f"max {t[-1]:.1f} ms")


def start(binary, root):
    """A server initialized in `root`."""
    server = Server(binary, root)
    server.request("initialize", {"processId": os.getpid(), "rootUri": root.as_uri(),
                   "capabilities": {"general": {"positionEncodings": ["utf-16"]}}})
    server.notify("initialized", {})
    return server


def stop(server):
    """Shuts the server down: its exit code."""
    server.request("shutdown", None)
    server.notify("exit", None)
    server.proc.stdin.close()
    try:
        return server.proc.wait(timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        server.proc.kill()
        return "none (killed after %d s)" % TIMEOUT


def burst(binary):
    """The `--burst` scenarios: 300 saves on 3,000 skills then a hover; code actions under a
    10,000-glob config."""
    load_start = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp).resolve()
        (root / ".git").mkdir()
        for i in range(3000):
            write(root / "skills" / f"s{i:04}" / "SKILL.md",
                  skill_file(f"s{i:04}", f"Handles task {i}. Use when the user asks for task {i}.",
                             f"# Task {i}\n\nDo task {i} with [the notes](references/notes.md).\n"))
        text = skill_file("pdf-tools", "Reads, fills and merges PDF files. Use when the user asks "
                          "to fill a form.", typical(""))
        uri = write(root / "skills/pdf-tools/SKILL.md", text).as_uri()
        server = start(binary, root)
        server.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "markdown", "version": 1, "text": text}})
        server.diagnostics(uri, 1)
        pid, most = server.proc.pid, threads(server.proc.pid)
        saves_sent = time.perf_counter()
        for i in range(300):
            server.notify("textDocument/didSave", {"textDocument": {"uri": uri}})
            if i % 10 == 0:
                most = max(most, threads(pid))
        saves_took = time.perf_counter() - saves_sent
        server.next_id += 1
        sent = server.send({"id": server.next_id, "method": "textDocument/hover", "params": {
            "textDocument": {"uri": uri}, "position": {"line": 1, "character": 2}}})
        while True:  # threads sampled while the hover is waited for
            most = max(most, threads(pid))
            try:
                at, m = server.messages.get(timeout=0.01)
            except queue.Empty:
                if time.perf_counter() - sent > TIMEOUT:
                    sys.exit(f"no hover in {TIMEOUT} s")
                continue
            if m.get("id") == server.next_id and "method" not in m:
                break
        hover = (at - sent) * 1000
        while time.perf_counter() - at < 5:  # and while the scans the saves called for run
            most = max(most, threads(pid))
            time.sleep(0.01)
        said = (m.get("result") or {}).get("contents", {}).get("value", "").split("\n")[0]
        code_saves = stop(server)

        globs = "".join(f'  "generated-{i}/*.tmp",\n' for i in range(10000))
        write(root / "skillc.toml", f"exclude = [\n{globs}]\n")
        server = start(binary, root)
        server.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "markdown", "version": 1, "text": text}})
        _, codes = server.diagnostics(uri, 1)
        if "SK404" not in codes:  # the broken link of typical(): else the config did not load
            sys.exit(f"the server did not lint under the 10,000-glob config: {codes}")
        times = []
        for i in range(200):
            position = {"line": 1 + i % 3, "character": i % 7}
            server.next_id += 1
            sent = server.send({"id": server.next_id,
                                "method": "textDocument/codeAction", "params": {
                                    "textDocument": {"uri": uri},
                                    "range": {"start": position, "end": position},
                                    "context": {"diagnostics": []}}})
            at, _ = server.wait(lambda m: m.get("id") == server.next_id and "method" not in m)
            times.append((at - sent) * 1000)
        code_globs = stop(server)
    load_end = os.getloadavg()
    print(f"saves  3,000 skills, 300 didSave sent in {saves_took * 1000:.0f} ms: hover answered "
          f"in {hover:.1f} ms ({said!r}); at most {most} threads; exit code {code_saves}")
    print(f"globs  10,000 exclude globs: codeAction ×{len(times)}: {summary(times)}  "
          f"(diagnostics: {', '.join(codes) or 'none'}); exit code {code_globs}")
    print(f"load average {load_start[0]:.2f} → {load_end[0]:.2f}")
    return 0 if code_saves == 0 and code_globs == 0 else 1


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    repo = Path(__file__).resolve().parents[1]
    parser.add_argument("--binary", default=repo / "target/release/skillc")
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--workspace", type=Path, help="lint among the skills of this folder "
                        "(the two skills are written into DIR/zz-skillc-bench and removed after)")
    parser.add_argument("--settle", type=float, default=0.0, help="seconds to wait after the "
                        "first open, for the server's scan of a large workspace to end")
    parser.add_argument("--burst", action="store_true", help="measure a burst of saves on "
                        "3,000 skills and code actions under 10,000 globs instead")
    args = parser.parse_args()
    binary = os.path.abspath(args.binary)
    if not os.access(binary, os.X_OK):
        sys.exit(f"not an executable: {binary} (cargo build --release)")
    if args.burst:
        return burst(binary)

    with tempfile.TemporaryDirectory() as tmp:
        root = args.workspace.resolve() if args.workspace else Path(tmp).resolve()
        where = root / "zz-skillc-bench" if args.workspace else root
        if args.workspace and where.exists():
            sys.exit(f"{where} exists: remove it first")
        files = {}  # label -> (uri, the two texts, body size)
        for label, name, description, body in [
            ("typical", "pdf-tools", "Reads, fills and merges PDF files. Use when the user asks to "
             "extract text or tables from a PDF, fill a form or merge files.", typical),
            ("big", "big", "Explains the format in depth. Use when the user asks how a part of the "
             "format works.", big),
            ("fields", "pdf-forms", "Fills PDF forms. Use when the user asks to fill a form.",
             typical)]:
            variants = [skill_file(name, description, body(x)) for x in ("", " quickly")]
            if label == "fields":  # the description changes: the collection rules run again
                variants = [skill_file(name, description + x, body("")) for x in ("", " Fast.")]
            files[label] = (write(where / "skills" / name / "SKILL.md", variants[0]).as_uri(),
                            variants, len(body("").encode()))
        write(where / "skills/pdf-tools/references/api.md", "# API\n\nEvery option.\n")
        write(where / "skills/pdf-tools/scripts/run.py", "print('run')\n")

        load_start = os.getloadavg()
        server = Server(binary, root)
        at, _ = server.request("initialize", {"processId": os.getpid(), "rootUri": root.as_uri(),
                               "capabilities": {"general": {"positionEncodings": ["utf-16"]}}})
        startup = at - server.spawned
        server.notify("initialized", {})

        rows = []
        for label, (uri, variants, size) in files.items():
            sent = server.notify("textDocument/didOpen", {"textDocument": {
                "uri": uri, "languageId": "markdown", "version": 1, "text": variants[0]}})
            at, codes = server.diagnostics(uri, 1)
            first, seen, times = at - sent, set(codes), []
            if label == "typical" and args.settle:
                time.sleep(args.settle)
            for version in range(2, args.runs + 2):
                sent = server.notify("textDocument/didChange", {
                    "textDocument": {"uri": uri, "version": version},
                    "contentChanges": [{"text": variants[(version + 1) % 2]}]})
                at, codes = server.diagnostics(uri, version)
                times.append((at - sent) * 1000)
                seen.update(codes)
            rows.append((label, size, first * 1000, sorted(times), sorted(seen)))

        server.request("shutdown", None)
        server.notify("exit", None)
        server.proc.stdin.close()
        try:
            code = server.proc.wait(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            server.proc.kill()
            code = "none (killed after %d s)" % TIMEOUT
        load_end = os.getloadavg()
        if args.workspace:
            shutil.rmtree(where)

    print(f"startup (spawn → initialize result)  {startup * 1000:.1f} ms")
    for label, size, first, t, codes in rows:
        p95 = t[math.ceil(0.95 * len(t)) - 1]
        print(f"{label:8} body {size / 1024:4.1f} KB  first lint {first:5.1f} ms   "
              f"change ×{len(t)}: min {t[0]:.1f}  median {statistics.median(t):.1f}  "
              f"p95 {p95:.1f}  max {t[-1]:.1f} ms  (diagnostics: {', '.join(codes) or 'none'})")
    print(f"exit code {code}{'' if code == 0 else '  (expected 0)'}; "
          f"load average {load_start[0]:.2f} → {load_end[0]:.2f}")
    return 0 if code == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
