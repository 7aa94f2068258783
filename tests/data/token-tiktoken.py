# Pins token counts from Python tiktoken (encode_ordinary) in both encodings for tests/tokens.rs:
#   python token-tiktoken.py VECTORS.json [CORPUS_DIR CORPUS.txt]
# VECTORS.json: texts (prefix + text * times + suffix) and their counts; CORPUS.txt: one line per
# text file (UTF-8, no NUL) under CORPUS_DIR, the extracted ../shared/corpus archive:
# "o200k cl100k path". bench/tokens-python.sh shows how to run Python tiktoken offline.
import json, os, sys, tiktoken
o, c = tiktoken.get_encoding("o200k_base"), tiktoken.get_encoding("cl100k_base")
cases = []
def add(text, times=1, note=None, prefix="", suffix=""):
    cases.append((text, times, note, prefix, suffix))
# tiktoken's own test vectors (tests/test_encoding.py), as ordinary text.
for t in ["hello world", "hello <|endoftext|>", "", "rer", "'rer", "today\n ", "today\n \n", "today\n  \n",
          "hello", "hello ", "hello  ", " hello", " hello ", " hello  ", "请考试我的软件！12345", "👍", " \x850"]:
    add(t, note="tiktoken test_encoding")
for n in range(1, 18):
    add("0" * n, note="tiktoken test_simple_repeated")
for ch in ["^", "0", "a", "'s", " ", "\n"]:
    add(ch, 10_000, "tiktoken test_catastrophically_repetitive")
    add(ch, 10_000, "tiktoken test_catastrophically_repetitive", prefix=" ")
    add(ch, 10_000, "tiktoken test_catastrophically_repetitive", suffix=" ")
add("x", 1_000_000, "tiktoken test_large_repeated")
# Adversarial and mixed text.
for t in ["it's", "IT'S", "they're we've I'm you'll he'd", "don't DON'T Don'T", "it\u2019s", "'s't're've'm'll'd",
          "a\r\nb\r\n\r\nc", "\r\r\n\n\r", "line\n\n\n\nnext", "  leading", "trailing   ", "\t\ttabs\t", "a \u00a0b\u2003c\u3000d",
          "12345678901234567890", "1,234,567.89", "٣٤٥ and ⅫⅣ and ½", "e\u0301te\u0301 and é", "\u0301\u0301\u0301",
          "ǅemal ǈ ʰ ﬁ ß ẞ", "技能测试 スキル 스킬 навык مهارة कौशल", "👨‍👩‍👧‍👦 👍🏽 🏳️‍🌈 ❤️", "ℂ𝔘𝕏 𝟘𝟙", "ـــ",
          "path/to/file.md//x", "https://example.com/a?b=c&d=e#f", "`code` **bold** _it_ [link](x.md)",
          "```python\ndef f(x):\n    return x  # comment\n```\n", "{\"key\": [1, 2, 3], \"b\": null}",
          "\x00\x01\x7f\u0085\u2028\u2029", "    \n    \n", "  \n\t \r\n", "..., !!! ??? ---- ====", "$$$ €€€ £ ¥",
          "CamelCaseWord HTTPServer XMLHttpRequest iPhone", "ALLCAPS lowercase MiXeD", "  \u00a0\u00a0 x"]:
    add(t, note="adversarial")
add("😀", 250_000, "adversarial: 250k emoji")
add(" ", 100_000, "adversarial: whitespace run")
add("\n", 100_000, "adversarial: newline run")
add("\r\n", 50_000, "adversarial: CRLF run")
add("1234567890", 100_000, "adversarial: digit run")
add("技能测试数据", 50_000, "adversarial: CJK run")
add("!@#$%^&*()", 50_000, "adversarial: punctuation run")
add("aB3+/", 100_000, "adversarial: base64-like run")
add("Résumé: 技能 and 😀 — code `x = 1;`\r\n  indented\n/slash it's DON'T 12345\n", 2_000, "mixed, long")
rows = []
for text, times, note, prefix, suffix in cases:
    full = prefix + text * times + suffix
    row = {"text": text}
    if times != 1: row["times"] = times
    if prefix: row["prefix"] = prefix
    if suffix: row["suffix"] = suffix
    row["o200k_base"] = len(o.encode_ordinary(full)); row["cl100k_base"] = len(c.encode_ordinary(full))
    if note: row["note"] = note
    rows.append(row)
json.dump({"generator": f"Python tiktoken {tiktoken.__version__}, encode_ordinary(prefix + text * times + suffix), tests/data/token-tiktoken.py", "vectors": rows},
          open(sys.argv[1], "w"), ensure_ascii=False, indent=1)
print(len(rows), "vectors")

if len(sys.argv) > 3:
    root, lines = sys.argv[2], []
    for d, dirs, files in os.walk(root):
        dirs.sort()
        for f in sorted(files):
            p = os.path.join(d, f)
            if os.path.islink(p) or not os.path.isfile(p): continue
            data = open(p, "rb").read()
            if b"\0" in data: continue
            try: text = data.decode("utf-8")
            except UnicodeDecodeError: continue
            lines.append(f"{len(o.encode_ordinary(text))} {len(c.encode_ordinary(text))} {os.path.relpath(p, root)}\n")
    open(sys.argv[3], "w").write("".join(sorted(lines, key=lambda l: l.split(" ", 2)[2])))
    print(len(lines), "corpus files")
