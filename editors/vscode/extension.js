"use strict";

// Starts `skillc server` (the skillc language server, over stdio) for SKILL.md and
// skill.md files: diagnostics, quick fixes and `source.fixAll.skillc`.

const vscode = require("vscode");
const { CloseAction, ErrorAction, LanguageClient } = require("vscode-languageclient/node");

/** The running client, if one started. */
let client;
/** The executable `client` was started with. */
let started;
/** One output channel for every client (a restart must not add another). */
let output;
/** Starts and stops run one after another, never interleaved. */
let queue = Promise.resolve();

function enqueue(task) {
  queue = queue.then(task).catch((error) => {
    output?.appendLine(`skillc: ${error?.stack ?? error}`);
  });
  return queue;
}

/** The `skillc.path` setting: a name looked up on PATH, or a path. */
function executable() {
  const path = vscode.workspace.getConfiguration("skillc").get("path");
  return typeof path === "string" && path.trim() !== "" ? path.trim() : "skillc";
}

async function start() {
  const command = executable();
  // No `transport` here: stdio is the default, and naming it would make the client
  // append `--stdio`, an argument `skillc server` does not take.
  const serverOptions = { command, args: ["server"] };
  const clientOptions = {
    documentSelector: [
      { scheme: "file", language: "markdown", pattern: "**/SKILL.md" },
      { scheme: "file", language: "markdown", pattern: "**/skill.md" },
    ],
    outputChannel: output,
    // A server that goes away once it has started is restarted as usual (at most 4
    // times in 3 minutes); one that goes away while starting (an old skillc without
    // `server`, say) is not: the failed start is reported below.
    errorHandler: {
      error: (error, message, count) =>
        client === next
          ? usual.error(error, message, count)
          : { action: ErrorAction.Continue, handled: true },
      closed: () =>
        client === next ? usual.closed() : { action: CloseAction.DoNotRestart, handled: true },
    },
    // A failed `initialize` is not retried, nor shown on its own: it fails the start.
    initializationFailedHandler: () => false,
  };
  // The id `skillc` makes the client read the `skillc.trace.server` setting.
  const next = new LanguageClient("skillc", "skillc", serverOptions, clientOptions);
  const usual = next.createDefaultErrorHandler();
  started = command;
  try {
    await next.start();
    client = next;
  } catch (error) {
    // A client whose start failed cannot be started again or stopped; only its
    // (empty) diagnostics collection is left to free.
    next.diagnostics?.dispose();
    cannotStart(command, error);
  }
}

async function stop() {
  const current = client;
  client = undefined;
  started = undefined;
  if (current !== undefined) {
    try {
      await current.stop();
    } catch (error) {
      // Stopping fails when the server is not running (it crashed, or is being
      // restarted by the client): what comes next must still happen.
      output.appendLine(`skillc: stopping the server: ${error?.message ?? error}`);
    }
  }
}

function cannotStart(command, error) {
  const detail = error instanceof Error ? error.message : String(error);
  output.appendLine(`skillc: \`${command} server\` could not be started: ${detail}`);
  const settings = "Open Settings";
  vscode.window
    .showErrorMessage(
      `skillc: \`${command} server\` could not be started. Install a current skillc ` +
        "(`cargo install --path .` in the skillc repository) or put it on PATH, " +
        "or set `skillc.path` to the executable.",
      settings,
    )
    .then((choice) => {
      if (choice === settings) {
        vscode.commands.executeCommand("workbench.action.openSettings", "skillc.path");
      }
    });
}

/** Restarts the server when the executable to run is no longer the one running. */
function restartIfChanged() {
  return enqueue(async () => {
    if (executable() !== started) {
      await stop();
      await start();
    }
  });
}

function activate(context) {
  output = vscode.window.createOutputChannel("skillc");
  context.subscriptions.push(
    output,
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration("skillc.path")) {
        restartIfChanged();
      }
    }),
    // A workspace's own `skillc.path` counts only once the workspace is trusted.
    vscode.workspace.onDidGrantWorkspaceTrust(restartIfChanged),
  );
  enqueue(start);
}

function deactivate() {
  return enqueue(stop);
}

module.exports = { activate, deactivate };
