"use strict";

// Loads the bundled extension (dist/extension.js, `npm run bundle`) without VS Code: a stand-in `vscode` module, just enough for
// vscode-languageclient to load, is resolved in place of the real one. Fails if
// the bundle does not load, does not export `activate` and `deactivate`, or needs
// anything from node_modules (the package ships no node_modules).

const assert = require("node:assert/strict");
const Module = require("node:module");
const path = require("node:path");

// Any property of the stand-in is a function that is also an object with any
// property (enums, classes, namespaces alike); nothing is called at load time.
function standIn(name) {
  const target = function () {};
  return new Proxy(target, {
    get(_, key) {
      if (key === "__esModule") return false;
      if (key === Symbol.toPrimitive) return () => name;
      if (key === "then") return undefined;
      if (typeof key === "symbol") return target[key];
      return standIn(`${name}.${key}`);
    },
    construct() {
      return standIn(`new ${name}`);
    },
    apply() {
      return standIn(`${name}()`);
    },
  });
}

const vscodeId = path.join(__dirname, "vscode-stand-in");
require.cache[vscodeId] = Object.assign(new Module(vscodeId), {
  filename: vscodeId,
  loaded: true,
  exports: standIn("vscode"),
});
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  return request === "vscode" ? vscodeId : resolve.call(this, request, ...rest);
};

const bundle = path.join(__dirname, "..", "dist", "extension.js");
const extension = require(bundle);
assert.equal(typeof extension.activate, "function", "the bundle exports activate");
assert.equal(typeof extension.deactivate, "function", "the bundle exports deactivate");
const fromModules = Object.keys(require.cache).filter((id) => id.includes("node_modules"));
assert.deepEqual(fromModules, [], "the bundle loads nothing from node_modules");

// The manifest points at the file just loaded.
const manifest = require("../package.json");
assert.equal(path.resolve(__dirname, "..", manifest.main), bundle);

console.log("ok: dist/extension.js loads alone and exports activate and deactivate");
