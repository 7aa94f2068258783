"""haiku.skills' own directory digest, for tests/haiku_digest.rs.

Usage: python haiku_digest.py DIR...

Prints one JSON object a line for each DIR, in order: {"digest": HEX, "files": [...]} with
the files haiku hashes in its order, or {"error": "..."} when haiku raises. haiku's
`signing.py` is loaded from the installed distribution by its file path, so that neither
haiku's package `__init__` nor its heavy dependencies (pydantic-ai, ...) are imported: the
venv needs only `haiku.skills` (installed with --no-deps) and `pathspec`.
"""

import importlib.metadata
import importlib.util
import json
import sys
import warnings
from pathlib import Path


def load_signing():
    dist = importlib.metadata.distribution("haiku.skills")
    path = Path(str(dist.locate_file("haiku/skills/signing.py")))
    spec = importlib.util.spec_from_file_location("haiku_signing_under_test", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main() -> int:
    # pathspec 1.x deprecates the "gitwildmatch" name haiku uses: a warning, not an error.
    warnings.simplefilter("ignore")
    signing = load_signing()
    out = sys.stdout
    for arg in sys.argv[1:]:
        skill_dir = Path(arg)
        try:
            files = [rel.as_posix() for rel in signing._walk_skill_files(skill_dir)]
            digest = signing.hash_skill_directory(skill_dir).hex()
            record = {"digest": digest, "files": files}
        except Exception as e:  # haiku raising is a result the test compares too
            record = {"error": f"{type(e).__name__}: {e}"}
        out.write(json.dumps(record) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
