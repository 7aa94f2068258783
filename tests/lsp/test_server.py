"""`skillc server` end to end with a real LSP client (pytest-lsp) over stdio.

Run: `SKILLC=target/debug/skillc python -m pytest tests/lsp` (`.ci/run` does, in its venv).
Each test starts the real binary in a workspace of its own and checks exact results:
diagnostics (in UTF-16 and UTF-8 positions), diagnostics after edits, quick fixes applied to
the text, hover, completion, collection rules across the workspace, and hostile buffers.
"""

import asyncio
import os
import pathlib

import pytest
import pytest_lsp
from lsprotocol import types as t
from pytest_lsp import ClientServerConfig, LanguageClient

REPO = pathlib.Path(__file__).resolve().parents[2]
SKILLC = os.environ.get("SKILLC", str(REPO / "target" / "debug" / "skillc"))

DEMO = """---
name: demo
description: Fills PDF forms fast. Use when the user asks to fill a form.
model: sonnet
effort: 
metadata:
  version: 1.10
---
# Demo

Read 😀 [the guide](references/guide.md), then [gone](references/gide.md).
"""


@pytest_lsp.fixture(
    config=ClientServerConfig(server_command=[SKILLC, "server"]),
    params=["utf-16", "utf-8"],
)
async def client(lsp_client: LanguageClient, request, tmp_path):
    """A server initialized in a workspace holding `.claude/skills/demo` (not yet opened),
    offered one position encoding."""
    skill = tmp_path / ".claude" / "skills" / "demo"
    (skill / "references").mkdir(parents=True)
    (skill / "references" / "guide.md").write_text("# Guide\n")
    (skill / "SKILL.md").write_text(DEMO)
    lsp_client.root = tmp_path
    lsp_client.encoding = request.param
    result = await lsp_client.initialize_session(
        t.InitializeParams(
            root_uri=tmp_path.as_uri(),
            workspace_folders=[t.WorkspaceFolder(uri=tmp_path.as_uri(), name="workspace")],
            capabilities=t.ClientCapabilities(
                general=t.GeneralClientCapabilities(position_encodings=[request.param])
            ),
        )
    )
    assert result.capabilities.position_encoding == request.param
    yield
    await lsp_client.shutdown_session()


def uri_of(client, rel):
    return (client.root / rel).as_uri()


async def open_doc(client, rel, text):
    item = t.TextDocumentItem(uri=uri_of(client, rel), language_id="markdown", version=1, text=text)
    return await diagnostics_of(
        client, rel, lambda _: True, lambda: client.text_document_did_open(t.DidOpenTextDocumentParams(item))
    )


async def change(client, rel, text, version, wanted):
    """Sends `text` as the document's new text; its diagnostics, once `wanted` holds for them."""
    params = t.DidChangeTextDocumentParams(
        t.VersionedTextDocumentIdentifier(uri=uri_of(client, rel), version=version),
        [t.TextDocumentContentChangeWholeDocument(text=text)],
    )
    return await diagnostics_of(client, rel, wanted, lambda: client.text_document_did_change(params))


async def diagnostics_of(client, rel, wanted, send=None, timeout=10.0):
    """Does `send` (if given; it then forgets what was published before), then waits for
    diagnostics of `rel` for which `wanted` holds."""
    uri = uri_of(client, rel)
    if send is not None:
        client.diagnostics.pop(uri, None)

    async def wait():
        nonlocal send
        while True:
            if uri in client.diagnostics and wanted(client.diagnostics[uri]):
                return list(client.diagnostics[uri])
            waiter = asyncio.ensure_future(client.wait_for_notification("textDocument/publishDiagnostics"))
            if send is not None:
                send()
                send = None
            await waiter
            # Let the client's own handler store what was published.
            await asyncio.sleep(0.01)

    return await asyncio.wait_for(wait(), timeout)


def summary(diagnostics):
    return [
        (
            d.code,
            d.severity.name,
            (d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character),
            d.message,
        )
        for d in diagnostics
    ]


def units(text, encoding):
    return len(text.encode("utf-16-le")) // 2 if encoding == "utf-16" else len(text.encode())


def apply(text, edits, encoding):
    """`text` with LSP `edits` applied (positions in `encoding`)."""
    lines = text.splitlines(keepends=True) + [""]

    def offset(position):
        start = sum(len(line) for line in lines[: position.line])
        line = lines[position.line]
        for i in range(len(line) + 1):
            if units(line[:i], encoding) >= position.character:
                return start + i
        return start + len(line)

    for edit in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        text = text[: offset(edit.range.start)] + edit.new_text + text[offset(edit.range.end) :]
    return text


@pytest.mark.asyncio
async def test_diagnostics_are_exact_in_the_negotiated_encoding(client: LanguageClient):
    diagnostics = await open_doc(client, ".claude/skills/demo/SKILL.md", DEMO)
    # The broken link comes after an emoji: 2 UTF-16 units, 4 UTF-8 bytes.
    link = 54 if client.encoding == "utf-16" else 56
    assert summary(diagnostics) == [
        (
            "SK010",
            "Warning",
            (6, 11, 6, 15),
            "`1.10` is the number 1.1, not the text `1.10`\nhelp: quote it: \"1.10\"",
        ),
        (
            "SK303",
            "Warning",
            (6, 11, 6, 15),
            "metadata value `version` is a number, not a string\n"
            "help: quote it: `version: \"1.10\"` (numbers lose digits: 1.10 becomes 1.1)",
        ),
        (
            "SK404",
            "Error",
            (10, link, 10, link + 18),
            "link `references/gide.md` names a file that does not exist in the skill\n"
            "help: did you mean `references/guide.md`?",
        ),
    ]
    assert diagnostics[2].code_description.href.endswith("/src/rules/docs/SK404.md")


@pytest.mark.asyncio
async def test_edits_are_linted_again(client: LanguageClient):
    rel = ".claude/skills/demo/SKILL.md"
    await open_doc(client, rel, DEMO)
    fixed = DEMO.replace("gide.md", "guide.md").replace("effort: \n", "").replace("1.10", '"1.10"')
    assert await change(client, rel, fixed, 2, lambda _: True) == []
    broken = fixed.replace("description: Fills", "descripton: Fills")
    diagnostics = await change(client, rel, broken, 3, lambda _: True)
    assert [(d.code, d.range.start.line, d.message.split("\n")[0]) for d in diagnostics] == [
        ("SK015", 0, "missing required field `description`"),
        ("SK013", 2, "unknown field `descripton` for the agentskills dialect: Claude Code ignores it"),
    ]
    assert list(diagnostics[1].tags) == [t.DiagnosticTag.Unnecessary]


@pytest.mark.asyncio
async def test_quick_fixes_fix_the_text(client: LanguageClient):
    rel = ".claude/skills/demo/SKILL.md"
    diagnostics = await open_doc(client, rel, DEMO)
    sk303 = diagnostics[1]
    actions = await client.text_document_code_action_async(
        t.CodeActionParams(
            t.TextDocumentIdentifier(uri_of(client, rel)),
            sk303.range,
            t.CodeActionContext(diagnostics=[sk303]),
        )
    )
    titles = [a.title for a in actions]
    # The range holds SK010 and SK303 (one value, two rules).
    assert titles == [
        "SK010: quote it",
        "Ignore SK010 on this line",
        "SK303: quote it",
        "Ignore SK303 on this line",
        "Fix all safe problems (skillc)",
    ]
    edit = actions[2].edit.changes[uri_of(client, rel)]
    assert apply(DEMO, edit, client.encoding) == DEMO.replace("1.10", '"1.10"')
    ignore = actions[3].edit.changes[uri_of(client, rel)]
    assert apply(DEMO, ignore, client.encoding) == DEMO.replace(
        "  version", "  # skillc: ignore[SK303]\n  version"
    )
    # The unsafe fix of the broken link is offered too, labelled.
    sk404 = diagnostics[2]
    actions = await client.text_document_code_action_async(
        t.CodeActionParams(
            t.TextDocumentIdentifier(uri_of(client, rel)),
            sk404.range,
            t.CodeActionContext(diagnostics=[sk404], only=[t.CodeActionKind.QuickFix]),
        )
    )
    assert [a.title for a in actions] == [
        "SK404: link `references/guide.md` (unsafe)",
        "Ignore SK404 on this line",
    ]
    edit = actions[0].edit.changes[uri_of(client, rel)]
    assert apply(DEMO, edit, client.encoding) == DEMO.replace("gide.md", "guide.md")


@pytest.mark.asyncio
async def test_hover_explains_fields_costs_and_rules(client: LanguageClient):
    rel = ".claude/skills/demo/SKILL.md"
    await open_doc(client, rel, DEMO)

    async def hover(line, character):
        return await client.text_document_hover_async(
            t.HoverParams(t.TextDocumentIdentifier(uri_of(client, rel)), t.Position(line, character))
        )

    model = await hover(3, 2)
    assert model.contents.value == (
        "**`model`** — The model used while the skill is active: an alias (`sonnet`, `opus`, "
        "`haiku`), a full model name, or `inherit`.\n\nRead by: Claude Code."
    )
    assert (model.range.start.line, model.range.start.character, model.range.end.character) == (3, 0, 5)
    description = await hover(2, 20)
    assert description.contents.value == (
        "**`description`** — What the skill does and when to use it; at most 1024 characters.\n\n"
        "Read by: Claude Code.\n\n---\n\n"
        "**L1 cost: 19 tokens** (o200k_base): the catalog line every session loads.\n"
        "- Claude Code listing: 69 of 8,000 characters (0.8%)"
    )
    link = 57 if client.encoding == "utf-16" else 59
    rule = await hover(10, link)
    assert rule.contents.value.startswith(
        "**SK404 broken-link** (error)\n\nA relative link or image in the body names a file "
        "that does not exist.\n\n## What it checks\n"
    )
    assert await hover(8, 2) is None


@pytest.mark.asyncio
async def test_completion_offers_keys_values_and_files(client: LanguageClient):
    rel = ".claude/skills/demo/SKILL.md"
    text = DEMO.replace("metadata:", "wh\nmetadata:")
    await open_doc(client, rel, text)

    async def complete(line, character):
        result = await client.text_document_completion_async(
            t.CompletionParams(t.TextDocumentIdentifier(uri_of(client, rel)), t.Position(line, character))
        )
        items = result if isinstance(result, list) else result.items
        return [(i.label, i.text_edit.new_text, i.text_edit.range.start.character) for i in items]

    # After `effort: `: the values Claude Code documents.
    assert await complete(4, 8) == [
        ("low", "low", 8),
        ("medium", "medium", 8),
        ("high", "high", 8),
        ("xhigh", "xhigh", 8),
        ("max", "max", 8),
    ]
    # A key being written: the fields of the spec and of Claude Code not yet present.
    keys = await complete(5, 2)
    assert [k[0] for k in keys] == [
        "license", "compatibility", "allowed-tools", "when_to_use", "argument-hint",
        "arguments", "disable-model-invocation", "user-invocable", "context", "agent",
        "hooks", "paths", "shell",
    ]
    assert keys[3] == ("when_to_use", "when_to_use: ", 0)
    # Inside a link's target: the skill's files.
    start = len("Read 😀 [the guide](".encode("utf-16-le")) // 2 if client.encoding == "utf-16" else len(
        "Read 😀 [the guide](".encode()
    )
    assert await complete(11, start + 3) == [("references/guide.md", "references/guide.md", start)]


@pytest.mark.asyncio
async def test_collection_rules_see_the_workspace(client: LanguageClient):
    other = client.root / ".claude" / "skills" / "other"
    other.mkdir()
    text = DEMO.replace("gide.md", "guide.md").replace("effort: \n", "").replace("1.10", '"1.10"')
    (other / "references").mkdir()
    (other / "references" / "guide.md").write_text("# Guide\n")
    (other / "SKILL.md").write_text(text)
    # The scan of the workspace may end after the first lint: wait for its result.
    diagnostics = await open_doc(client, ".claude/skills/other/SKILL.md", text)
    if not any(d.code == "SK501" for d in diagnostics):
        diagnostics = await diagnostics_of(
            client, ".claude/skills/other/SKILL.md", lambda d: any(x.code == "SK501" for x in d)
        )
    assert [(d.code, d.message.split("\n")[0]) for d in list(diagnostics)] == [
        ("SK103", "the name `demo` does not match the directory name `other`"),
        ("SK501", "duplicate skill key `demo`: also used by `.claude/skills/demo/SKILL.md`"),
    ]
    # The other skill's key is the related information.
    (related,) = diagnostics[1].related_information
    assert related.location.uri == uri_of(client, ".claude/skills/demo/SKILL.md")
    assert (related.location.range.start.line, related.location.range.start.character) == (1, 6)
    assert (related.location.range.end.line, related.location.range.end.character) == (1, 10)
    assert related.message == "the other skill with this key"


@pytest.mark.asyncio
async def test_a_broken_skillc_toml_is_shown_and_its_fix_seen(client: LanguageClient):
    rel = ".claude/skills/demo/SKILL.md"
    await open_doc(client, rel, DEMO)
    config = client.root / "skillc.toml"
    config.write_text("[rules]\nselect = [\"SK404\"\n")
    changed = t.DidChangeWatchedFilesParams([t.FileEvent(uri=config.as_uri(), type=t.FileChangeType.Created)])
    assert await diagnostics_of(
        client, rel, lambda d: len(d) == 0, lambda: client.workspace_did_change_watched_files(changed)
    ) == []
    (message,) = client.messages
    assert message.type == t.MessageType.Error
    assert message.message == f"skillc: {config}:2:18: unclosed array, expected `]`"
    # Fixed: linted again with its selection.
    config.write_text("[rules]\nselect = [\"SK404\"]\n")
    changed = t.DidChangeWatchedFilesParams([t.FileEvent(uri=config.as_uri(), type=t.FileChangeType.Changed)])
    diagnostics = await diagnostics_of(
        client, rel, lambda d: len(d) > 0, lambda: client.workspace_did_change_watched_files(changed)
    )
    assert [d.code for d in diagnostics] == ["SK404"]
    assert len(client.messages) == 1


HOSTILE = [
    "",
    "\x00\x01\x02" * 1000,
    "---\n" + "a: [" * 5000 + "\n---\n",
    "---\nname: x\n" + "k" * 300000 + ": v\n---\n",
    "\r" * 10000,
    "---\nname: &a [*a]\n---\n" + "[x](" * 20000,
    "---\n" + "".join(f"k{i}: &a{i} v\n" for i in range(3000)) + "---\n",
    "---\nname: demo\ndescription: d\n---\n" + "😀" * 200000 + "\n```\n" * 5000,
    "\ufeff---\n\ufeffname: demo\n---\n" + "\t\x0b\x0c\u2028\u2029" * 10000,
]


@pytest.mark.asyncio
@pytest.mark.parametrize("buffer", range(len(HOSTILE)))
async def test_hostile_buffers_get_diagnostics_and_the_server_goes_on(client: LanguageClient, buffer):
    rel = ".claude/skills/demo/SKILL.md"
    await open_doc(client, rel, DEMO)
    await change(client, rel, HOSTILE[buffer], 2, lambda _: True)
    # Still serving: hover, completion and code actions are answered.
    position = t.Position(1, 1)
    await client.text_document_hover_async(t.HoverParams(t.TextDocumentIdentifier(uri_of(client, rel)), position))
    await client.text_document_completion_async(
        t.CompletionParams(t.TextDocumentIdentifier(uri_of(client, rel)), position)
    )
    await client.text_document_code_action_async(
        t.CodeActionParams(
            t.TextDocumentIdentifier(uri_of(client, rel)),
            t.Range(t.Position(0, 0), t.Position(3, 0)),
            t.CodeActionContext(diagnostics=[]),
        )
    )


async def completions(client, rel, line, character):
    result = await client.text_document_completion_async(
        t.CompletionParams(t.TextDocumentIdentifier(uri_of(client, rel)), t.Position(line, character))
    )
    items = result if isinstance(result, list) else (result.items if result else [])
    return [i.label for i in items]


@pytest.mark.asyncio
async def test_no_completion_where_it_would_be_text(client: LanguageClient):
    rel = ".claude/skills/demo/SKILL.md"
    body = "```\n[a](r\n```\nSee `[a](r` and <!-- [a](r -->\n\n    [a](r\n[a](r"
    text = DEMO.replace("effort: \n", "") + body
    await open_doc(client, rel, text)
    lines = text.split("\n")
    first = lines.index("[a](r")
    # In a fence, a code span, a comment, an indented block: nothing. In plain text: the files.
    assert await completions(client, rel, first, 5) == []
    assert await completions(client, rel, first + 2, 10) == []
    assert await completions(client, rel, first + 2, 26) == []
    assert await completions(client, rel, first + 4, 9) == []
    assert await completions(client, rel, first + 5, 5) == ["references/guide.md"]
    # Frontmatter never closed: keys right after `---`, not in the prose after a blank line.
    unclosed = "---\nname: demo\nmo\n\n# Title\n\nmo"
    await open_doc(client, rel, unclosed)
    assert "model" in await completions(client, rel, 2, 2)
    assert await completions(client, rel, 6, 2) == []
    # A quoted key is present.
    quoted = '---\n"name": demo\n\n---\n'
    await open_doc(client, rel, quoted)
    assert "name" not in await completions(client, rel, 2, 0)


@pytest.mark.asyncio
async def test_no_ignore_comment_that_would_end_a_link(client: LanguageClient):
    rel = ".claude/skills/demo/SKILL.md"
    text = "---\nname: demo\ndescription: Use when x.\n---\nSee [guide][g] and more.\n\n[g]: nope.md\n"
    diagnostics = await open_doc(client, rel, text)
    assert [(d.code, d.range.start.line) for d in diagnostics] == [("SK404", 6)]
    actions = await client.text_document_code_action_async(
        t.CodeActionParams(
            t.TextDocumentIdentifier(uri_of(client, rel)),
            diagnostics[0].range,
            t.CodeActionContext(diagnostics=diagnostics),
        )
    )
    assert [a.title for a in actions] == []


@pytest.mark.asyncio
async def test_collection_rules_follow_the_settings_and_folders_moved_in(client: LanguageClient):
    rel = ".claude/skills/demo/SKILL.md"
    text = DEMO.replace("gide.md", "guide.md").replace("effort: \n", "").replace("1.10", '"1.10"')
    assert await open_doc(client, rel, text) == []
    # A budget set in skillc.toml (no file watching here): the next edit sees it.
    (client.root / "skillc.toml").write_text("budget = 5\n")
    diagnostics = await change(client, rel, text + "More.\n", 2, lambda _: True)
    assert [d.code for d in diagnostics] == ["SK503"]
    (client.root / "skillc.toml").unlink()
    assert await change(client, rel, text, 3, lambda _: True) == []
    # A skill folder moved into the workspace is one event, for the folder.
    outside = client.root.parent / (client.root.name + "-outside")
    (outside / "aaa").mkdir(parents=True)
    (outside / "aaa" / "SKILL.md").write_text(text)
    (outside / "aaa").rename(client.root / ".claude" / "skills" / "aaa")
    changed = t.DidChangeWatchedFilesParams(
        [t.FileEvent(uri=uri_of(client, ".claude/skills/aaa"), type=t.FileChangeType.Created)]
    )
    client.workspace_did_change_watched_files(changed)
    diagnostics = await diagnostics_of(client, rel, lambda d: any(x.code == "SK501" for x in d))
    assert [d.message.split("\n")[0] for d in diagnostics if d.code == "SK501"] == [
        "duplicate skill key `demo`: also used by `.claude/skills/aaa/SKILL.md`"
    ]
