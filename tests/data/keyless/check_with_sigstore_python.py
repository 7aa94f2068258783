#!/usr/bin/env python3
"""Check tests/data/keyless/ with an independent verifier: sigstore-python, offline.

Requirements (Python 3.11):  sigstore==4.5.1  (it brings cryptography 50.0.2)

    python3 -m venv /tmp/keyless-check && /tmp/keyless-check/bin/pip install sigstore==4.5.1
    /tmp/keyless-check/bin/python tests/data/keyless/check_with_sigstore_python.py

Not run by CI: a tool to recheck the data after gen.py. Every valid bundle must verify against
trusted_root.json with its identity policy; every hostile bundle must fail, and fail at the
check it was made for (the expected part of sigstore-python's error message). Exits 1 if not.
With haiku.skills installed too (it needs Python >= 3.12: `pip install "haiku.skills[signing]"`,
checked with 0.18.1), haiku's own code is run as well: its hash_skill_directory must give the
same digests, its get_bundle_signer the identities, and its verify_skill (with
Verifier.production() made to return a verifier for trusted_root.json) must accept the two
skills and refuse each hostile bundle put in place of skills/alpha/SKILL.sigstore.

Nothing here reaches the network: the trusted root is the local file, and sigstore-python's
Verifier does not contact the log it names.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import sys
import tempfile
from pathlib import Path

from sigstore.errors import VerificationError
from sigstore.hashes import Hashed
from sigstore.models import Bundle, InvalidBundle, TrustedRoot
from sigstore.verify import Verifier
from sigstore.verify.policy import Identity
from sigstore_models.common.v1 import HashAlgorithm

HERE = Path(__file__).resolve().parent

ALPHA_IDENTITY = "https://github.com/acme/skills/.github/workflows/release.yml@refs/heads/main"
ALPHA_ISSUER = "https://token.actions.githubusercontent.com"
BETA_IDENTITY = "maintainer@example.com"
BETA_ISSUER = "https://github.com/login/oauth"
ALPHA = Identity(identity=ALPHA_IDENTITY, issuer=ALPHA_ISSUER)
BETA = Identity(identity=BETA_IDENTITY, issuer=BETA_ISSUER)

# Each hostile bundle (for skills/alpha) and the part of the error that names the failed check.
HOSTILE = {
    "leaf-is-ca": "failed to build timestamp certificate chain",
    "leaf-no-codesigning-eku": "Extended usage does not contain `code signing`",
    "leaf-expired-at-integrated-time": "failed to build timestamp certificate chain",
    "inclusion-proof-forged-sibling": "inclusion proof contains invalid root hash",
    "checkpoint-wrong-key": "checkpoint: invalid signature",
    "set-wrong-key": "SET: invalid inclusion promise",
    "sct-missing": "does not contain a signed certificate timestamp extension",
    "sct-wrong-key": "SCT verify failed",
}


def hash_skill_directory(skill_dir: Path) -> bytes:
    """haiku.skills' directory digest, for these trees (no .gitignore, no excluded files)."""
    hasher = hashlib.sha256()
    files = sorted(
        (p for p in skill_dir.rglob("*") if p.is_file()), key=lambda p: p.relative_to(skill_dir).parts
    )
    for path in files:
        rel = path.relative_to(skill_dir)
        if path.name == "SKILL.sigstore" or any(
            part.startswith(".") or part in ("__pycache__", "node_modules") for part in rel.parts
        ) or path.suffix in (".pyc", ".pyo"):
            continue
        hasher.update(rel.as_posix().encode())
        hasher.update(path.read_bytes())
    return hasher.digest()


def main() -> int:
    verifier = Verifier(trusted_root=TrustedRoot.from_file(str(HERE / "trusted_root.json")))
    failures = 0

    def load(path: Path) -> Bundle:
        return Bundle.from_json(path.read_bytes())

    def report(name: str, ok: bool, detail: str = "") -> None:
        nonlocal failures
        failures += 0 if ok else 1
        if len(detail) > 200:
            detail = detail[:200] + "..."
        print(f"{'PASS' if ok else 'FAIL'}  {name}{': ' + detail if detail else ''}")

    # Valid: the two skill directories, as haiku.skills verifies them (prehashed digest).
    for skill, policy in (("alpha", ALPHA), ("beta", BETA)):
        skill_dir = HERE / "skills" / skill
        digest = Hashed(digest=hash_skill_directory(skill_dir), algorithm=HashAlgorithm.SHA2_256)
        try:
            verifier.verify_artifact(digest, load(skill_dir / "SKILL.sigstore"), policy)
            report(f"skills/{skill}/SKILL.sigstore verifies", True)
        except (VerificationError, InvalidBundle) as exc:
            report(f"skills/{skill}/SKILL.sigstore verifies", False, str(exc))

    # Valid: the plain file, by its bytes and by its digest.
    artifact = (HERE / "file" / "artifact.txt").read_bytes()
    bundle_path = HERE / "file" / "artifact.txt.sigstore.json"
    for label, input_ in (
        ("bytes", artifact),
        ("sha256", Hashed(digest=hashlib.sha256(artifact).digest(), algorithm=HashAlgorithm.SHA2_256)),
    ):
        try:
            verifier.verify_artifact(input_, load(bundle_path), ALPHA)
            report(f"file/artifact.txt.sigstore.json verifies ({label})", True)
        except (VerificationError, InvalidBundle) as exc:
            report(f"file/artifact.txt.sigstore.json verifies ({label})", False, str(exc))

    # Valid: the skill archive (archive/gamma.skill.tar.gz), by its bytes and by its digest.
    archive = (HERE / "archive" / "gamma.skill.tar.gz").read_bytes()
    archive_bundle = HERE / "archive" / "gamma.skill.tar.gz.sigstore.json"
    for label, input_ in (
        ("bytes", archive),
        ("sha256", Hashed(digest=hashlib.sha256(archive).digest(), algorithm=HashAlgorithm.SHA2_256)),
    ):
        try:
            verifier.verify_artifact(input_, load(archive_bundle), ALPHA)
            report(f"archive/gamma.skill.tar.gz.sigstore.json verifies ({label})", True)
        except (VerificationError, InvalidBundle) as exc:
            report(f"archive/gamma.skill.tar.gz.sigstore.json verifies ({label})", False, str(exc))
    # The archive with one bit changed must fail.
    changed = bytearray(archive)
    changed[len(changed) // 2] ^= 0x01
    try:
        verifier.verify_artifact(bytes(changed), load(archive_bundle), ALPHA)
        report("archive/gamma.skill.tar.gz with a changed byte is refused", False, "it verified")
    except (VerificationError, InvalidBundle) as exc:
        report("archive/gamma.skill.tar.gz with a changed byte is refused", True, str(exc))

    # Valid: the DSSE bundle; then the statement's subject must be artifact.txt's digest.
    name = "file/artifact.txt.intoto.sigstore.json verifies"
    try:
        payload_type, payload = verifier.verify_dsse(
            load(HERE / "file" / "artifact.txt.intoto.sigstore.json"), ALPHA
        )
        statement = json.loads(payload)
        subjects = [s["digest"].get("sha256") for s in statement["subject"]]
        ok = (
            payload_type == "application/vnd.in-toto+json"
            and statement["_type"] == "https://in-toto.io/Statement/v1"
            and hashlib.sha256(artifact).hexdigest() in subjects
        )
        report(name, ok, "" if ok else f"statement does not match: {payload_type} {subjects}")
    except (VerificationError, InvalidBundle) as exc:
        report(name, False, str(exc))

    # Valid bundles under the wrong identity must fail (the policy is really applied).
    alpha_digest = Hashed(
        digest=hash_skill_directory(HERE / "skills" / "alpha"), algorithm=HashAlgorithm.SHA2_256
    )
    try:
        verifier.verify_artifact(alpha_digest, load(HERE / "skills/alpha/SKILL.sigstore"), BETA)
        report("skills/alpha under beta's identity is refused", False, "it verified")
    except VerificationError as exc:
        report("skills/alpha under beta's identity is refused", True, str(exc))
    try:
        verifier.verify_artifact(archive, load(archive_bundle), BETA)
        report("archive/gamma.skill.tar.gz under beta's identity is refused", False, "it verified")
    except VerificationError as exc:
        report("archive/gamma.skill.tar.gz under beta's identity is refused", True, str(exc))

    # Hostile: each must fail, at its own check.
    for hostile, expected in HOSTILE.items():
        label = f"hostile/{hostile}.sigstore.json is refused"
        try:
            verifier.verify_artifact(
                alpha_digest, load(HERE / "hostile" / f"{hostile}.sigstore.json"), ALPHA
            )
            report(label, False, "it verified")
        except (VerificationError, InvalidBundle) as exc:
            message = str(exc)
            report(label, expected in message, message)

    # haiku.skills' own code, when it is installed.
    try:
        from haiku.skills import signing as haiku
    except ImportError:
        print("SKIP  haiku.skills is not installed: its own digest and verify_skill not run")
    else:
        production = Verifier.production
        Verifier.production = classmethod(lambda cls, offline=False: verifier)
        try:
            identities = {
                "alpha": haiku.TrustedIdentity(identity=ALPHA_IDENTITY, issuer=ALPHA_ISSUER),
                "beta": haiku.TrustedIdentity(identity=BETA_IDENTITY, issuer=BETA_ISSUER),
            }
            for skill, identity in identities.items():
                skill_dir = HERE / "skills" / skill
                same = haiku.hash_skill_directory(skill_dir) == hash_skill_directory(skill_dir)
                report(f"haiku: skills/{skill} digest is the same", same)
                signer = haiku.get_bundle_signer(skill_dir)
                report(f"haiku: skills/{skill} signer is {identity}", signer == identity, str(signer))
                report(
                    f"haiku: verify_skill(skills/{skill}) accepts it",
                    haiku.verify_skill(skill_dir, [identity]),
                )
            with tempfile.TemporaryDirectory() as tmp:
                copy = Path(tmp) / "alpha"
                shutil.copytree(HERE / "skills" / "alpha", copy)
                for hostile in HOSTILE:
                    shutil.copyfile(HERE / "hostile" / f"{hostile}.sigstore.json", copy / "SKILL.sigstore")
                    report(
                        f"haiku: verify_skill refuses hostile/{hostile}",
                        not haiku.verify_skill(copy, [identities["alpha"]]),
                    )
        finally:
            Verifier.production = production

    print(f"{failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
