"""Generates a corpus of skills for benchmarks: python3 bench/corpus.py DIR COUNT [BODY_LINES].

A mix of clean PAR and Agent Skills skills, with some of the shapes real repositories hold:
CRLF line ends, long folded descriptions, metadata, bodies of a few hundred lines, and a few
skills with problems (unknown keys, bad grammars, YAML 1.1 look-alikes).
"""
import os
import sys

root, count = sys.argv[1], int(sys.argv[2])
# Body lines per skill: 200 (about 12 KB, over SK402's 5,000-byte threshold) unless given.
lines = int(sys.argv[3]) if len(sys.argv) > 3 else 200
body = "\n".join(f"{i}. Step {i}: read the input, check it, and write the result." for i in range(1, lines))
for i in range(count):
    name = f"skill-{i:05d}"
    d = os.path.join(root, "skills", name)
    os.makedirs(d)
    kind = i % 10
    if kind < 4:
        text = (
            f"---\nschema_version: 1\nid: {name}\nname: Skill {i}\n"
            f"description: Use when the user asks for task {i}; handles logs and traces.\n"
            f"tool_filter: Only [read_file, grep, \"web.fetch\"]\n"
            f"trigger: Keyword [log, stack trace, error {i}] deterministic\n"
            f"expected_output: '{{\"type\": \"object\"}}'\nsystem_prompt_override: null\n---\n{body}\n"
        )
        fname = "skill.md"
    elif kind < 8:
        text = (
            f"---\nname: {name}\ndescription: >-\n  Use when the user wants task {i}.\n"
            f"  Explains the steps in detail and checks the result.\nlicense: MIT\n"
            f"metadata:\n  version: \"1.10\"\n  author: bench\nallowed-tools: Read Grep\n---\n{body}\n"
        )
        fname = "SKILL.md"
    elif kind == 8:
        text = (f"---\r\nname: {name}\r\ndescription: Use when needed, on CRLF.\r\n---\r\n" + body.replace("\n", "\r\n"))
        fname = "SKILL.md"
    else:
        text = (
            f"---\nschema_version: 1\nid: {name}\nname: Broken {i}\ndescription: Broken <x> skill\n"
            f"trigger: Sometimes\ntool_filter: Only [a, a]\ncategory: misc\nflag: yes\n---\n{body}\n"
        )
        fname = "skill.md"
    with open(os.path.join(d, fname), "w", newline="") as f:
        f.write(text)
