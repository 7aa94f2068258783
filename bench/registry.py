#!/usr/bin/env python3
"""Generates a corpus shaped like a public skill registry, for benchmarks.

    python3 bench/registry.py DIR COUNT [SEED]     COUNT skills under DIR (SEED default 1)
    python3 bench/registry.py --one DIR BYTES      one clean skill with a body of about BYTES

The model is tomevault-io/skills-registry (61,452 skills, 476 MB of skill files, ~7.7 KB each),
which is flat: one folder holds a directory per skill, named after its origin, beside a few
directories that hold no skill (a repository's README.md, AGENTS.md and TOME.json, 3%):
  DIR/<owner>--<repo>--<name>/SKILL.md, README.md      most skills (the name differs: SK103)
  DIR/<owner>--<repo>/plugins/<p>/skills/<name>/...    Claude Code marketplaces (~15% of repos)
A third of the skills share their name with another (code-review, skill-creator, git-workflow…
hundreds of times: SK501), and nearly every skill has a `metadata` with its `author`.
Bodies are 1-40 KB (most 2-8 KB; 10% over 20 KB, i.e. over SK402's 5,000 tokens) of Markdown:
headings, prose, lists, code fences, tables, some non-ASCII and emoji, CRLF in a few files.
Frontmatter varies as real repositories do (long and folded descriptions, with and without a
"use when" trigger, metadata, allowed-tools, Claude Code fields), and a tenth has broken YAML.
Skills bundle references/*.md (linked from the body; some links broken, some files unlinked),
scripts/ (some executable) and, a few, a tools.json/schema.json of tool definitions.

The output depends only on COUNT and SEED (one seeded random.Random, no hash or listing
order). When DIR already holds a complete corpus of the same COUNT, SEED and generator VERSION,
it is reused; otherwise it is built in DIR.tmp and renamed, so a broken run leaves no half corpus.
Prints one JSON line of statistics (also kept in DIR/.registry.json).
"""
import json
import os
import random
import shutil
import sys
import time

VERSION = 2  # bump whenever the output changes: cached corpora are then regenerated

# --- vocabulary -------------------------------------------------------------------------------
NOUNS = """file files input output result results report reports log logs trace error errors
request response server client database table query schema index cache config configuration
setting settings option options module package dependency dependencies test tests fixture
branch commit diff patch review reviewer change changes build release version tag image
document documents page pages section heading paragraph list item items value values field
fields key keys token tokens prompt model agent user users team project repository workspace
directory path paths script scripts command commands tool tools function functions method class
type types interface component components service endpoint api payload format template
templates chart dashboard metric metrics alert incident deployment cluster container pod
volume secret permission role policy account invoice customer order product spreadsheet
column row cell formula slide deck presentation video audio frame transcript summary note
notes ticket issue issues milestone sprint backlog story estimate budget plan step steps
checklist guideline guidelines rule rules pattern patterns example examples workflow pipeline
job jobs queue worker event events message messages channel thread webhook migration backup
snapshot""".split()
VERBS = """read write check validate parse render format generate create update delete merge
split extract convert compare analyze review summarize translate test build deploy install
configure run execute inspect search filter sort group collect fetch load save export import
upload download publish release tag commit push rebase refactor rename document explain
describe list count measure profile optimize debug fix trace log monitor notify schedule
retry cancel approve reject sign verify encrypt decrypt compress archive backup restore
migrate sync clean lint annotate label classify rank score plan estimate track""".split()
ADJS = """new existing current previous next final first last main default custom local remote
shared private public internal external large small empty missing invalid valid broken
stale fresh clean dirty pending failed successful optional required relevant important
specific generic common related nested flat raw structured plain rich short long simple
complex fast slow safe unsafe secure stable experimental deprecated""".split()
ADVS = "carefully quickly always never only first then again explicitly automatically".split()
TECH = """Python TypeScript JavaScript Rust Go Java Kotlin Swift Bash PowerShell SQL GraphQL
REST JSON YAML TOML CSV XML Markdown HTML CSS React Vue Svelte Django Flask FastAPI Express
Next.js Node.js Docker Kubernetes Terraform Ansible AWS GCP Azure PostgreSQL MySQL SQLite
Redis Kafka RabbitMQ Elasticsearch Git GitHub GitLab Jira Slack Notion Figma Excel PDF
OpenAPI gRPC WebSocket OAuth JWT pytest Jest Vitest Playwright Cypress ESLint Prettier
Ruff mypy Poetry npm pnpm Cargo Maven Gradle Homebrew""".split()
TOOLS_CC = ["Read", "Write", "Edit", "Grep", "Glob", "Bash", "WebFetch", "WebSearch",
            "Bash(git:*)", "Bash(npm run test:*)", "Bash(python3:*)", "TodoWrite", "Task"]
LICENSES = ["MIT", "Apache-2.0", "Proprietary. LICENSE.txt has complete terms", "BSD-3-Clause",
            "CC-BY-4.0", "MIT License"]
MODELS = ["sonnet", "opus", "haiku", "inherit"]
# Lines of other scripts and emoji, as real skills hold them (in ~15% of the bodies).
FOREIGN = [
    "注意：この手順を実行する前に、必ず設定ファイルを確認してください。",
    "在提交之前，请先运行测试并检查输出结果是否正确。",
    "Überprüfe die Konfiguration, bevor du die Änderungen übernimmst.",
    "Vérifiez le résultat — puis enregistrez le fichier généré.",
    "Проверьте результат перед публикацией изменений.",
    "✅ Do: keep each step small and check the result before moving on.",
    "❌ Don't: skip the validation step, even for a “trivial” change.",
    "⚠️ Warning: this command rewrites history → make a backup first.",
    "🚀 Tip: run the fast checks first; the slow ones only when they pass.",
    "📌 Note: the café’s naïve résumé parser mishandles “smart quotes” — normalize them.",
]
TRIGGERS = ["Use when the user asks to", "Use this skill when you need to",
            "Use when working with", "Use this whenever the user wants to",
            "Use proactively after you", "Use for any request to", "Activate when the user mentions"]


class Gen:
    """All randomness comes from self.r, consumed in a fixed order."""

    def __init__(self, seed):
        self.r = random.Random(seed)
        r = self.r
        # Pools built once: bodies are random selections of these blocks (fast to assemble),
        # with @T@ replaced by each skill's own topic so that no two bodies are equal.
        self.sentences = [self.sentence() for _ in range(6000)]
        self.items = [self.item() for _ in range(3000)]
        self.codes = [self.code_block() for _ in range(1200)]
        self.tables = [self.table() for _ in range(400)]
        self.headings = [self.heading() for _ in range(1500)]
        self.used_names = set()
        # Names many repositories give a skill (the most popular first).
        self.popular = [f"{w}-{n}" for w, n in zip(
            r.sample(VERBS, 60) * 50, r.sample(NOUNS, 150) * 20)][:3000]
        self.used_owners = set()

    # --- text pieces ---------------------------------------------------------------------------
    def w(self, pool):
        return pool[int(self.r.random() * len(pool))]

    def sentence(self):
        r, w = self.r, self.w
        t = r.random()
        if t < 0.12:
            s = f"{w(VERBS)} the {w(ADJS)} {w(NOUNS)} before you {w(VERBS)} the {w(NOUNS)}"
        elif t < 0.24:
            s = f"when the @T@ {w(NOUNS)} is {w(ADJS)}, {w(VERBS)} it {w(ADVS)} and {w(VERBS)} the {w(NOUNS)}"
        elif t < 0.34:
            s = f"the {w(NOUNS)} must be {w(ADJS)}; otherwise the {w(NOUNS)} will {w(VERBS)} every {w(NOUNS)} in the {w(NOUNS)}"
        elif t < 0.44:
            s = f"use `{w(VERBS)}_{w(NOUNS)}()` to {w(VERBS)} the {w(ADJS)} {w(NOUNS)} from {w(TECH)}"
        elif t < 0.54:
            s = f"if the user asks for a {w(ADJS)} @T@ {w(NOUNS)}, {w(VERBS)} the {w(NOUNS)} with **{w(TECH)}** and {w(VERBS)} the {w(NOUNS)}"
        elif t < 0.62:
            s = f"never {w(VERBS)} a {w(NOUNS)} that is {w(ADJS)} or {w(ADJS)}: {w(VERBS)} the {w(NOUNS)} instead"
        elif t < 0.70:
            s = f"set `{w(NOUNS)}.{w(NOUNS)}` to `{r.randint(1, 4096)}` and {w(VERBS)} the {w(NOUNS)} again"
        elif t < 0.78:
            s = f"each {w(NOUNS)} has a {w(ADJS)} {w(NOUNS)}, a {w(NOUNS)} and an optional {w(NOUNS)} ({w(TECH)} calls it `{w(NOUNS)}_{w(NOUNS)}`)"
        elif t < 0.86:
            s = f"this step {w(VERBS)}s the @T@ {w(NOUNS)} so that the next step can {w(VERBS)} it {w(ADVS)}"
        elif t < 0.93:
            s = f"see the {w(TECH)} documentation at https://docs.example.com/{w(NOUNS)}/{w(VERBS)} for the {w(ADJS)} {w(NOUNS)}"
        else:
            s = f"{w(ADVS)} {w(VERBS)} the {w(NOUNS)} and report the {w(NOUNS)} to the user in a {w(ADJS)} {w(NOUNS)}"
        return s[0].upper() + s[1:] + "."

    def item(self):
        r, w = self.r, self.w
        t = r.random()
        if t < 0.3:
            return f"**{w(NOUNS).capitalize()}**: {w(VERBS)} the {w(ADJS)} {w(NOUNS)} and {w(VERBS)} the {w(NOUNS)}"
        if t < 0.55:
            return f"`{w(NOUNS)}-{w(NOUNS)}` — {w(ADJS)} {w(NOUNS)} for the @T@ {w(NOUNS)}"
        if t < 0.8:
            return self.sentence()
        return f"{w(VERBS).capitalize()} {w(TECH)} {w(NOUNS)} ({w(ADJS)}, {w(ADJS)})"

    def heading(self):
        w, t = self.w, self.r.random()
        if t < 0.4:
            return f"{w(VERBS).capitalize()} the {w(NOUNS)}"
        if t < 0.7:
            return f"{w(ADJS).capitalize()} {w(NOUNS)}s"
        if t < 0.9:
            return f"@T@ {w(NOUNS)} with {w(TECH)}"
        return f"Step {self.r.randint(1, 9)}: {w(VERBS)} and {w(VERBS)}"

    def code_block(self):
        r, w = self.r, self.w
        lang = w(["python", "python", "bash", "bash", "json", "yaml", "typescript", "sql", ""])
        n = r.randint(3, 28)
        lines = []
        for i in range(n):
            a, b, c = w(NOUNS), w(VERBS), w(NOUNS)
            if lang == "python":
                lines.append(w([f"{a}_{c} = {b}_{a}({c}, timeout={r.randint(1, 60)})",
                                f"for {a} in {c}s:", f"    {b}({a}.{c})",
                                f"if not {a}.{c}:", f"    raise ValueError(\"{a} is {w(ADJS)}\")",
                                f"from {a} import {b}_{c}", f"print(f\"{a}: {{{a}}}\")",
                                f"def {b}_{a}({c}: str) -> dict:", f"    return {{\"{a}\": {c}}}"]))
            elif lang == "bash":
                lines.append(w([f"{b} --{a} {c}.txt", f"python3 scripts/{b}_{a}.py --{c} out/",
                                f"git {w(['add', 'commit', 'diff', 'log', 'status'])} --{a}",
                                f"npm run {b}:{a}", f"export {a.upper()}_{c.upper()}={r.randint(0, 999)}",
                                f"# {b} the {a} first", f"curl -sSf https://api.example.com/{a}/{c}"]))
            elif lang == "json":
                lines.append(f'  "{a}_{c}": {w([str(r.randint(0, 1000)), "true", "null", chr(34) + b + chr(34)])},')
            elif lang == "yaml":
                lines.append(w([f"{a}:", f"  {c}: {b}", f"  - {a}-{c}", f"{a}_{c}: {r.randint(0, 99)}"]))
            elif lang == "typescript":
                lines.append(w([f"const {a}{c.capitalize()} = await {b}({a});",
                                f"export function {b}{a.capitalize()}({c}: string): {c.capitalize()} {{",
                                f"  return {{ {a}, {c} }};", "}", f"import {{ {b} }} from \"./{a}\";"]))
            elif lang == "sql":
                lines.append(w([f"SELECT {a}, {c} FROM {a}s WHERE {c} = ?;",
                                f"UPDATE {a} SET {c} = {r.randint(0, 9)};", f"CREATE INDEX {a}_{c} ON {a}({c});"]))
            else:
                lines.append(f"{a}/{c}/  {b}")
        if lang == "json":
            lines = ["{"] + lines + ['  "end": true', "}"]
        return f"```{lang}\n" + "\n".join(lines) + "\n```"

    def table(self):
        r, w = self.r, self.w
        cols = r.randint(2, 5)
        head = [w(NOUNS).capitalize() for _ in range(cols)]
        rows = ["| " + " | ".join(head) + " |", "|" + "---|" * cols]
        for _ in range(r.randint(2, 9)):
            rows.append("| " + " | ".join(w([f"`{w(NOUNS)}`", w(ADJS), w(TECH), str(r.randint(0, 500)),
                                             f"{w(VERBS)} the {w(NOUNS)}"]) for _ in range(cols)) + " |")
        return "\n".join(rows)

    # --- a Markdown body of about `size` characters ---------------------------------------------
    def body(self, size, title, links, foreign):
        r, w = self.r, self.w
        parts = [f"# {title}\n", " ".join(w(self.sentences) for _ in range(r.randint(2, 5))) + "\n"]
        total = sum(map(len, parts))
        # Where the links go: most in a resources list near the top, the rest inline.
        inline = []
        if links:
            split = r.randint(0, len(links))
            if split:
                res = "\n".join(f"- [{label}]({path}) — {w(ADJS)} {w(NOUNS)}s" for label, path in links[:split])
                parts.append(f"## {w(['Resources', 'References', 'Additional resources', 'See also'])}\n\n{res}\n")
            inline = links[split:]
        while total < size:
            t = r.random()
            if t < 0.22:
                block = f"## {w(self.headings)}\n"
            elif t < 0.30:
                block = f"### {w(self.headings)}\n"
            elif t < 0.55:
                block = " ".join(w(self.sentences) for _ in range(r.randint(2, 7))) + "\n"
                if inline and r.random() < 0.3:
                    label, path = inline.pop()
                    block = block[:-1] + f" Read [{label}]({path}) for the details.\n"
            elif t < 0.70:
                mark = w(["-", "-", "*", "1."])
                block = "\n".join(f"{mark} {w(self.items)}" for _ in range(r.randint(3, 9))) + "\n"
            elif t < 0.86:
                block = w(self.codes) + "\n"
            elif t < 0.93:
                block = w(self.tables) + "\n"
            elif foreign:
                block = w(FOREIGN) + "\n"
            else:
                block = f"> **{w(['Note', 'Important', 'Tip'])}:** {w(self.sentences)}\n"
            parts.append(block)
            total += len(block) + 1
        for label, path in inline:  # links not yet placed
            parts.append(f"See [{label}]({path}).\n")
        return "\n".join(parts)

    # --- frontmatter ---------------------------------------------------------------------------
    def description(self, topic, kind):
        r, w = self.r, self.w
        what = f"{w(VERBS).capitalize()}s, {w(VERBS)}s and {w(VERBS)}s {topic} {w(NOUNS)}s with {w(TECH)}"
        if r.random() < 0.6:  # says when to use it
            what += f". {w(TRIGGERS)} {w(VERBS)} {w(ADJS)} {topic} {w(NOUNS)}s"
        if kind == "long":  # folded over several lines, a few hundred characters
            extra = " ".join(w(self.sentences) for _ in range(r.randint(2, 7)))
            return "long", what + ". " + extra.replace("@T@", topic)
        if kind == "too-long":  # over 1,024 characters: SK111
            extra = " ".join(w(self.sentences) for _ in range(14))
            return "long", what + ". " + extra.replace("@T@", topic)
        if kind == "markup":  # SK112
            return "plain", what + f" (returns a <{w(NOUNS)}> element)"
        return "plain", what + "."

    def frontmatter(self, name, topic, claude, broken, owner):
        r, w = self.r, self.w
        lines = [f"name: {name}"]
        t = r.random()
        kind = "long" if t < 0.15 else "too-long" if t < 0.16 else "markup" if t < 0.18 else "plain"
        style, desc = self.description(topic, kind)
        if broken == "colon":  # an unquoted ": " inside a plain value
            lines.append(f"description: {desc.rstrip('.')}: {w(VERBS)}, {w(VERBS)} and {w(VERBS)}.")
        elif broken == "quote":  # an unclosed quote
            lines.append(f'description: "{desc}')
        elif style == "long":
            words, cur, out = desc.split(), "", []
            for word in words:
                if len(cur) + len(word) > 90:
                    out.append(cur)
                    cur = ""
                cur = f"{cur} {word}" if cur else word
            out.append(cur)
            lines.append(f"description: {w(['>-', '>', '|'])}\n" + "\n".join("  " + x for x in out))
        elif r.random() < 0.3:
            lines.append(f'description: "{desc}"')
        else:
            lines.append(f"description: {desc}")
        if r.random() < 0.45:
            lines.append(f"license: {w(LICENSES)}")
        if r.random() < 0.3 or broken in ("tab", "indent"):
            meta = [f"author: {w(ADJS)}-{w(NOUNS)}", f'version: "{r.randint(0, 3)}.{r.randint(0, 12)}.{r.randint(0, 9)}"']
        elif r.random() < 0.99:  # the registry's own: who wrote it
            meta = [f"author: {owner}"]
        else:
            meta = None
        if meta:
            if len(meta) > 1 and r.random() < 0.1:
                meta.append(f"version-code: 1.{r.randint(10, 20)}")  # SK010 / SK303
            if len(meta) > 1 and r.random() < 0.3:
                meta.append(f"tags: {w(NOUNS)}, {w(NOUNS)}, {w(TECH).lower()}")
            if broken == "tab":
                lines.append("metadata:\n" + "\n".join("\t" + m for m in meta))
            elif broken == "indent":
                lines.append("metadata:\n    " + meta[0] + "\n" + "\n".join("  " + m for m in meta[1:]))
            else:
                lines.append("metadata:\n" + "\n".join("  " + m for m in meta))
        if r.random() < 0.25:
            tools = r.sample(TOOLS_CC, r.randint(1, 5))
            t = r.random()
            if t < 0.15:
                lines.append("allowed-tools:\n" + "\n".join(f"  - {x}" for x in tools))  # SK304
            elif t < 0.3:
                lines.append("allowed-tools: " + ", ".join(tools))  # SK304
            else:
                lines.append("allowed-tools: " + " ".join(tools))
        if r.random() < 0.05:
            lines.append(f"compatibility: Requires {w(TECH)} and {w(TECH)}")
        # Claude Code's own fields: plugins mostly; elsewhere SK013.
        if r.random() < (0.5 if claude else 0.06):
            if r.random() < 0.5:
                lines.append(f"when_to_use: When the user wants to {w(VERBS)} {topic} {w(NOUNS)}s or asks about {w(TECH)}.")
            if r.random() < 0.4:
                lines.append(f'argument-hint: "[{w(NOUNS)}] [--{w(ADJS)}]"')
            if r.random() < 0.2:
                lines.append("disable-model-invocation: true")
            if r.random() < 0.2:
                lines.append(f"model: {w(MODELS)}")
            if r.random() < 0.1:
                lines.append("user-invocable: false")
        return "---\n" + "\n".join(lines) + "\n---\n"

    # --- names ---------------------------------------------------------------------------------
    def skill_name(self, used_in_repo):
        r, w = self.r, self.w
        while True:
            name = f"{w(TECH).lower().replace('.', '')}-{w(NOUNS)}" if r.random() < 0.4 else f"{w(NOUNS)}-{agent(w(VERBS))}"
            if r.random() < 0.5:
                name += f"-{w(ADJS)}"
            # Registries hold many copies of popular names (SK501 across the run): a third of
            # the skills of tomevault-io/skills-registry share their name with another.
            if r.random() < 0.25:
                name = self.popular[int(len(self.popular) * r.random() ** 3)]
            elif name in self.used_names and r.random() < 0.97:
                name += f"-{r.randint(2, 999)}"
            if name not in used_in_repo:
                used_in_repo.add(name)
                self.used_names.add(name)
                return name

    def owner_name(self):
        r, w = self.r, self.w
        while True:
            name = w([f"{w(ADJS)}-{w(NOUNS)}", f"{w(NOUNS)}{r.randint(1, 9999)}", f"{w(TECH).lower().replace('.', '')}-labs",
                      f"{w(ADJS)}{w(NOUNS)}-dev"])
            if name not in self.used_owners:
                self.used_owners.add(name)
                return name


def agent(verb):
    """reviewer, builder, tracker: the names skills are given."""
    return verb + ("r" if verb.endswith("e") else "er")


def write(path, text, mode=None):
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write(text)
    if mode:
        os.chmod(path, mode)


def body_size(r):
    """Body characters: 90% log-normal around 4 KB (1-18 KB), 10% log-uniform 21-40 KB."""
    if r.random() < 0.10:
        return int(21000 * (40000 / 21000) ** r.random())
    return int(min(18000, max(1000, r.lognormvariate(8.17, 0.7))))


def make_skill(g, d, name, topic, claude, stats, owner, origin):
    """Writes one skill directory d (its skill file, references, scripts, tools)."""
    r, w = g.r, g.w
    os.makedirs(d)
    t = r.random()
    broken = None
    if t < 0.10:  # a tenth with broken YAML
        broken = w(["colon", "colon", "tab", "indent", "quote"])
    fm_name = name
    t = r.random()
    if t < 0.02:
        fm_name = name.replace("-", " ").title()  # SK101
    elif t < 0.04:
        fm_name = name + "-skill"  # SK103
    links, files = [], []
    # references/: ~35% of skills; most linked, some not (SK412), links sometimes broken (SK404).
    if r.random() < 0.35:
        os.makedirs(os.path.join(d, "references"))
        for i in range(r.randint(1, 4)):
            ref = f"{w(NOUNS)}-{w(['guide', 'reference', 'examples', 'api', 'patterns', 'faq'])}{i}.md"
            text = g.body(int(r.lognormvariate(7.8, 0.6)), f"{topic} {ref[:-3]}", [], False).replace("@T@", topic)
            if r.random() < 0.05 and files:  # links on to another reference (SK406 when unlinked)
                text += f"\nSee also [{files[0]}]({files[0]}).\n"
            write(os.path.join(d, "references", ref), text)
            files.append(ref)
            stats["ref_files"] += 1
            if r.random() < 0.9:
                prefix = "${CLAUDE_SKILL_DIR}/" if claude and r.random() < 0.2 else ""
                links.append((ref[:-3].replace("-", " "), f"{prefix}references/{ref}"))
    if r.random() < 0.08:  # a link to something that is not there
        links.append(("the guide", w(["reference/guide.md", "references/missing.md", "docs/GUIDE.md", "../shared/setup.md"])))
    if r.random() < 0.3:
        links.append(("upstream docs", f"https://github.com/example/{topic}#readme"))
    if r.random() < 0.1:
        links.append(("below", f"#{w(VERBS)}-the-{w(NOUNS)}"))
    r.shuffle(links)
    # scripts/: ~20%; executable or not; a few extension-less and not executable (SK409).
    script_lines = []
    if r.random() < 0.2:
        os.makedirs(os.path.join(d, "scripts"))
        for _ in range(r.randint(1, 3)):
            base = f"{w(VERBS)}_{w(NOUNS)}"
            if r.random() < 0.05:
                path, text, mode = base, f"{w(VERBS)} {w(NOUNS)}\n", None
            elif r.random() < 0.8:
                code = w(g.codes)
                code = code[code.index("\n") + 1:-4]
                path, text = base + ".py", f"#!/usr/bin/env python3\n\"\"\"{w(g.sentences)}\"\"\"\nimport sys\n\n{code}\n"
                mode = 0o755 if r.random() < 0.5 else None
            else:
                path, text, mode = base + ".sh", f"#!/usr/bin/env bash\nset -euo pipefail\n{w(VERBS)} \"$@\"\n", 0o755
            if os.path.exists(os.path.join(d, "scripts", path)):
                continue
            write(os.path.join(d, "scripts", path), text, mode)
            stats["script_files"] += 1
            if r.random() < 0.9:
                script_lines.append(f"python3 scripts/{path}" if path.endswith(".py") else f"bash scripts/{path}")
    # Tool schemas: ~3%; some invalid (SK601), some with many tools (SK604).
    tool_names = []
    if r.random() < 0.03:
        tools = []
        for i in range(r.randint(1, 4) if r.random() < 0.9 else r.randint(9, 12)):
            tname = f"{topic.replace('-', '_')}_{w(VERBS)}_{i}"
            params = {"type": "object", "properties": {w(NOUNS): {"type": w(["string", "integer", "boolean"]),
                                                                  "description": w(g.sentences)}},
                      "required": []}
            tool = {"name": tname, "description": w(g.sentences).replace("@T@", topic)}
            tool["parameters" if r.random() < 0.6 else "input_schema"] = params
            tools.append(tool)
            if r.random() < 0.85:
                tool_names.append(tname)
        t = r.random()
        if t < 0.04:
            del tools[0]["description"]
        elif t < 0.07:
            tools[0].get("parameters", tools[0].get("input_schema"))["type"] = "objekt"
        text = json.dumps(tools, indent=2, ensure_ascii=False) + "\n"
        if t > 0.97:
            text = text.replace("}\n]", "},\n]")  # not JSON
        write(os.path.join(d, w(["tools.json", "tools.json", "schema.json"])), text)
        stats["tool_files"] += 1
    if r.random() < 0.1:
        write(os.path.join(d, "LICENSE.txt"), "MIT License\n\nPermission is hereby granted, free of charge.\n")
    title = f"{topic.replace('-', ' ').title()} {w(NOUNS).capitalize()}"
    body = g.body(body_size(r), title, links, r.random() < 0.15)
    if script_lines:
        body += "\n## Scripts\n\n```bash\n" + "\n".join(script_lines) + "\n```\n"
    if tool_names:
        body += "\n## Tools\n\n" + "\n".join(f"- `{x}`: {w(g.items)}" for x in tool_names) + "\n"
    text = g.frontmatter(fm_name, topic, claude, broken, owner) + "\n" + body.replace("@T@", topic)
    if r.random() < 0.03:  # Windows line ends
        text = text.replace("\n", "\r\n")
    if r.random() < 0.002:
        text = "\ufeff" + text  # SK004
    fname = "skill.md" if r.random() < 0.02 else "SKILL.md"  # a few lower-case files (SK012)
    write(os.path.join(d, fname), text)
    if origin:  # the registry's page of the skill
        write(os.path.join(d, "README.md"), readme(origin, name, owner))
    stats["skill_files"] += 1
    stats["skill_bytes"] += len(text.encode("utf-8"))
    stats["broken_yaml"] += broken is not None


def readme(origin, name, owner):
    """The README.md tomevault-io/skills-registry writes beside each skill file (~660 bytes)."""
    return (f"# {name}\n\n> Skill by [{owner}](https://github.com/{owner}/{origin}) — distributed by "
            f"[the registry](https://registry.example.com)\n\n## About\n\nThis is a reusable AI instruction "
            f"skill (`SKILL.md`) that can be used with Claude Code, Cursor, Copilot, and other AI coding tools.\n"
            f"Original source: [{owner}/{origin}](https://github.com/{owner}/{origin}/tree/main/skills/{name}/SKILL.md)\n\n"
            f"---\n\nConverted and distributed by [the registry](https://registry.example.com) — AI instruction "
            f"files for every platform.\nOwn this repo? Install the registry's relay to manage distribution: "
            f"[https://registry.example.com/install](https://registry.example.com/install).\n")


def repo_size(r):
    """Skills per repository: many with one or two, a long tail of collections."""
    t = r.random()
    if t < 0.45:
        return 1
    if t < 0.65:
        return r.randint(2, 3)
    if t < 0.85:
        return r.randint(4, 10)
    if t < 0.97:
        return r.randint(11, 40)
    return r.randint(41, 200)


def generate(root, count, seed):
    g = Gen(seed)
    r, w = g.r, g.w
    stats = dict(skills=count, seed=seed, version=VERSION, skill_files=0, skill_bytes=0, ref_files=0,
                 script_files=0, tool_files=0, broken_yaml=0, owners=0, repos=0)
    made = 0
    while made < count:
        owner = g.owner_name()
        stats["owners"] += 1
        for _ in range(1 if r.random() < 0.7 else r.randint(2, 6)):
            if made >= count:
                break
            origin = f"{w(['agent', 'claude', 'ai', 'my', w(TECH).lower().replace('.', '')])}-{w(['skills', 'skills', 'plugins', 'toolkit', 'prompts'])}-{stats['repos']}"
            repo = os.path.join(root, f"{owner}--{origin}")
            stats["repos"] += 1
            if r.random() < 0.03:  # an entry of the registry that holds no skill
                os.makedirs(repo + "--about")
                write(os.path.join(repo + "--about", "README.md"), readme(origin, origin, owner))
                write(os.path.join(repo + "--about", "AGENTS.md"), f"# {origin}\n\n{w(g.sentences)}\n")
                write(os.path.join(repo + "--about", "TOME.json"), json.dumps({"name": origin, "owner": owner}) + "\n")
            n = min(repo_size(r), count - made)
            used = set()
            if r.random() < 0.15:  # a Claude Code marketplace of plugins
                os.makedirs(os.path.join(repo, ".claude-plugin"))
                plugins = []
                left = n
                while left:
                    k = min(left, r.randint(1, 8))
                    left -= k
                    p = f"{w(NOUNS)}-{w(['tools', 'kit', 'helper', 'suite'])}-{len(plugins)}"
                    plugins.append(p)
                    pdir = os.path.join(repo, "plugins", p)
                    os.makedirs(os.path.join(pdir, ".claude-plugin"))
                    write(os.path.join(pdir, ".claude-plugin", "plugin.json"),
                          json.dumps({"name": p, "version": "1.0.0", "description": w(g.sentences)}, indent=2) + "\n")
                    for _ in range(k):
                        name = g.skill_name(used)
                        make_skill(g, os.path.join(pdir, "skills", name), name, name.split("-")[0], True, stats, owner, None)
                write(os.path.join(repo, ".claude-plugin", "marketplace.json"),
                      json.dumps({"name": owner, "plugins": [{"name": p, "source": f"./plugins/{p}"} for p in plugins]},
                                 indent=2) + "\n")
            else:
                for _ in range(n):
                    name = g.skill_name(used)
                    make_skill(g, f"{repo}--{name}", name, name.split("-")[0], False, stats, owner, origin)
            made += n
    return stats


def one(root, size):
    """One clean skill whose body is `size` bytes at most (and close to it)."""
    g = Gen(12345)
    name = f"one-{size}"
    d = os.path.join(root, name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    body = g.body(size + 2000, "One Skill", [], False).replace("@T@", "report")
    body = body.encode("utf-8")[:size].decode("utf-8", "ignore")
    body = body[:body.rindex("\n") + 1].replace("```", "'''")  # no fence left open
    write(os.path.join(d, "SKILL.md"), f"---\nname: {name}\ndescription: Writes reports. Use when the user asks for a report.\n---\n{body}")
    print(d)


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "--one":
        return one(sys.argv[2], int(sys.argv[3]))
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    root, count = sys.argv[1].rstrip("/"), int(sys.argv[2])
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    stamp = os.path.join(root, ".registry.json")
    try:
        with open(stamp) as f:
            old = json.load(f)
        if (old["skills"], old["seed"], old["version"]) == (count, seed, VERSION):
            old["reused"] = True
            print(json.dumps(old))
            return
    except (OSError, ValueError, KeyError):
        pass
    tmp = root + ".tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    start = time.perf_counter()
    stats = generate(tmp, count, seed)
    stats["seconds"] = round(time.perf_counter() - start, 1)
    stats["total_files"] = sum(len(files) for _, _, files in os.walk(tmp))
    stats["total_bytes"] = sum(os.path.getsize(os.path.join(p, f)) for p, _, files in os.walk(tmp) for f in files)
    with open(os.path.join(tmp, ".registry.json"), "w") as f:
        json.dump(stats, f)
    shutil.rmtree(root, ignore_errors=True)
    os.rename(tmp, root)
    stats["reused"] = False
    print(json.dumps(stats))


if __name__ == "__main__":
    main()
