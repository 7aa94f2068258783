#!/usr/bin/env python3
"""Parity harness: skillc versus the reference validator skills-ref (0.1.1).

Usage:
    python3 tests/parity/parity.py SKILLC_BINARY [--cases N] [--seed S] [--jobs J] [--keep]
                                                 [--verbose]

Requires the `skills_ref` package (pip install skills-ref==0.1.1), which brings strictyaml.

The harness generates a deterministic (seeded) set of Agent Skills test skills in a temporary
directory, one per case: <tmp>/<case-id>/<dirname>/SKILL.md. It validates every case with
skills-ref's Python API and with `skillc validate --no-config --format json --dialect
agentskills` (one run per case, cwd = the case directory), and checks that every rejection by
skills-ref for a reason the Agent Skills specification states maps to a skillc diagnostic of
severity `error` with a matching code.

Cases where the two disagree only because of a DOCUMENTED deliberate difference (UTF-8 BOM,
YAML features that only strictyaml rejects such as flow style, tags and anchors, `---` inside a
longer line, empty frontmatter) are not counted: they are listed as documented differences.
Cases that skillc rejects but skills-ref accepts are listed for information only.

Output ends with the line `parity: N passed, M failed`; the exit status is 1 when M > 0.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import unicodedata
from collections import Counter, defaultdict
from pathlib import Path

try:
    import strictyaml
    from skills_ref.validator import validate as skills_ref_validate
except ImportError as exc:  # pragma: no cover - environment problem
    sys.stderr.write(
        f"parity.py: cannot import skills_ref ({exc}); install it with "
        "`pip install skills-ref==0.1.1`\n"
    )
    sys.exit(2)

try:  # strictyaml vendors ruamel.yaml (a YAML 1.2 parser); used to spot strictyaml-only errors
    from strictyaml.ruamel import YAML as _RuamelYAML
except ImportError:  # pragma: no cover
    _RuamelYAML = None


# --------------------------------------------------------------------------------------------
# Value pools
# --------------------------------------------------------------------------------------------

WORDS = [
    "pdf", "tools", "data", "report", "git", "review", "sql", "chart", "deploy", "docs",
    "api", "lint", "test", "image", "audio", "notes", "search", "excel", "slack", "code",
    "build", "query", "parse", "email", "cloud", "log", "trace", "plan", "form", "scan",
]

# Description vocabulary: letters only (no YAML indicators, no hyphens, so never `---`).
DESC_ASCII = [
    "use", "when", "the", "user", "asks", "to", "extract", "text", "from", "files", "and",
    "summarise", "results", "for", "reports", "converts", "tables", "into", "charts", "with",
    "clean", "output", "handles", "large", "documents", "quickly", "reliably", "also", "merge",
]
DESC_MULTI = [
    "données", "résumé", "straße", "日本語", "技能", "スキル", "한국어", "ελληνικά", "кириллица",
    "हिंदी", "😀", "café", "naïve", "ñandú", "𝔘𝔫𝔦", "Ωmega", "çà", "東京",
]

# Unicode names: (name, note). Directory variants are derived from them.
UNICODE_NAMES = [
    "café", "straße", "ß", "技能", "日本語-スキル", "한국어", "ελληνικά", "ς-sigma", "кириллица",
    "КИРИЛЛИЦА", "Кириллица", "Ελληνικά", "ΣΚΙΛΛ", "हिंदी", "कि", "कि-tool", "तमिल", "தமிழ்",
    "ไทย", "ที่", "עברית", "عربي", "ＰＤＦ", "ｐｄｆ", "ｐｄｆ-ｔｏｏｌｓ", "Ｐdf", "ﬁle", "ﬁle-tool",
    "ﬀ", "ﬃx", "x²", "²", "h₂o", "ⅻ", "Ⅻ", "ⅻ-tool", "Ⅻ-tool", "①", "½", "ǅ", "ǆ", "ʰi",
    "ªb", "İstanbul", "ıi", "nai\u0308ve", "a\u0301", "cafe\u0301", "emoji-😀", "a·b", "a–b",
    "a‐b", "a\u00adb", "a\u200db", "a\u200bb", "Ⓐ", "ⓐ", "ℌ", "ℓ", "µ", "\u212a", "ſ", "٣",
    "١٢٣", "१२३", "ǈ", "ᾈ", "ﬆ", "㎒", "㍿", "ﾃｽﾄ", "ａ－ｂ", "ａ＿ｂ", "pdf\u3000tools",
    "Ǳ", "ǳ", "ꭰ", "Ꭰ", "𝐚𝐛𝐜", "𝐀𝐁𝐂", "ⅰⅱ", "ⅠⅡ", "é" * 32, "技" * 64, "技" * 65,
    "é" * 65, "ﬁ" * 32, "ﬁ" * 33, "ﬁ" * 64, "㎒" * 30, "ǆ" * 40,
    # marks that are Unicode Alphabetic/Lowercase but not str.isalnum()
    "a\u0345", "\u0345", "x\u0301", "q\u0307-tool", "عَرَبِي", "שָׁלוֹם",
    # NFKC creates hyphen problems or spaces
    "－pdf", "pdf－", "pdf－－tools", "pdf﹣﹣tools", "pdf-－tools", "pdf\u00a0tools", "pdf\u2002tools",
    "Ა", "ẞ", "🅐", "ǅ-tool",
]

BAD_ASCII_NAMES = [
    "PDF", "Pdf-tools", "pdfTools", "pdf-Tools", "ALLCAPS", "pdf_tools", "_pdf", "pdf tools",
    "pdf  tools", "pdf.tools", "v1.2", "pdf.", ".pdf", "-pdf", "pdf-", "-pdf-", "-", "--",
    "pdf--tools", "a--b--c", "--pdf", "pdf--", "pdf/tools", "pdf@tools", "pdf+tools",
    "pdf~tools", "pdf$", "pdf(1)", "pdf,tools", "pdf;tools", "pdf=tools", "pdf%20", "a" * 65,
    "a" * 100, "ab-" * 22, "Pdf_Tools.v2", "pdf\\tools",
]

UNKNOWN_KEYS = [
    "version", "author", "tags", "argument-hint", "model", "Name", "Description", "descripton",
    "allowed_tools", "x-foo", "schema-version", "license-file", "user-invocable", "hooks",
    "title", "compat", "requires", "metadata2", "NAME", "disable-model-invocation",
]

ALLOWED_TOOLS_STRINGS = ["Read Grep", "Bash(git:*) Read", "Read", "Read, Grep", "Bash Write Edit"]

# YAML 1.2 core-schema plain scalars that are not strings (non-string names/descriptions).
NON_STRING_PLAIN = ["123", "1.5", "true", "false", "True", "FALSE", "null", "Null", "~", "0x1F",
                    "1e3", "-7", ".inf"]


# --------------------------------------------------------------------------------------------
# YAML rendering helpers
# --------------------------------------------------------------------------------------------

_INDICATORS = set("-?:,[]{}#&*!|>'\"%@`")


def _is_core_special(s: str) -> bool:
    """True if a plain scalar `s` would not be a string under the YAML 1.2 core schema (or
    would be a YAML 1.1 bool), so it must be quoted to stay a string."""
    import re

    low = s.lower()
    if low in {"true", "false", "null", "~", "yes", "no", "on", "off", "y", "n", ""}:
        return True
    if re.fullmatch(r"[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?", s):
        return True
    if re.fullmatch(r"0x[0-9a-fA-F]+|0o[0-7]+|[-+]?\.(inf|Inf|INF)|\.(nan|NaN|NAN)", s):
        return True
    return False


def plain_ok(s: str) -> bool:
    if not s or s != s.strip(" \t") or s != s.strip():
        return False
    if s[0] in _INDICATORS and not (s[0] == "-" and len(s) > 1 and s[1] not in " \t"):
        return False
    if s[0] in "?:" or s.startswith("- "):
        return False
    if any(ch in s for ch in ":#\t\n\r,[]{}\"'\\&*!|>%@`"):
        return False
    if "---" in s or _is_core_special(s):
        return False
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp", "Co", "Cs") for ch in s):
        return False
    if any(unicodedata.category(ch) == "Zs" and ch != " " for ch in s):
        return False
    return True


def dq(s: str) -> str:
    out = []
    for ch in s:
        if ch == "\\":
            out.append("\\\\")
        elif ch == '"':
            out.append('\\"')
        elif ch == "\t":
            out.append("\\t")
        elif ch == "\n":
            out.append("\\n")
        elif unicodedata.category(ch) in ("Cc", "Zl", "Zp") or ch in "\u00ad\u200b\u200d\ufeff":
            out.append("\\u%04x" % ord(ch))
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def sq(s: str) -> str:
    return "'" + s.replace("'", "''") + "'"


def scalar(rng: random.Random, s: str, allow_plain: bool = True) -> str:
    """Render a string as a YAML scalar (plain when safe, else quoted)."""
    styles = ["dq"]
    if not any(ch in s for ch in "\n\t") and not any(
        unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp") for ch in s
    ):
        styles.append("sq")
    if allow_plain and plain_ok(s):
        styles += ["plain", "plain"]
    style = rng.choice(styles)
    if style == "plain":
        return s
    if style == "sq":
        return sq(s)
    return dq(s)


def text_of_length(rng: random.Random, n: int, multibyte: bool) -> str:
    """A single-line text of exactly n code points, no leading/trailing space, letters only."""
    if n <= 0:
        return ""
    vocab = DESC_ASCII + (DESC_MULTI * 2 if multibyte else [])
    parts: list[str] = []
    total = 0
    while total < n + 1:
        w = rng.choice(vocab)
        parts.append(w)
        total += len(w) + 1
    s = " ".join(parts)[:n]
    if s.endswith(" "):
        s = s[:-1] + "x"
    assert len(s) == n
    return s


def wrap_words(s: str, width: int = 70) -> list[str]:
    """Split s at single spaces into lines (no space at a line edge); joining the lines with a
    space gives back s."""
    lines: list[str] = []
    cur = ""
    for w in s.split(" "):
        if cur and len(cur) + 1 + len(w) > width:
            lines.append(cur)
            cur = w
        else:
            cur = w if not cur else cur + " " + w
    lines.append(cur)
    return lines


def text_value(rng: random.Random, key: str, n: int, multibyte: bool) -> tuple[list[str], int]:
    """YAML lines `key: ...` holding a text whose parsed value has exactly n code points.
    Returns (lines, parsed length). Styles: plain, quoted, folded/literal block scalars,
    plain multi-line."""
    style = rng.choice(["plain", "dq", "sq", "folded", "literal", "literal-keep", "folded-keep",
                        "plain-ml"])
    if n <= 0:
        return [f"{key}: " + rng.choice(['""', "''"])], 0
    if style in ("folded", "literal", "plain-ml"):
        s = text_of_length(rng, n, multibyte)
        lines = wrap_words(s)
        if len(lines) < 2 or any(not ln for ln in lines):
            return [f"{key}: {dq(s)}"], n
        if style == "folded":
            return [f"{key}: >-"] + ["  " + ln for ln in lines], n
        if style == "plain-ml" and plain_ok(lines[0]) and all(plain_ok(ln) for ln in lines):
            return [f"{key}: {lines[0]}"] + ["  " + ln for ln in lines[1:]], n
        if style == "plain-ml":
            return [f"{key}: {dq(s)}"], n
        return [f"{key}: |-"] + ["  " + ln for ln in lines], n  # "\n" replaces " ": same length
    if style in ("literal-keep", "folded-keep"):  # `|` / `>` keep one final newline
        if n < 2:
            return [f"{key}: {dq(text_of_length(rng, n, multibyte))}"], n
        s = text_of_length(rng, n - 1, multibyte)
        indicator = "|" if style == "literal-keep" else ">"
        return [f"{key}: {indicator}"] + ["  " + ln for ln in wrap_words(s)], n
    s = text_of_length(rng, n, multibyte)
    if style == "plain" and plain_ok(s):
        return [f"{key}: {s}"], n
    if style == "sq":
        return [f"{key}: {sq(s)}"], n
    return [f"{key}: {dq(s)}"], n


def valid_name(rng: random.Random, max_words: int = 3) -> str:
    words = rng.sample(WORDS, rng.randint(1, max_words))
    name = "-".join(words)
    if rng.random() < 0.15:
        name += str(rng.randint(1, 99))
    return name


def fs_ok(dirname: str) -> bool:
    return (
        bool(dirname)
        and dirname not in (".", "..")
        and "/" not in dirname
        and "\0" not in dirname
        and len(dirname.encode("utf-8")) <= 255
    )


def nfkc(s: str) -> str:
    return unicodedata.normalize("NFKC", s)


# --------------------------------------------------------------------------------------------
# Case model
# --------------------------------------------------------------------------------------------


class Case:
    def __init__(self, category: str, dirname: str, content: str | None,
                 filename: str = "SKILL.md", newline: str = "\n",
                 extra_files: dict[str, str] | None = None):
        assert fs_ok(dirname), dirname
        self.category = category
        self.dirname = dirname
        self.content = content  # None: no skill file at all
        self.filename = filename
        self.newline = newline
        self.extra_files = extra_files or {}
        self.id = ""
        # results
        self.ref_errors: list[str] | None = None
        self.ref_crash: str | None = None
        self.skillc: dict | None = None
        self.skillc_problem: str | None = None

    @property
    def raw(self) -> str | None:
        if self.content is None:
            return None
        return self.content.replace("\n", self.newline)


def frontmatter_file(fm_lines: list[str], body: str = "Instructions here.\n",
                     closing: str = "---") -> str:
    text = "---\n" + "".join(ln + "\n" for ln in fm_lines) + closing + "\n"
    return text + body


def random_body(rng: random.Random) -> str:
    choice = rng.random()
    if choice < 0.1:
        return ""
    if choice < 0.2:
        return "\n"
    lines = ["# Skill", "", "Follow these steps.", "", "1. Read the input.", "2. Write output."]
    return "\n".join(lines[: rng.randint(1, len(lines))]) + "\n"


def skill(rng: random.Random, category: str, dirname: str, *,
          name_lines: list[str] | None, desc_lines: list[str] | None,
          other: list[list[str]] | None = None, shuffle: bool | None = None,
          crlf: bool | None = None, filename: str | None = None) -> Case:
    """Assemble a skill from field blocks (each a list of YAML lines)."""
    blocks: list[list[str]] = []
    if name_lines is not None:
        blocks.append(name_lines)
    if desc_lines is not None:
        blocks.append(desc_lines)
    blocks += other or []
    if shuffle is None:
        shuffle = rng.random() < 0.3
    if shuffle:
        rng.shuffle(blocks)
    fm = [ln for b in blocks for ln in b]
    closing = "---" + (" " * rng.randint(1, 3) if rng.random() < 0.05 else "")
    content = frontmatter_file(fm, random_body(rng), closing)
    if crlf is None:
        crlf = rng.random() < 0.1
    if filename is None:
        filename = "skill.md" if rng.random() < 0.04 else "SKILL.md"
    return Case(category, dirname, content, filename=filename, newline="\r\n" if crlf else "\n")


def good_desc(rng: random.Random) -> list[str]:
    n = rng.choice([1, 5, 20, 40, 80, 200, 500, 1000, 1024])
    lines, _ = text_value(rng, "description", n, rng.random() < 0.4)
    return lines


def name_field(rng: random.Random, name: str) -> list[str]:
    return [f"name: {scalar(rng, name)}"]


def optional_fields(rng: random.Random, valid_only: bool = False) -> list[list[str]]:
    out: list[list[str]] = []
    if rng.random() < 0.3:
        out.append([f"license: {scalar(rng, rng.choice(['MIT', 'Apache-2.0', 'Proprietary']))}"])
    if rng.random() < 0.25:
        n = rng.choice([1, 30, 120, 499, 500]) if valid_only else rng.choice(
            [1, 30, 120, 499, 500, 501, 600])
        lines, _ = text_value(rng, "compatibility", n, rng.random() < 0.4)
        out.append(lines)
    if rng.random() < 0.25:
        md = ["metadata:"]
        for k in rng.sample(["author", "version", "team", "source", "owner"], rng.randint(1, 3)):
            v = rng.choice(["example-org", "1.0", "platform", "docs team"])
            md.append(f"  {k}: {scalar(rng, v)}")
        out.append(md)
    if rng.random() < 0.2:
        if rng.random() < 0.6:
            out.append([f"allowed-tools: {scalar(rng, rng.choice(ALLOWED_TOOLS_STRINGS))}"])
        else:
            out.append(["allowed-tools:"] + [f"  - {t}" for t in rng.sample(
                ["Read", "Grep", "Bash", "Write"], rng.randint(1, 3))])
    return out


# --------------------------------------------------------------------------------------------
# Case generation
# --------------------------------------------------------------------------------------------


def fixed_cases(rng: random.Random) -> list[Case]:
    cases: list[Case] = []

    def add(c: Case) -> None:
        cases.append(c)

    # ---- valid skills --------------------------------------------------------------------
    for _ in range(30):
        n = valid_name(rng)
        add(skill(rng, "valid", n, name_lines=name_field(rng, n), desc_lines=good_desc(rng),
                  other=optional_fields(rng, valid_only=True)))
    for n in ["a", "a" * 64, "x1", "123abc", "a-b-c-d", "v2-api", "0"]:
        add(skill(rng, "valid", n, name_lines=name_field(rng, n), desc_lines=good_desc(rng)))
    add(skill(rng, "valid-crlf", "crlf-skill", name_lines=["name: crlf-skill"],
              desc_lines=good_desc(rng), crlf=True))
    add(skill(rng, "valid-lowercase-file", "lower-file", name_lines=["name: lower-file"],
              desc_lines=good_desc(rng), filename="skill.md"))
    add(Case("valid-no-body", "no-body", "---\nname: no-body\ndescription: Use when testing\n---\n"))
    add(Case("valid-no-body", "no-body-eof", "---\nname: no-body-eof\ndescription: Use when x\n---"))
    add(Case("valid-comments", "commented",
             "---\n# a comment\nname: commented  # trailing comment\n"
             "description: Use when testing comments\n---\nBody\n"))
    add(Case("valid-question-key", "qkey", "---\n? name\n: qkey\ndescription: Use when x\n---\nB\n"))
    add(Case("valid-quoted-keys", "qk", "---\n\"name\": qk\n'description': Use when x\n---\nB\n"))
    add(Case("valid-doc-end-marker", "dem", "---\nname: dem\ndescription: Use when x\n...\n---\nB\n"))
    add(Case("tab-separator", "tab-sep", "---\nname:\ttab-sep\ndescription: Use when x\n---\nB\n"))
    add(Case("valid-opening-trailing-space", "ots", "---  \nname: ots\ndescription: Use when x\n---\nB\n"))
    add(Case("valid-body-rule", "body-rule",
             "---\nname: body-rule\ndescription: Use when x\n---\n# T\n\n---\n\nMore\n\n---\n"))
    # both spellings present: skills-ref reads SKILL.md
    add(Case("both-files", "both-a", "---\nname: Both_A\ndescription: Use when x\n---\nB\n",
             extra_files={"skill.md": "---\nname: both-a\ndescription: Use when x\n---\nB\n"}))
    add(Case("both-files", "both-b", "---\nname: both-b\ndescription: Use when x\n---\nB\n",
             extra_files={"skill.md": "---\nname: Both_B\ndescription: Use when x\n---\nB\n"}))
    add(Case("valid-trailing-comment", "tc",
             "---\nname: tc # the name\ndescription: 'Use when x' # why\n---\nB\n"))

    # ---- names: ASCII rule breakers ------------------------------------------------------
    for n in BAD_ASCII_NAMES:
        for variant in ("same-dir", "nfkc-dir", "other-dir"):
            if variant == "same-dir":
                d = n if fs_ok(n) else "skill"
            elif variant == "nfkc-dir":
                d = nfkc(n.strip()).lower()
                d = d if fs_ok(d) else "skill-dir"
                if rng.random() < 0.5:
                    continue
            else:
                d = valid_name(rng)
                if rng.random() < 0.7:
                    continue
            add(skill(rng, "name-ascii", d, name_lines=name_field(rng, n),
                      desc_lines=good_desc(rng), other=optional_fields(rng, valid_only=True)))

    # ---- names: length -------------------------------------------------------------------
    for n in ["a" * 63, "a" * 64, "a" * 65, "ab-" * 21 + "a", "ab-" * 21 + "ab",
              "abcd-" * 13, ("abcd-" * 13)[:64], ("abcd-" * 13)[:63] + "x",
              "é" * 64, "é" * 65, "a" * 63 + "é", "a" * 64 + "é"]:
        add(skill(rng, "name-length", n if fs_ok(n) else "skill", name_lines=name_field(rng, n),
                  desc_lines=good_desc(rng)))

    # ---- names: empty, missing value, whitespace ----------------------------------------
    for nl, cat in [(['name: ""'], "name-empty"), (["name: ''"], "name-empty"),
                    (["name:"], "name-no-value"), (["name:   "], "name-no-value"),
                    (['name: "   "'], "name-whitespace"), (["name: ' '"], "name-whitespace"),
                    (['name: "\\t"'], "name-whitespace"),
                    (["name:", "  - a", "  - b"], "name-list"),
                    (["name:", "  first: a"], "name-mapping")]:
        for d in ("skill", "x"):
            add(skill(rng, cat, d, name_lines=nl, desc_lines=good_desc(rng)))

    # whitespace padded names (skills-ref strips; skillc may be stricter, which is fine)
    for n in ["  pdf", "pdf  ", " pdf-tools ", " PDF ", " pdf_tools", "\tpdf", " -pdf"]:
        d = n.strip() if fs_ok(n.strip()) else "skill"
        add(skill(rng, "name-padded", d, name_lines=[f"name: {rng.choice([dq, sq])(n) if chr(9) not in n else dq(n)}"],
                  desc_lines=good_desc(rng)))

    # names that are not YAML 1.2 strings (skills-ref reads everything as a string)
    for n in NON_STRING_PLAIN:
        d = n.strip() if fs_ok(n) else "skill"
        add(skill(rng, "name-non-string", d, name_lines=[f"name: {n}"], desc_lines=good_desc(rng)))

    # ---- names: Unicode ------------------------------------------------------------------
    for n in UNICODE_NAMES:
        dirs = []
        if fs_ok(n):
            dirs.append(("raw-dir", n))
        k = nfkc(n)
        if k != n and fs_ok(k):
            dirs.append(("nfkc-dir", k))
        if k.lower() != k and fs_ok(k.lower()):
            dirs.append(("lower-dir", k.lower()))
        if not dirs:
            dirs.append(("other-dir", "skill"))
        for label, d in dirs:
            add(skill(rng, f"name-unicode-{label}", d, name_lines=name_field(rng, n),
                      desc_lines=good_desc(rng)))

    # ---- name vs directory ---------------------------------------------------------------
    for _ in range(12):
        n = valid_name(rng)
        d = valid_name(rng)
        if d == n:
            d = n + "-x"
        add(skill(rng, "dir-mismatch", d, name_lines=name_field(rng, n), desc_lines=good_desc(rng)))
    pairs = [
        ("pdf", "PDF"), ("pdf", "Pdf"), ("pdf", "pdf-"), ("pdf", "pdf "), ("pdf", " pdf"),
        ("pdf", "pdf.d"), ("pdf-tools", "pdf_tools"), ("file", "ﬁle"), ("ﬁle", "file"),
        ("pdf", "ｐｄｆ"), ("ｐｄｆ", "pdf"), ("café", "cafe\u0301"), ("cafe\u0301", "café"),
        ("café", "cafe"), ("ⅻ", "xii"), ("xii", "ⅻ"), ("x2", "x²"), ("x²", "x2"),
        ("straße", "strasse"), ("µ", "μ"), ("μ", "µ"), ("ſ", "s"), ("s", "ſ"), ("技能", "技术"),
        ("कि", "क"), ("ｐｄｆ", "ｐｄｆ"), ("pdf", "pdf-tools"), ("h2o", "h₂o"),
        ("ǆ", "dž"), ("dž", "ǆ"), ("ᾈ", "ᾀ"),
    ]
    for n, d in pairs:
        add(skill(rng, "dir-nfkc", d, name_lines=name_field(rng, n), desc_lines=good_desc(rng)))

    # ---- description ---------------------------------------------------------------------
    for dl, cat in [(['description: ""'], "desc-empty"), (["description: ''"], "desc-empty"),
                    (["description:"], "desc-no-value"), (['description: "   "'], "desc-whitespace"),
                    (['description: "\\n"'], "desc-whitespace"), (["description: |", "  "], "desc-whitespace"),
                    (['description: "\\t \\t"'], "desc-whitespace"),
                    (["description:", "  - a", "  - b"], "desc-list"),
                    (["description:", "  what: a", "  when: b"], "desc-mapping"),
                    (["description: 42"], "desc-non-string"), (["description: true"], "desc-non-string"),
                    (["description: null"], "desc-non-string"), (["description: ~"], "desc-non-string")]:
        n = valid_name(rng)
        add(skill(rng, cat, n, name_lines=[f"name: {n}"], desc_lines=dl))
    # whitespace as Python's str.strip() sees it (includes \x1c-\x1f, \x85, NBSP, U+3000)
    for ws in ["\u00a0", "\u3000", "\x1c", "\x1f", "\x85", "\u2028", "\u2029", "\u2003",
               "\u00a0 \u3000", "\x0b", "\x0c", "\u200b", "\ufeff"]:
        n = valid_name(rng)
        add(skill(rng, "desc-unicode-space", n, name_lines=[f"name: {n}"],
                  desc_lines=[f"description: {dq(ws)}"]))
        n = valid_name(rng)
        add(skill(rng, "name-unicode-space", n, name_lines=[f"name: {dq(ws)}"],
                  desc_lines=good_desc(rng)))
        n = valid_name(rng)
        add(skill(rng, "name-unicode-space-padded", n, name_lines=[f"name: {dq(ws + n + ws)}"],
                  desc_lines=good_desc(rng)))
    # length counted on the parsed value: padding spaces and escapes
    for length in [500, 501, 1024, 1025]:
        key = "compatibility" if length < 1000 else "description"
        for pad in ("lead", "trail", "both", "escapes", "escapes-astral"):
            n = valid_name(rng)
            if pad.startswith("escapes"):
                t = text_of_length(rng, length, pad == "escapes-astral")
                out = []
                for ch in t:
                    r = rng.random()
                    if r < 0.2:
                        out.append("\\u%04x" % ord(ch) if ord(ch) < 0x10000 else "\\U%08x" % ord(ch))
                    elif r < 0.25 and ord(ch) < 0x100:
                        out.append("\\x%02x" % ord(ch))
                    else:
                        out.append(dq(ch)[1:-1])
                val = '"' + "".join(out) + '"'
            else:
                k = 5
                t = text_of_length(rng, length - k, rng.random() < 0.5)
                lead = " " * (k if pad == "lead" else 2 if pad == "both" else 0)
                trail = " " * (k - len(lead))
                val = rng.choice([dq, sq])(lead + t + trail)
            fields = [f"{key}: {val}"]
            d = good_desc(rng) if key == "compatibility" else fields
            other = [fields] if key == "compatibility" else []
            add(skill(rng, f"{key[:6].rstrip('i')}-len-{length}-{pad}", n, name_lines=[f"name: {n}"],
                      desc_lines=d, other=other))
    for length in [1, 1023, 1024, 1024, 1024, 1025, 1025, 1025, 1026, 1100, 2000]:
        for mb in (False, True):
            for _ in range(2):
                n = valid_name(rng)
                dl, real = text_value(rng, "description", length, mb)
                add(skill(rng, f"desc-len-{length}", n, name_lines=[f"name: {n}"], desc_lines=dl))

    # ---- compatibility -------------------------------------------------------------------
    for cl, cat in [(['compatibility: ""'], "compat-empty"), (["compatibility:"], "compat-no-value"),
                    (['compatibility: " "'], "compat-whitespace"),
                    (["compatibility:", "  - claude-code", "  - cursor"], "compat-list"),
                    (["compatibility:", "  - x"], "compat-list"),
                    (["compatibility:", "  claude: yes"], "compat-mapping"),
                    (["compatibility: 3"], "compat-non-string"),
                    (["compatibility: true"], "compat-non-string")]:
        n = valid_name(rng)
        add(skill(rng, cat, n, name_lines=[f"name: {n}"], desc_lines=good_desc(rng), other=[cl]))
    for length in [1, 499, 500, 500, 501, 501, 502, 800]:
        for mb in (False, True):
            n = valid_name(rng)
            cl, _ = text_value(rng, "compatibility", length, mb)
            add(skill(rng, f"compat-len-{length}", n, name_lines=[f"name: {n}"],
                      desc_lines=good_desc(rng), other=[cl]))

    # ---- unknown keys --------------------------------------------------------------------
    for _ in range(20):
        n = valid_name(rng)
        extra = []
        for k in rng.sample(UNKNOWN_KEYS, rng.randint(1, 3)):
            if rng.random() < 0.7:
                extra.append([f"{k}: {scalar(rng, rng.choice(['1.0', 'someone', 'x y']))}"])
            else:
                extra.append([f"{k}:", "  - a", "  - b"])
        add(skill(rng, "unknown-keys", n, name_lines=name_field(rng, n), desc_lines=good_desc(rng),
                  other=extra + optional_fields(rng, valid_only=True)))

    # ---- missing fields ------------------------------------------------------------------
    for _ in range(4):
        n = valid_name(rng)
        add(skill(rng, "missing-name", n, name_lines=None, desc_lines=good_desc(rng),
                  other=optional_fields(rng, valid_only=True)))
        add(skill(rng, "missing-description", n, name_lines=name_field(rng, n), desc_lines=None,
                  other=optional_fields(rng, valid_only=True)))
        add(skill(rng, "missing-both", n, name_lines=None, desc_lines=None,
                  other=[["license: MIT"]]))
    add(skill(rng, "missing-both-unknown", "skill", name_lines=None, desc_lines=None,
              other=[["title: x"], ["Name: skill"]]))
    # keys that are not strings in YAML 1.2 (strictyaml reads every key as a string)
    for k in ["1", "true", "null", "~", "1.5", '""', "''", "'version'", '"x y"']:
        n = valid_name(rng)
        add(skill(rng, "unknown-keys-odd", n, name_lines=[f"name: {n}"], desc_lines=good_desc(rng),
                  other=[[f"{k}: value"]]))

    # ---- metadata / allowed-tools / license ----------------------------------------------
    md_blocks = [
        ["metadata:", "  author: example-org", "  version: \"1.0\""],
        ["metadata:", "  version: 1.0", "  count: 3"],
        ["metadata:", "  nested:", "    a: b"],
        ["metadata:", "  list:", "    - a"],
        ["metadata: just-a-string"],
        ["metadata:", "  - a", "  - b"],
        ["metadata:"],
        ["metadata: ''"],
    ]
    for b in md_blocks:
        n = valid_name(rng)
        add(skill(rng, "metadata", n, name_lines=[f"name: {n}"], desc_lines=good_desc(rng), other=[b]))
    at_blocks = [
        ["allowed-tools: Read Grep Bash"], ["allowed-tools: \"Bash(git:*) Read\""],
        ["allowed-tools: Read, Grep"], ["allowed-tools:", "  - Read", "  - Grep"],
        ["allowed-tools:", "  Read: yes"], ["allowed-tools: ''"], ["allowed-tools:"],
        ["allowed-tools: 3"],
    ]
    for b in at_blocks:
        n = valid_name(rng)
        add(skill(rng, "allowed-tools", n, name_lines=[f"name: {n}"], desc_lines=good_desc(rng),
                  other=[b]))
    for b in (["license: MIT"], ["license:", "  - MIT"], ["license: ''"], ["license: 2"]):
        n = valid_name(rng)
        add(skill(rng, "license", n, name_lines=[f"name: {n}"], desc_lines=good_desc(rng), other=[b]))

    # ---- missing frontmatter -------------------------------------------------------------
    nf = [
        "", "\n", "# Title\n\nNo frontmatter.\n", "name: x\ndescription: y\n",
        "\n---\nname: nf\ndescription: y\n---\nBody\n", " ---\nname: nf\ndescription: y\n---\n",
        "--\nname: nf\ndescription: y\n--\n", "Text first\n---\nname: nf\ndescription: y\n---\n",
        "+++\nname = \"nf\"\n+++\n", "```yaml\nname: nf\n```\n", "- - -\nname: nf\n- - -\n",
        "\t---\nname: nf\ndescription: y\n---\n",
    ]
    for c in nf:
        add(Case("no-frontmatter", "nf", c, newline=rng.choice(["\n", "\n", "\r\n"])))

    # ---- unclosed frontmatter ------------------------------------------------------------
    uc = [
        "---\nname: uc\ndescription: Use when x\n",
        "---\nname: uc\ndescription: Use when x\n\nBody text\n",
        "---\nname: uc\ndescription: Use when x\n...\nBody\n",
        "---\nname: uc\ndescription: Use when x",
        "---\n",
        "---",
        "---\nname: uc\ndescription: Use when x\n--\nBody\n",
        "---\nname: uc\ndescription: Use when x\n- - -\nBody\n",
    ]
    for c in uc:
        add(Case("unclosed", "uc", c, newline=rng.choice(["\n", "\n", "\r\n"])))

    # ---- invalid YAML --------------------------------------------------------------------
    iy = [
        'name: "iy\ndescription: Use when x\n',
        "name: 'iy\ndescription: Use when x\n",
        'name: iy\ndescription: "Use when x\n',
        "name: iy\ndescription: Use when: you need it\n",
        "name: iy\ndescription: a: b\n",
        "name: iy: x\ndescription: Use when x\n",
        "name: iy\n  description: Use when x\n",
        "name: iy\ndescription: Use when x\n  license: MIT\n",
        "metadata:\n  a: b\n c: d\nname: iy\ndescription: Use when x\n",
        "name: iy\ndescription: Use when x\nmetadata:\n    a: b\n  c: d\n",
        "name: iy\ndescription: Use when x\nmetadata:\n\ta: b\n",
        "name: iy\n\tdescription: Use when x\n",
        "name: iy\ndescription: Use when x\ngarbage line\n",
        "name: iy\nname: iy\ndescription: Use when x\n",
        "name: iy\n\"name\": iy\ndescription: Use when x\n",
        "name: iy\ndescription: Use when x\nx-a: 1\nx-a: 2\n",
        "name: iy\ndescription: Use when x\ndescription: again\n",
        "name: iy\ndescription: Use when x\nmetadata:\n  a: 1\n  a: 2\n",
        'name: "iy" trailing\ndescription: Use when x\n',
        "name: 'iy' trailing\ndescription: Use when x\n",
        "name: iy\ndescription: Use when x\n- item\n",
        "- item\nname: iy\n",
        'name: "bad \\q escape"\ndescription: Use when x\n',
        "name: iy\ndescription: |\nnot indented\n",
        "name: iy\ndescription: Use when x\n:\n",
        "name: iy\ndescription: Use when x\n\"unclosed key: 1\n",
    ]
    for c in iy:
        add(Case("invalid-yaml", "iy", "---\n" + c + "---\nBody\n",
                 newline=rng.choice(["\n", "\n", "\r\n"])))

    # ---- frontmatter not a mapping -------------------------------------------------------
    nm = [
        "- name: nm\n- description: Use when x\n", "- a\n- b\n", "just a scalar\n",
        "\"quoted scalar\"\n", "42\n", "name\n", "|\n  block scalar\n",
        "multi line\nplain scalar\n", "-\n",
    ]
    for c in nm:
        add(Case("not-mapping", "nm", "---\n" + c + "---\nBody\n"))
    # empty frontmatter (spec: an empty mapping, so SK015)
    for c in ["", "\n", "# only a comment\n", "   \n"]:
        add(Case("empty-frontmatter", "ef", "---\n" + c + "---\nBody\n"))

    # ---- no skill file -------------------------------------------------------------------
    add(Case("no-skill-file", "empty-dir", None))
    add(Case("no-skill-file", "readme-only", None, extra_files={"README.md": "# hi\n"}))
    add(Case("no-skill-file", "wrong-case", None,
             extra_files={"Skill.md": "---\nname: wrong-case\ndescription: Use when x\n---\n"}))
    add(Case("no-skill-file", "wrong-ext", None,
             extra_files={"SKILL.txt": "---\nname: wrong-ext\ndescription: Use when x\n---\n"}))
    add(Case("no-skill-file", "nested", None,
             extra_files={"sub/SKILL.md": "---\nname: sub\ndescription: Use when x\n---\n"}))
    return cases


def random_case(rng: random.Random) -> Case:
    """A random combination of (mostly valid, sometimes broken) fields."""
    r = rng.random()
    if r < 0.55:
        name = valid_name(rng)
    elif r < 0.75:
        name = rng.choice(BAD_ASCII_NAMES)
    elif r < 0.95:
        name = rng.choice(UNICODE_NAMES)
    else:
        name = rng.choice(["", " ", "  pdf  "])
    r = rng.random()
    if r < 0.7:
        d = nfkc(name.strip())
    elif r < 0.8:
        d = name
    elif r < 0.9:
        d = valid_name(rng)
    else:
        d = nfkc(name.strip()).lower()
    if not fs_ok(d):
        d = "skill"
    name_lines: list[str] | None = name_field(rng, name)
    if rng.random() < 0.05:
        name_lines = None
    r = rng.random()
    if r < 0.75:
        desc_lines: list[str] | None = good_desc(rng)
    elif r < 0.8:
        desc_lines = None
    else:
        n = rng.choice([0, 1, 1024, 1025, 1030])
        desc_lines, _ = text_value(rng, "description", n, rng.random() < 0.5)
    other = optional_fields(rng)
    if rng.random() < 0.15:
        for k in rng.sample(UNKNOWN_KEYS, rng.randint(1, 2)):
            other.append([f"{k}: {scalar(rng, 'value')}"])
    if rng.random() < 0.05:
        other.append(["compatibility:", "  - a"])
    return skill(rng, "random", d, name_lines=name_lines, desc_lines=desc_lines, other=other)


def generate(n_cases: int, seed: int) -> list[Case]:
    rng = random.Random(seed)
    cases = fixed_cases(rng)
    if n_cases < len(cases):
        keep = sorted(rng.sample(range(len(cases)), n_cases))
        cases = [cases[i] for i in keep]
    while len(cases) < n_cases:
        cases.append(random_case(rng))
    for i, c in enumerate(cases):
        c.id = f"c{i:04d}-{c.category}"
    return cases


def write_case(root: Path, c: Case) -> Path:
    case_dir = root / c.id
    skill_dir = case_dir / c.dirname
    skill_dir.mkdir(parents=True)
    if c.raw is not None:
        (skill_dir / c.filename).write_bytes(c.raw.encode("utf-8"))
    for rel, text in c.extra_files.items():
        p = skill_dir / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(text.encode("utf-8"))
    return skill_dir


# --------------------------------------------------------------------------------------------
# Running the validators
# --------------------------------------------------------------------------------------------


def run_skills_ref(c: Case, skill_dir: Path) -> None:
    try:
        c.ref_errors = list(skills_ref_validate(skill_dir))
    except Exception as exc:  # noqa: BLE001 - record any crash of the reference
        c.ref_crash = f"{type(exc).__name__}: {exc}"


def run_skillc(binary: str, c: Case, skill_dir: Path) -> None:
    cmd = [binary, "validate", "--no-config", "--format", "json", "--dialect", "agentskills",
           "--target", "spec",
           "--", skill_dir.name]
    env = dict(os.environ)
    env.pop("SKILLC_FORMAT", None)
    env.pop("SKILLC_OUTPUT_FORMAT", None)
    env["NO_COLOR"] = "1"
    try:
        p = subprocess.run(cmd, cwd=skill_dir.parent, capture_output=True, timeout=60, env=env)
    except subprocess.TimeoutExpired:
        c.skillc_problem = "timeout after 60 s"
        return
    if p.returncode not in (0, 1):
        c.skillc_problem = (f"exit status {p.returncode}; stderr: "
                            f"{p.stderr.decode('utf-8', 'replace').strip()[:2000]}")
        return
    try:
        c.skillc = json.loads(p.stdout.decode("utf-8"))
    except (ValueError, UnicodeDecodeError) as exc:
        c.skillc_problem = f"invalid JSON on stdout ({exc}): {p.stdout[:500]!r}"


# --------------------------------------------------------------------------------------------
# Comparison
# --------------------------------------------------------------------------------------------

NAME_TYPE = {"SK015", "SK014", "SK101"}
DESC_TYPE = {"SK015", "SK014", "SK110"}


def map_message(msg: str) -> set[str] | None:
    """The skillc codes of which one must appear (severity error) for a skills-ref message."""
    if msg.startswith("Missing required file"):
        return {"SK001"}
    if "must start with YAML frontmatter" in msg:
        return {"SK003"}
    if "not properly closed" in msg:
        return {"SK005"}
    if msg.startswith("Invalid YAML"):
        return {"SK006", "SK008"}
    if "must be a YAML mapping" in msg:
        return {"SK007"}
    if msg.startswith("Unexpected fields"):
        return {"SK013"}
    if msg.startswith("Missing required field in frontmatter"):
        return {"SK015"}
    if msg.startswith("Field 'name' must be a non-empty string"):
        return set(NAME_TYPE)
    if msg.startswith("Skill name ") and (
        "character limit" in msg or "must be lowercase" in msg or "hyphen" in msg
        or "consecutive hyphens" in msg or "invalid characters" in msg
    ):
        return {"SK101"}
    if msg.startswith("Directory name "):
        # rules.md: SK103 is not reported when SK101 already fired on the name (the name is
        # invalid whatever the directory is called), so SK101 covers the mismatch too.
        return {"SK103", "SK101"}
    if msg.startswith("Field 'description' must be a non-empty string"):
        return set(DESC_TYPE)
    if msg.startswith("Description exceeds"):
        return {"SK111"}
    if msg.startswith("Compatibility exceeds"):
        return {"SK301"}
    if msg.startswith("Field 'compatibility' must be a string"):
        return {"SK014"}
    if "allowed-tools" in msg or "allowed_tools" in msg:
        return {"SK014"}
    return None


def unexpected_fields(msg: str) -> list[str]:
    head = "Unexpected fields in frontmatter: "
    if not msg.startswith(head):
        return []
    rest = msg[len(head):]
    end = rest.find(". Only [")
    if end >= 0:
        rest = rest[:end]
    return [f for f in rest.split(", ") if f]


def skillc_errors(c: Case) -> list[str]:
    if not c.skillc:
        return []
    return [d.get("code") for d in c.skillc.get("diagnostics", []) if d.get("severity") == "error"]


def skillc_all(c: Case) -> list[str]:
    if not c.skillc:
        return []
    return [f"{d.get('code')}({d.get('severity')})" for d in c.skillc.get("diagnostics", [])]


def check(c: Case) -> list[tuple[str | None, str]]:
    """Problems for the forward direction, each (skills-ref message or None, explanation);
    an empty list means parity holds."""
    problems: list[tuple[str | None, str]] = []
    if c.ref_crash:
        return problems  # reported separately
    if c.skillc_problem:
        return [(None, f"skillc did not produce a result: {c.skillc_problem}")]
    errs = Counter(skillc_errors(c))
    for msg in c.ref_errors or []:
        codes = map_message(msg)
        if codes is None:
            problems.append((msg, f"unmapped skills-ref message: {msg!r}"))
            continue
        if not any(errs[k] for k in codes):
            problems.append((msg, f"{msg!r} needs an error with one of {sorted(codes)}"))
    for msg in c.ref_errors or []:
        fields = unexpected_fields(msg)
        if fields and errs["SK013"] and errs["SK013"] < len(fields):
            problems.append((msg, f"skills-ref names {len(fields)} unexpected field(s) {fields}, "
                                  f"skillc reports SK013 {errs['SK013']} time(s)"))
    missing = [m for m in c.ref_errors or [] if m.startswith("Missing required field in frontmatter")]
    if missing and errs["SK015"] and errs["SK015"] < len(missing):
        problems.append((missing[0], f"skills-ref reports {len(missing)} missing field(s), "
                                     f"skillc reports SK015 {errs['SK015']} time(s)"))
    return problems


def split_substring(content: str) -> tuple[str, str] | None:
    """skills-ref's frontmatter split (substring based)."""
    if not content.startswith("---"):
        return None
    parts = content.split("---", 2)
    if len(parts) < 3:
        return None
    return parts[1], parts[2]


def split_lines(content: str) -> tuple[str, str] | None:
    """The spec's frontmatter split (line based), on the same \\n-normalised text."""
    lines = content.split("\n")
    if not lines or lines[0].rstrip("\r") != "---":
        return None
    for i in range(1, len(lines)):
        if lines[i].rstrip(" \r") == "---":
            return "\n".join(lines[1:i]) + ("\n" if i > 1 else ""), "\n".join(lines[i + 1:])
    return None


def yaml12_load(fm: str):
    """The frontmatter as a YAML 1.2 (core schema) parser reads it; raises on invalid YAML."""
    if _RuamelYAML is None:
        raise RuntimeError("no YAML 1.2 parser available")
    return _RuamelYAML(typ="safe", pure=True).load(fm)


NAME_MSG_PREFIXES = ("Skill name ", "Directory name ")


def documented_difference(c: Case, problems: list[tuple[str | None, str]]) -> str | None:
    """A documented deliberate difference that explains a failing case, if any."""
    raw = c.raw
    if raw is None:
        if any("/" in rel and rel.rsplit("/", 1)[1] in ("SKILL.md", "skill.md")
               for rel in c.extra_files):
            return ("directory without a skill file but with a skill below it is searched "
                    "(cli.md, Discovery), so no SK001")
        return None
    if raw.startswith("\ufeff"):
        return "UTF-8 BOM before the frontmatter"
    # skills-ref reads with universal newlines
    content = raw.replace("\r\n", "\n").replace("\r", "\n")
    sub = split_substring(content)
    lin = split_lines(content)
    sub_has = content.startswith("---")
    lin_has = content.split("\n", 1)[0] == "---"
    if sub_has != lin_has or (sub is None) != (lin is None) or (
        sub is not None and lin is not None and sub[0].strip() != lin[0].strip()
    ):
        return "`---` inside a longer line (skills-ref splits on the substring, the spec on lines)"
    msgs = c.ref_errors or []
    if sub is not None:
        fm = sub[0]
        if any(m.startswith("Invalid YAML") for m in msgs):
            try:
                strictyaml.load(fm)
                kind = None
            except strictyaml.YAMLError as exc:
                kind = type(exc).__name__
            if _RuamelYAML is not None:
                try:
                    _RuamelYAML(typ="safe", pure=True).load(fm)
                    labels = {
                        "FlowMappingDisallowed": "YAML flow style ({a: b}, [a, b])",
                        "TagTokenDisallowed": "YAML explicit tags (!!str)",
                        "AnchorTokenDisallowed": "YAML anchors/aliases",
                    }
                    return "valid YAML 1.2 rejected only by strictyaml: " + labels.get(
                        kind or "", kind or "unknown strictyaml error")
                except Exception:  # noqa: BLE001 - genuinely invalid YAML
                    pass
        errs = set(skillc_errors(c))
        if any("must be a YAML mapping" in m for m in msgs):
            stripped = [ln for ln in fm.split("\n") if ln.strip() and not ln.strip().startswith("#")]
            if not stripped and "SK015" in errs:
                return "empty frontmatter (spec: an empty mapping, so SK015 for the required fields)"
        # strictyaml reads every scalar as a string; the spec reads YAML 1.2 core-schema types,
        # so `name: 1.5` / `name: True` / `name: ~` earn SK014 / SK015 instead of SK101.
        try:
            data = yaml12_load(fm)
        except Exception:  # noqa: BLE001
            data = None
        if isinstance(data, dict) and "name" in data and not isinstance(data["name"], str):
            unexplained = [p for p in problems
                           if not (p[0] or "").startswith(NAME_MSG_PREFIXES)]
            kind = "null" if data["name"] is None else type(data["name"]).__name__
            if not unexplained and ({"SK014", "SK015"} & errs):
                return (f"name is a YAML 1.2 {kind}, not a string (spec: SK014 / SK015; "
                        "strictyaml reads it as a string and applies the name rules)")
        if (isinstance(data, dict) and isinstance(data.get("name"), str)
                and data["name"] != data["name"].strip() and "SK101" in errs
                and all((p[0] or "").startswith("Directory name ") for p in problems)):
            return ('whitespace-padded name (`name: "x "`): skillc rejects the padding itself '
                    "(SK101) and compares the unstripped name with the directory")
    return None


# --------------------------------------------------------------------------------------------
# Main
# --------------------------------------------------------------------------------------------


def describe(c: Case, skill_dir: Path | None = None) -> str:
    out = [f"--- {c.id}  (dir {c.dirname!r}, file {c.filename if c.raw is not None else None!r})"]
    if c.raw is None:
        out.append(f"    content: <no skill file>; other files: {sorted(c.extra_files)}")
    else:
        out.append(f"    content: {c.raw!r}")
    if c.ref_crash:
        out.append(f"    skills-ref crashed: {c.ref_crash}")
    else:
        out.append(f"    skills-ref errors: {c.ref_errors!r}")
    if c.skillc_problem:
        out.append(f"    skillc: {c.skillc_problem}")
    else:
        out.append(f"    skillc codes: {skillc_all(c)}")
        msgs = [f"{d.get('code')}: {d.get('message')}" for d in (c.skillc or {}).get("diagnostics", [])
                if d.get("severity") == "error"]
        if msgs:
            out.append(f"    skillc error messages: {msgs!r}")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Parity harness: skillc vs skills-ref 0.1.1")
    ap.add_argument("skillc", help="path to the skillc binary")
    ap.add_argument("--cases", type=int, default=800, help="number of generated cases (default 800)")
    ap.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 4, help="parallel skillc runs")
    ap.add_argument("--keep", action="store_true", help="keep the temporary directory")
    ap.add_argument("--verbose", action="store_true", help="also list every reverse-direction case")
    ap.add_argument("--dump", metavar="FILE", help="write every case and both results as JSON lines")
    args = ap.parse_args(argv)

    binary = os.path.abspath(args.skillc) if os.sep in args.skillc else (
        shutil.which(args.skillc) or args.skillc)
    if not os.path.isfile(binary):
        sys.stderr.write(f"parity.py: skillc binary not found: {args.skillc}\n")
        return 2

    cases = generate(args.cases, args.seed)
    root = Path(tempfile.mkdtemp(prefix="skillc-parity-"))
    try:
        dirs = {c.id: write_case(root, c) for c in cases}
        for c in cases:
            run_skills_ref(c, dirs[c.id])
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as ex:
            list(ex.map(lambda c: run_skillc(binary, c, dirs[c.id]), cases))

        passed, failed, documented, crashed, reverse = [], [], [], [], []
        for c in cases:
            if c.ref_crash:
                crashed.append(c)
                continue
            problems = check(c)
            if problems:
                why = documented_difference(c, problems)
                if why:
                    documented.append((c, why))
                else:
                    failed.append((c, problems))
                continue
            passed.append(c)
            if not c.ref_errors and skillc_errors(c):
                reverse.append(c)

        verdict = {c.id: "pass" for c in passed}
        verdict.update({c.id: "fail" for c, _ in failed})
        verdict.update({c.id: "documented: " + why for c, why in documented})
        verdict.update({c.id: "skills-ref crashed" for c in crashed})
        if args.dump:
            with open(args.dump, "w", encoding="utf-8") as fh:
                for c in cases:
                    fh.write(json.dumps({
                        "id": c.id, "category": c.category, "dir": c.dirname, "file": c.filename,
                        "content": c.raw, "other_files": sorted(c.extra_files),
                        "skills_ref": c.ref_errors, "skills_ref_crash": c.ref_crash,
                        "skillc": skillc_all(c), "skillc_problem": c.skillc_problem,
                        "verdict": verdict.get(c.id),
                    }, ensure_ascii=False) + "\n")

        print(f"skillc parity with skills-ref 0.1.1: {len(cases)} cases, seed {args.seed}")
        cov: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        for c in cases:
            group = c.category.split("-raw-dir")[0].split("-nfkc-dir")[0].split(
                "-lower-dir")[0].split("-other-dir")[0]
            cov[group][0] += 1
            cov[group][1] += bool(c.ref_errors or c.ref_crash)
        print("coverage (category: cases / rejected by skills-ref): " + ", ".join(
            f"{k} {v[0]}/{v[1]}" for k, v in sorted(cov.items())))
        if failed:
            print(f"\nFAILING CASES ({len(failed)}): skills-ref rejects, skillc lacks a matching error")
            for c, problems in failed:
                print(describe(c))
                for _, p in problems:
                    print(f"    missing: {p}")
        if crashed:
            print(f"\nskills-ref crashed on {len(crashed)} case(s) (not counted):")
            for c in crashed:
                print(describe(c))
        if reverse:
            counts = Counter(code for c in reverse for code in set(skillc_errors(c)))
            print(f"\nINFO: {len(reverse)} case(s) skills-ref accepts but skillc rejects "
                  f"(skillc is stricter; not a failure). Error codes: "
                  + ", ".join(f"{k} x{v}" for k, v in sorted(counts.items())))
            by_code: dict[str, list[Case]] = defaultdict(list)
            for c in reverse:
                by_code[",".join(sorted(set(skillc_errors(c))))].append(c)
            for key, group in sorted(by_code.items()):
                shown = group if args.verbose else group[:3]
                print(f"  [{key}] {len(group)} case(s)")
                for c in shown:
                    content = "<no skill file>" if c.raw is None else repr(c.raw[:200])
                    print(f"    {c.id} dir={c.dirname!r}: {content}")
        if documented:
            cats = Counter(why for _, why in documented)
            print(f"\nDOCUMENTED DIFFERENCES ({len(documented)} case(s) skipped, not counted):")
            for why, n in sorted(cats.items()):
                ids = [c.id for c, w in documented if w == why]
                print(f"  {n:4d}  {why}: {', '.join(ids[:8])}{' ...' if len(ids) > 8 else ''}")
        if args.keep:
            print(f"\ncases kept in {root}")
        print(f"parity: {len(passed)} passed, {len(failed)} failed")
        return 1 if failed else 0
    finally:
        if not args.keep:
            shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
