#!/usr/bin/env python3
"""Generate a self-made Sigstore instance and bundles signed with it (tests/data/keyless/).

Requirements (Python 3.11):  cryptography==50.0.2; and, to (re)pack the skill archive, a
skillc binary named by the SKILLC environment variable.

    python3 -m venv /tmp/keyless-gen && /tmp/keyless-gen/bin/pip install cryptography==50.0.2
    SKILLC=target/debug/skillc /tmp/keyless-gen/bin/python tests/data/keyless/gen.py

With SKILLC set, gen.py writes archive/gamma-src/gamma/ and runs `$SKILLC pack` on it (twice,
checking that both archives are the same bytes) to write archive/gamma.skill.tar.gz. Without it,
gen.py signs the archive already there, after checking that it holds exactly the files of
archive/gamma-src/gamma/ (and skillc's manifest).

Every run makes NEW keys (nothing private is written anywhere), so every run rewrites every
output: the trusted root, the CA certificates, all bundles. The times are fixed (2026), so the
bundles stay valid forever against the trusted root written by the same run. Then recheck with
check_with_sigstore_python.py (see README.md).

What is made:
- trusted_root.json: a Fulcio-like CA (P-384 root + P-384 intermediate), one Rekor v1 log key
  and one CT log key (both ECDSA P-256), all valid from 2026-01-01.
- skills/alpha, skills/beta: skill directories with SKILL.sigstore as haiku.skills writes it
  (a message signature over the haiku "directory digest", signed prehashed).
- file/artifact.txt with artifact.txt.sigstore.json (message signature over the bytes) and
  artifact.txt.intoto.sigstore.json (in-toto Statement v1 in a DSSE envelope, logged as dsse).
- archive/gamma.skill.tar.gz, a skill archive made by `skillc pack`, with
  gamma.skill.tar.gz.sigstore.json: a message signature over the archive's bytes (hashedrekord),
  as `skillc pack --keyless` would write it.
- hostile/*.sigstore.json: bundles for skills/alpha, each broken in exactly one way.

All log entries (valid and hostile) are leaves of one RFC 6962 Merkle tree; every bundle's
inclusion proof is against the same signed checkpoint.
"""

from __future__ import annotations

import base64
import datetime as dt
import hashlib
import json
import os
import struct
import subprocess
import tarfile
import tempfile
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import Prehashed
from cryptography.x509.certificate_transparency import LogEntryType
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

HERE = Path(__file__).resolve().parent

UTC = dt.timezone.utc
VALID_FROM = dt.datetime(2026, 1, 1, tzinfo=UTC)
CA_VALID_UNTIL = dt.datetime(2036, 1, 1, tzinfo=UTC)

FULCIO_URL = "https://fulcio.skillc.test"
REKOR_URL = "https://rekor.skillc.test"
CT_URL = "https://ctfe.skillc.test/2026"
REKOR_HOST = "rekor.skillc.test"
# Rekor v1's checkpoint origin is "<hostname> - <tree id>".
CHECKPOINT_ORIGIN = f"{REKOR_HOST} - 7311264450217950203"
# Rekor v1 shards: the bundle's logIndex is global, the inclusion proof's is within the shard.
SHARD_OFFSET = 4_200_000

GITHUB_ISSUER = "https://token.actions.githubusercontent.com"
ALPHA_IDENTITY = "https://github.com/acme/skills/.github/workflows/release.yml@refs/heads/main"
EMAIL_ISSUER = "https://github.com/login/oauth"
BETA_IDENTITY = "maintainer@example.com"

OID_ISSUER_V1 = x509.ObjectIdentifier("1.3.6.1.4.1.57264.1.1")
OID_ISSUER_V2 = x509.ObjectIdentifier("1.3.6.1.4.1.57264.1.8")
OID_SCT_LIST = x509.ObjectIdentifier("1.3.6.1.4.1.11129.2.4.2")

BUNDLE_MEDIA_TYPE = "application/vnd.dev.sigstore.bundle.v0.3+json"
TRUSTED_ROOT_MEDIA_TYPE = "application/vnd.dev.sigstore.trustedroot+json;version=0.1"
INTOTO_PAYLOAD_TYPE = "application/vnd.in-toto+json"


# ---------------------------------------------------------------------------------------------
# Encodings


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def canonical_json(obj) -> bytes:
    """RFC 8785 for what is used here (ASCII strings, non-negative integers): sorted keys."""
    text = json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return text.encode()


def der_len(n: int) -> bytes:
    if n < 0x80:
        return bytes([n])
    raw = n.to_bytes((n.bit_length() + 7) // 8, "big")
    return bytes([0x80 | len(raw)]) + raw


def der_octet_string(data: bytes) -> bytes:
    return b"\x04" + der_len(len(data)) + data


def der_utf8_string(text: str) -> bytes:
    raw = text.encode()
    return b"\x0c" + der_len(len(raw)) + raw


def spki_der(public_key) -> bytes:
    return public_key.public_bytes(
        serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo
    )


def key_id(public_key) -> bytes:
    """Sigstore's log ID / key ID: SHA-256 of the DER SubjectPublicKeyInfo."""
    return hashlib.sha256(spki_der(public_key)).digest()


def cert_pem_b64(cert: x509.Certificate) -> str:
    return b64(cert.public_bytes(serialization.Encoding.PEM))


def utc(text: str) -> dt.datetime:
    return dt.datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)


def rfc3339(t: dt.datetime) -> str:
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


# ---------------------------------------------------------------------------------------------
# The haiku.skills directory digest (haiku/skills/signing.py, hash_skill_directory)

EXCLUDE_FILES = {"SKILL.sigstore"}
EXCLUDE_DIRS = {"__pycache__", "node_modules"}
EXCLUDE_SUFFIXES = {".pyc", ".pyo"}


def skill_files(skill_dir: Path) -> list[Path]:
    files = []
    # haiku sorts Path objects: component-wise comparison of the parts.
    for path in sorted(skill_dir.rglob("*"), key=lambda p: p.relative_to(skill_dir).parts):
        if not path.is_file():
            continue
        rel = path.relative_to(skill_dir)
        if any(part.startswith(".") for part in rel.parts):
            continue
        if any(part in EXCLUDE_DIRS for part in rel.parts):
            continue
        if path.name in EXCLUDE_FILES or path.suffix in EXCLUDE_SUFFIXES:
            continue
        files.append(rel)
    return files


def hash_skill_directory(skill_dir: Path) -> bytes:
    # These trees have no .gitignore (haiku would apply its patterns); refuse rather than differ.
    assert not any(skill_dir.rglob(".gitignore")), "gen.py does not implement .gitignore rules"
    hasher = hashlib.sha256()
    for rel in skill_files(skill_dir):
        hasher.update(rel.as_posix().encode("utf-8"))
        hasher.update((skill_dir / rel).read_bytes())
    return hasher.digest()


# ---------------------------------------------------------------------------------------------
# Keys and the CA

ROOT_KEY = ec.generate_private_key(ec.SECP384R1())
INTERMEDIATE_KEY = ec.generate_private_key(ec.SECP384R1())
REKOR_KEY = ec.generate_private_key(ec.SECP256R1())
CT_KEY = ec.generate_private_key(ec.SECP256R1())
# A key that the trusted root does not know, for the hostile bundles.
ROGUE_KEY = ec.generate_private_key(ec.SECP256R1())

REKOR_LOG_ID = key_id(REKOR_KEY.public_key())
CT_LOG_ID = key_id(CT_KEY.public_key())


def make_ca() -> tuple[x509.Certificate, x509.Certificate]:
    root_name = x509.Name(
        [
            x509.NameAttribute(NameOID.ORGANIZATION_NAME, "skillc.test"),
            x509.NameAttribute(NameOID.COMMON_NAME, "sigstore"),
        ]
    )
    root = (
        x509.CertificateBuilder()
        .subject_name(root_name)
        .issuer_name(root_name)
        .public_key(ROOT_KEY.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(VALID_FROM)
        .not_valid_after(CA_VALID_UNTIL)
        .add_extension(
            x509.KeyUsage(
                digital_signature=False,
                content_commitment=False,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                key_cert_sign=True,
                crl_sign=True,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(x509.BasicConstraints(ca=True, path_length=1), critical=True)
        .add_extension(
            x509.SubjectKeyIdentifier.from_public_key(ROOT_KEY.public_key()), critical=False
        )
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key(ROOT_KEY.public_key()),
            critical=False,
        )
        .sign(ROOT_KEY, hashes.SHA384())
    )
    intermediate_name = x509.Name(
        [
            x509.NameAttribute(NameOID.ORGANIZATION_NAME, "skillc.test"),
            x509.NameAttribute(NameOID.COMMON_NAME, "sigstore-intermediate"),
        ]
    )
    intermediate = (
        x509.CertificateBuilder()
        .subject_name(intermediate_name)
        .issuer_name(root_name)
        .public_key(INTERMEDIATE_KEY.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(VALID_FROM)
        .not_valid_after(CA_VALID_UNTIL)
        .add_extension(
            x509.KeyUsage(
                digital_signature=False,
                content_commitment=False,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                key_cert_sign=True,
                crl_sign=True,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.CODE_SIGNING]), critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(
            x509.SubjectKeyIdentifier.from_public_key(INTERMEDIATE_KEY.public_key()),
            critical=False,
        )
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key(ROOT_KEY.public_key()),
            critical=False,
        )
        .sign(ROOT_KEY, hashes.SHA384())
    )
    return root, intermediate


ROOT_CERT, INTERMEDIATE_CERT = make_ca()


# ---------------------------------------------------------------------------------------------
# Leaf certificates (Fulcio-like) with an embedded precertificate SCT (RFC 6962)


def sct_signed_data(timestamp_ms: int, tbs_precert: bytes) -> bytes:
    """RFC 6962 §3.2 digitally-signed struct of a v1 precert_entry SCT (no extensions)."""
    issuer_key_hash = key_id(INTERMEDIATE_CERT.public_key())
    return (
        struct.pack("!BBQH", 0, 0, timestamp_ms, LogEntryType.PRE_CERTIFICATE.value)
        + issuer_key_hash
        + len(tbs_precert).to_bytes(3, "big")
        + tbs_precert
        + struct.pack("!H", 0)
    )


def sct_list_extension_value(timestamp_ms: int, signature: bytes, log_id: bytes) -> bytes:
    """DER OCTET STRING holding the TLS SignedCertificateTimestampList (RFC 6962 §3.3)."""
    sct = (
        bytes([0])  # sct_version v1
        + log_id
        + struct.pack("!Q", timestamp_ms)
        + struct.pack("!H", 0)  # extensions
        + bytes([4, 3])  # digitally-signed: hash sha256, signature ecdsa
        + struct.pack("!H", len(signature))
        + signature
    )
    serialized = struct.pack("!H", len(sct)) + sct
    sct_list = struct.pack("!H", len(serialized)) + serialized
    return der_octet_string(sct_list)


def make_leaf(
    *,
    san: x509.GeneralName,
    issuer: str,
    not_before: dt.datetime,
    ca: bool = False,
    eku=ExtendedKeyUsageOID.CODE_SIGNING,
    sct: str = "good",  # good | none | rogue
):
    """Return (leaf certificate, leaf private key): a 10-minute Fulcio-like certificate."""
    leaf_key = ec.generate_private_key(ec.SECP256R1())
    builder = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([]))
        .issuer_name(INTERMEDIATE_CERT.subject)
        .public_key(leaf_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(not_before)
        .not_valid_after(not_before + dt.timedelta(minutes=10))
        .add_extension(
            x509.KeyUsage(
                digital_signature=True,
                content_commitment=False,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                key_cert_sign=False,
                crl_sign=False,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(x509.ExtendedKeyUsage([eku]), critical=False)
        .add_extension(
            x509.SubjectKeyIdentifier.from_public_key(leaf_key.public_key()), critical=False
        )
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_subject_key_identifier(
                INTERMEDIATE_CERT.extensions.get_extension_for_class(
                    x509.SubjectKeyIdentifier
                ).value
            ),
            critical=False,
        )
    )
    if ca:
        builder = builder.add_extension(
            x509.BasicConstraints(ca=True, path_length=None), critical=True
        )
    builder = (
        builder.add_extension(x509.SubjectAlternativeName([san]), critical=True)
        .add_extension(x509.UnrecognizedExtension(OID_ISSUER_V1, issuer.encode()), critical=False)
        .add_extension(
            x509.UnrecognizedExtension(OID_ISSUER_V2, der_utf8_string(issuer)), critical=False
        )
    )
    # The precertificate TBS is the final TBS without the SCT list extension: sign a certificate
    # without it and take its TBS bytes.
    precert = builder.sign(INTERMEDIATE_KEY, hashes.SHA384())
    if sct == "none":
        return precert, leaf_key
    tbs_precert = precert.tbs_certificate_bytes
    # 1.25 s after notBefore (x.250 s is exact in binary), so float-based verifiers round-trip it.
    timestamp_ms = int(not_before.timestamp()) * 1000 + 1250
    signer = CT_KEY if sct == "good" else ROGUE_KEY
    signature = signer.sign(sct_signed_data(timestamp_ms, tbs_precert), ec.ECDSA(hashes.SHA256()))
    leaf = builder.add_extension(
        x509.UnrecognizedExtension(
            OID_SCT_LIST, sct_list_extension_value(timestamp_ms, signature, CT_LOG_ID)
        ),
        critical=False,
    ).sign(INTERMEDIATE_KEY, hashes.SHA384())

    # Self-checks: the SCT parses and covers exactly the precertificate TBS.
    assert leaf.tbs_precertificate_bytes == tbs_precert
    scts = leaf.extensions.get_extension_for_class(
        x509.PrecertificateSignedCertificateTimestamps
    ).value
    assert len(scts) == 1
    parsed = scts[0]
    assert parsed.log_id == CT_LOG_ID
    assert parsed.entry_type == LogEntryType.PRE_CERTIFICATE
    assert int(parsed.timestamp.replace(tzinfo=UTC).timestamp() * 1000) == timestamp_ms
    assert parsed.signature == signature
    if sct == "good":
        CT_KEY.public_key().verify(
            signature, sct_signed_data(timestamp_ms, leaf.tbs_precertificate_bytes),
            ec.ECDSA(hashes.SHA256()),
        )
    INTERMEDIATE_KEY.public_key().verify(
        leaf.signature, leaf.tbs_certificate_bytes, ec.ECDSA(hashes.SHA384())
    )
    return leaf, leaf_key


# ---------------------------------------------------------------------------------------------
# Signing events: a message signature (hashedrekord 0.0.1) or a DSSE envelope (dsse 0.0.1)


def hashedrekord_body(digest: bytes, signature: bytes, cert: x509.Certificate) -> bytes:
    return canonical_json(
        {
            "apiVersion": "0.0.1",
            "kind": "hashedrekord",
            "spec": {
                "data": {"hash": {"algorithm": "sha256", "value": digest.hex()}},
                "signature": {
                    "content": b64(signature),
                    "publicKey": {"content": cert_pem_b64(cert)},
                },
            },
        }
    )


def pae(payload_type: str, payload: bytes) -> bytes:
    """DSSE v1 pre-authentication encoding."""
    t = payload_type.encode()
    return b"DSSEv1 %d %s %d %s" % (len(t), t, len(payload), payload)


class Event:
    """One signing: a certificate, what was signed, and its log entry body."""

    def __init__(self, name, cert, integrated_time, body, kind, content):
        self.name = name
        self.cert = cert
        self.integrated_time = integrated_time
        self.body = body
        self.kind = kind
        self.content = content  # the bundle's messageSignature or dsseEnvelope


def sign_digest_event(name, leaf, leaf_key, digest: bytes, integrated_time) -> Event:
    signature = leaf_key.sign(digest, ec.ECDSA(Prehashed(hashes.SHA256())))
    leaf_key.public_key().verify(signature, digest, ec.ECDSA(Prehashed(hashes.SHA256())))
    content = {
        "messageDigest": {"algorithm": "SHA2_256", "digest": b64(digest)},
        "signature": b64(signature),
    }
    return Event(
        name, leaf, integrated_time, hashedrekord_body(digest, signature, leaf),
        "hashedrekord", ("messageSignature", content),
    )


def sign_bytes_event(name, leaf, leaf_key, data: bytes, integrated_time) -> Event:
    # Signing the bytes with ECDSA-SHA256 is signing their SHA-256 prehashed: the same signature.
    signature = leaf_key.sign(data, ec.ECDSA(hashes.SHA256()))
    digest = hashlib.sha256(data).digest()
    leaf_key.public_key().verify(signature, digest, ec.ECDSA(Prehashed(hashes.SHA256())))
    content = {
        "messageDigest": {"algorithm": "SHA2_256", "digest": b64(digest)},
        "signature": b64(signature),
    }
    return Event(
        name, leaf, integrated_time, hashedrekord_body(digest, signature, leaf),
        "hashedrekord", ("messageSignature", content),
    )


def sign_dsse_event(name, leaf, leaf_key, payload: bytes, integrated_time) -> Event:
    signature = leaf_key.sign(pae(INTOTO_PAYLOAD_TYPE, payload), ec.ECDSA(hashes.SHA256()))
    envelope = {
        "payload": b64(payload),
        "payloadType": INTOTO_PAYLOAD_TYPE,
        "signatures": [{"sig": b64(signature)}],
    }
    # envelopeHash: SHA-256 of the envelope JSON, here taken as this compact serialization.
    # Verifiers do not recompute it (a JSON envelope has no canonical form); they check the
    # payload hash and the signatures.
    envelope_json = json.dumps(envelope, separators=(",", ":")).encode()
    body = canonical_json(
        {
            "apiVersion": "0.0.1",
            "kind": "dsse",
            "spec": {
                "envelopeHash": {
                    "algorithm": "sha256",
                    "value": hashlib.sha256(envelope_json).hexdigest(),
                },
                "payloadHash": {
                    "algorithm": "sha256",
                    "value": hashlib.sha256(payload).hexdigest(),
                },
                "signatures": [{"signature": b64(signature), "verifier": cert_pem_b64(leaf)}],
            },
        }
    )
    return Event(name, leaf, integrated_time, body, "dsse", ("dsseEnvelope", envelope))


# ---------------------------------------------------------------------------------------------
# The log: an RFC 6962 Merkle tree, a signed checkpoint, signed entry timestamps


def leaf_hash(body: bytes) -> bytes:
    return hashlib.sha256(b"\x00" + body).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(b"\x01" + left + right).digest()


def split_point(n: int) -> int:
    k = 1
    while k * 2 < n:
        k *= 2
    return k


def mth(leaves: list[bytes]) -> bytes:
    if len(leaves) == 1:
        return leaves[0]
    k = split_point(len(leaves))
    return node_hash(mth(leaves[:k]), mth(leaves[k:]))


def audit_path(m: int, leaves: list[bytes]) -> list[bytes]:
    """RFC 6962 §2.1.1 PATH(m, D[n]), lowest level first."""
    if len(leaves) == 1:
        return []
    k = split_point(len(leaves))
    if m < k:
        return audit_path(m, leaves[:k]) + [mth(leaves[k:])]
    return audit_path(m - k, leaves[k:]) + [mth(leaves[:k])]


def root_from_path(index: int, size: int, leaf: bytes, path: list[bytes]) -> bytes:
    """Independent recomputation (RFC 9162 §2.1.3.2) to self-check the proofs."""
    fn, sn, r = index, size - 1, leaf
    for p in path:
        if sn == 0:
            raise ValueError("proof too long")
        if fn % 2 == 1 or fn == sn:
            r = node_hash(p, r)
            if fn % 2 == 0:
                while fn % 2 == 0 and fn != 0:
                    fn >>= 1
                    sn >>= 1
        else:
            r = node_hash(r, p)
        fn >>= 1
        sn >>= 1
    if sn != 0:
        raise ValueError("proof too short")
    return r


def signed_note(body: str, key) -> str:
    keyhint = key_id(REKOR_KEY.public_key())[:4]
    signature = key.sign(body.encode(), ec.ECDSA(hashes.SHA256()))
    return body + "\n" + f"\u2014 {REKOR_HOST} {b64(keyhint + signature)}\n"


def signed_entry_timestamp(body: bytes, integrated_time: int, log_index: int, key) -> bytes:
    payload = canonical_json(
        {
            "body": b64(body),
            "integratedTime": integrated_time,
            "logID": REKOR_LOG_ID.hex(),
            "logIndex": log_index,
        }
    )
    return key.sign(payload, ec.ECDSA(hashes.SHA256()))


class Log:
    def __init__(self, events: list[Event]):
        # Entries in time order, with other people's entries around them.
        bodies: list[bytes] = []
        self.index: dict[str, int] = {}
        filler = 0
        for event in sorted(events, key=lambda e: e.integrated_time):
            for _ in range(2):
                bodies.append(self.filler(filler))
                filler += 1
            self.index[event.name] = len(bodies)
            bodies.append(event.body)
        for _ in range(3):
            bodies.append(self.filler(filler))
            filler += 1
        self.leaves = [leaf_hash(b) for b in bodies]
        self.size = len(self.leaves)
        self.root = mth(self.leaves)
        note = f"{CHECKPOINT_ORIGIN}\n{self.size}\n{b64(self.root)}\n"
        self.checkpoint = signed_note(note, REKOR_KEY)
        self.rogue_checkpoint = signed_note(note, ROGUE_KEY)

    @staticmethod
    def filler(i: int) -> bytes:
        digest = hashlib.sha256(b"someone else's artifact %d" % i).hexdigest()
        return canonical_json(
            {"apiVersion": "0.0.1", "kind": "hashedrekord", "spec": {"data": {"hash": {
                "algorithm": "sha256", "value": digest}}}}
        )

    def entry(self, event: Event, *, set_key=None, checkpoint=None, forge_sibling=False):
        index = self.index[event.name]
        path = audit_path(index, self.leaves)
        assert root_from_path(index, self.size, leaf_hash(event.body), path) == self.root
        if forge_sibling:
            forged = bytearray(path[0])
            forged[0] ^= 0x01
            path = [bytes(forged)] + path[1:]
            assert root_from_path(index, self.size, leaf_hash(event.body), path) != self.root
        integrated = int(event.integrated_time.timestamp())
        global_index = SHARD_OFFSET + index
        set_sig = signed_entry_timestamp(
            event.body, integrated, global_index, set_key or REKOR_KEY
        )
        return {
            "logIndex": str(global_index),
            "logId": {"keyId": b64(REKOR_LOG_ID)},
            "kindVersion": {"kind": event.kind, "version": "0.0.1"},
            "integratedTime": str(integrated),
            "inclusionPromise": {"signedEntryTimestamp": b64(set_sig)},
            "inclusionProof": {
                "logIndex": str(index),
                "rootHash": b64(self.root),
                "treeSize": str(self.size),
                "hashes": [b64(h) for h in path],
                "checkpoint": {"envelope": checkpoint or self.checkpoint},
            },
            "canonicalizedBody": b64(event.body),
        }

    def bundle(self, event: Event, **entry_options) -> dict:
        field, content = event.content
        return {
            "mediaType": BUNDLE_MEDIA_TYPE,
            "verificationMaterial": {
                "certificate": {
                    "rawBytes": b64(event.cert.public_bytes(serialization.Encoding.DER))
                },
                "tlogEntries": [self.entry(event, **entry_options)],
            },
            field: content,
        }


# ---------------------------------------------------------------------------------------------
# Contents

ALPHA_FILES = {
    "SKILL.md": """\
---
name: alpha
description: Greets a person by name with a small Python script and explains the greeting
  rules. Use when a test needs a signed skill with a script and a reference document.
---

# Alpha

Run the greeting script with the name to greet:

```
python3 scripts/run.py Ada
```

It prints `Hello, Ada!`. The rules for names (empty names, surrounding spaces) are in
[the guide](references/guide.md).
""",
    "scripts/run.py": """\
#!/usr/bin/env python3
\"\"\"Print a greeting for the name given on the command line.\"\"\"

import sys


def main() -> int:
    name = " ".join(sys.argv[1:]).strip() or "world"
    print(f"Hello, {name}!")
    return 0


if __name__ == "__main__":
    sys.exit(main())
""",
    "references/guide.md": """\
# Greeting guide

- The name is every argument joined by single spaces, with surrounding spaces removed.
- With no name (or only spaces) the script greets `world`.
- The greeting always ends with an exclamation mark.
""",
}

BETA_FILES = {
    "SKILL.md": """\
---
name: beta
description: Checks a release note against a short checklist before it is published. Use when
  a test needs a signed skill whose signer is an e-mail identity.
---

# Beta

Read the release note, then go through [the checklist](references/checklist.md) item by item
and report each item that does not hold, quoting the line of the note it concerns.
""",
    "references/checklist.md": """\
# Release note checklist

1. The version number matches the tag.
2. Every breaking change is listed first, with what to do about it.
3. Each entry says what changed for the user, not how it was implemented.
""",
}

ARTIFACT_TEXT = "skillc keyless test artifact: signed by a self-made Sigstore instance.\n"

GAMMA_FILES = {
    "SKILL.md": """\
---
name: gamma
description: Converts a temperature between Celsius and Fahrenheit and rounds the result as
  the notes say. Use when a test needs a skill packed into a signed archive.
---

# Gamma

Convert the temperature the user gives: from Celsius, `F = C * 9/5 + 32`; from Fahrenheit,
`C = (F - 32) * 5/9`. How to round and which unit to name are in
[the notes](references/notes.md).
""",
    "references/notes.md": """\
# Conversion notes

- Round the result to one decimal place, halves away from zero.
- Always name the unit of the result (C or F).
- Below absolute zero (-273.15 C, -459.67 F) there is nothing to convert: say so.
""",
}
# skillc's manifest inside the archive, next to the skill's files.
SKILLC_MANIFEST = ".skill-manifest.json"


def pack_gamma(src: Path, archive: Path) -> bytes:
    """The bytes of archive/gamma.skill.tar.gz: packed by $SKILLC, or the one already there."""
    skillc = os.environ.get("SKILLC")
    if skillc:
        with tempfile.TemporaryDirectory() as tmp:
            outputs = [Path(tmp) / "1.skill.tar.gz", Path(tmp) / "2.skill.tar.gz"]
            for out in outputs:
                run = subprocess.run(
                    [skillc, "pack", str(src), "-o", str(out)], capture_output=True, text=True
                )
                if run.returncode != 0:
                    raise SystemExit(f"{skillc} pack failed:\n{run.stdout}{run.stderr}")
            packed = outputs[0].read_bytes()
            assert packed == outputs[1].read_bytes(), "skillc pack is not reproducible"
        archive.parent.mkdir(parents=True, exist_ok=True)
        archive.write_bytes(packed)
    elif not archive.is_file():
        raise SystemExit(f"{archive} is missing: set SKILLC to a skillc binary to pack it")
    data = archive.read_bytes()
    # Whoever packed it, it must hold exactly the files of the source (and the manifest).
    with tarfile.open(archive, "r:gz") as tar:
        members = {m.name: m for m in tar.getmembers()}
        expected = {f"gamma/{rel}" for rel in GAMMA_FILES} | {f"gamma/{SKILLC_MANIFEST}"}
        assert set(members) == expected, f"{archive} holds {sorted(members)}"
        for rel, text in GAMMA_FILES.items():
            member = tar.extractfile(members[f"gamma/{rel}"])
            assert member.read() == text.encode(), f"{archive}: gamma/{rel} differs"
    return data


def write_tree(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode())


def write_json(path: Path, obj, *, compact: bool = False) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if compact:
        # As sigstore-python's Bundle.to_json(): no spaces, the checkpoint's em dash as UTF-8.
        path.write_bytes(json.dumps(obj, separators=(",", ":"), ensure_ascii=False).encode())
    else:
        # Non-ASCII (the em dash) escaped as \u2014, as in some conformance bundles.
        path.write_text(json.dumps(obj, indent=2) + "\n")


def trusted_root() -> dict:
    validity = {"start": rfc3339(VALID_FROM)}
    der = serialization.Encoding.DER
    return {
        "mediaType": TRUSTED_ROOT_MEDIA_TYPE,
        "tlogs": [
            {
                "baseUrl": REKOR_URL,
                "hashAlgorithm": "SHA2_256",
                "publicKey": {
                    "rawBytes": b64(spki_der(REKOR_KEY.public_key())),
                    "keyDetails": "PKIX_ECDSA_P256_SHA_256",
                    "validFor": validity,
                },
                "logId": {"keyId": b64(REKOR_LOG_ID)},
            }
        ],
        "certificateAuthorities": [
            {
                "subject": {"organization": "skillc.test", "commonName": "sigstore"},
                "uri": FULCIO_URL,
                "certChain": {
                    "certificates": [
                        {"rawBytes": b64(INTERMEDIATE_CERT.public_bytes(der))},
                        {"rawBytes": b64(ROOT_CERT.public_bytes(der))},
                    ]
                },
                "validFor": validity,
            }
        ],
        "ctlogs": [
            {
                "baseUrl": CT_URL,
                "hashAlgorithm": "SHA2_256",
                "publicKey": {
                    "rawBytes": b64(spki_der(CT_KEY.public_key())),
                    "keyDetails": "PKIX_ECDSA_P256_SHA_256",
                    "validFor": validity,
                },
                "logId": {"keyId": b64(CT_LOG_ID)},
            }
        ],
        "timestampAuthorities": [],
    }


# Certificate start times (each certificate is valid for 10 minutes from here) and how long
# after it the log integrated the entry.
TIMES = {
    "alpha": utc("2026-03-02T09:14:07Z"),
    "beta": utc("2026-03-02T09:31:40Z"),
    "artifact": utc("2026-03-02T10:02:15Z"),
    "artifact-intoto": utc("2026-03-02T10:05:51Z"),
    "leaf-is-ca": utc("2026-03-02T11:00:03Z"),
    "leaf-no-codesigning-eku": utc("2026-03-02T11:03:29Z"),
    "leaf-expired-at-integrated-time": utc("2026-03-02T11:07:45Z"),
    "sct-missing": utc("2026-03-02T11:20:12Z"),
    "sct-wrong-key": utc("2026-03-02T11:24:58Z"),
    # After every other signing, so that adding it left their log indices as they were.
    "archive": utc("2026-03-02T11:41:09Z"),
}
INTEGRATION_DELAY = dt.timedelta(seconds=23)
# Past the certificate's 10 minutes.
EXPIRED_DELAY = dt.timedelta(minutes=15)


def main() -> None:
    alpha_dir = HERE / "skills" / "alpha"
    beta_dir = HERE / "skills" / "beta"
    file_dir = HERE / "file"
    hostile_dir = HERE / "hostile"
    archive_dir = HERE / "archive"
    write_tree(alpha_dir, ALPHA_FILES)
    write_tree(beta_dir, BETA_FILES)
    write_tree(file_dir, {"artifact.txt": ARTIFACT_TEXT})
    write_tree(archive_dir / "gamma-src" / "gamma", GAMMA_FILES)
    archive_path = archive_dir / "gamma.skill.tar.gz"
    archive = pack_gamma(archive_dir / "gamma-src" / "gamma", archive_path)

    alpha_digest = hash_skill_directory(alpha_dir)
    beta_digest = hash_skill_directory(beta_dir)
    artifact = (file_dir / "artifact.txt").read_bytes()

    alpha_san = x509.UniformResourceIdentifier(ALPHA_IDENTITY)
    beta_san = x509.RFC822Name(BETA_IDENTITY)

    def at(name: str, delay=INTEGRATION_DELAY) -> dt.datetime:
        return TIMES[name] + delay

    events: dict[str, Event] = {}

    leaf, key = make_leaf(san=alpha_san, issuer=GITHUB_ISSUER, not_before=TIMES["alpha"])
    events["alpha"] = sign_digest_event("alpha", leaf, key, alpha_digest, at("alpha"))

    leaf, key = make_leaf(san=beta_san, issuer=EMAIL_ISSUER, not_before=TIMES["beta"])
    events["beta"] = sign_digest_event("beta", leaf, key, beta_digest, at("beta"))

    leaf, key = make_leaf(san=alpha_san, issuer=GITHUB_ISSUER, not_before=TIMES["artifact"])
    events["artifact"] = sign_bytes_event("artifact", leaf, key, artifact, at("artifact"))

    statement = {
        "_type": "https://in-toto.io/Statement/v1",
        "subject": [
            {"name": "artifact.txt", "digest": {"sha256": hashlib.sha256(artifact).hexdigest()}}
        ],
        "predicateType": "https://slsa.dev/provenance/v1",
        "predicate": {
            "buildDefinition": {
                "buildType": "https://actions.github.io/buildtypes/workflow/v1",
                "externalParameters": {
                    "workflow": {
                        "ref": "refs/heads/main",
                        "repository": "https://github.com/acme/skills",
                        "path": ".github/workflows/release.yml",
                    }
                },
            },
            "runDetails": {"builder": {"id": ALPHA_IDENTITY}},
        },
    }
    payload = json.dumps(statement, separators=(",", ":")).encode()
    leaf, key = make_leaf(
        san=alpha_san, issuer=GITHUB_ISSUER, not_before=TIMES["artifact-intoto"]
    )
    events["artifact-intoto"] = sign_dsse_event(
        "artifact-intoto", leaf, key, payload, at("artifact-intoto")
    )

    # The skill archive, signed as `skillc pack --keyless` would: a message signature over
    # the archive's bytes, by the same workflow identity as skills/alpha.
    leaf, key = make_leaf(san=alpha_san, issuer=GITHUB_ISSUER, not_before=TIMES["archive"])
    events["archive"] = sign_bytes_event("archive", leaf, key, archive, at("archive"))

    # Hostile signings of skills/alpha whose certificate is what is wrong.
    leaf, key = make_leaf(
        san=alpha_san, issuer=GITHUB_ISSUER, not_before=TIMES["leaf-is-ca"], ca=True
    )
    events["leaf-is-ca"] = sign_digest_event(
        "leaf-is-ca", leaf, key, alpha_digest, at("leaf-is-ca")
    )
    leaf, key = make_leaf(
        san=alpha_san, issuer=GITHUB_ISSUER, not_before=TIMES["leaf-no-codesigning-eku"],
        eku=ExtendedKeyUsageOID.CLIENT_AUTH,
    )
    events["leaf-no-codesigning-eku"] = sign_digest_event(
        "leaf-no-codesigning-eku", leaf, key, alpha_digest, at("leaf-no-codesigning-eku")
    )
    leaf, key = make_leaf(
        san=alpha_san, issuer=GITHUB_ISSUER,
        not_before=TIMES["leaf-expired-at-integrated-time"],
    )
    events["leaf-expired-at-integrated-time"] = sign_digest_event(
        "leaf-expired-at-integrated-time", leaf, key, alpha_digest,
        at("leaf-expired-at-integrated-time", EXPIRED_DELAY),
    )
    leaf, key = make_leaf(
        san=alpha_san, issuer=GITHUB_ISSUER, not_before=TIMES["sct-missing"], sct="none"
    )
    events["sct-missing"] = sign_digest_event(
        "sct-missing", leaf, key, alpha_digest, at("sct-missing")
    )
    leaf, key = make_leaf(
        san=alpha_san, issuer=GITHUB_ISSUER, not_before=TIMES["sct-wrong-key"], sct="rogue"
    )
    events["sct-wrong-key"] = sign_digest_event(
        "sct-wrong-key", leaf, key, alpha_digest, at("sct-wrong-key")
    )

    log = Log(list(events.values()))

    write_json(HERE / "trusted_root.json", trusted_root())
    # haiku.skills writes sigstore-python's Bundle.to_json(): compact JSON.
    write_json(alpha_dir / "SKILL.sigstore", log.bundle(events["alpha"]), compact=True)
    write_json(beta_dir / "SKILL.sigstore", log.bundle(events["beta"]), compact=True)
    write_json(file_dir / "artifact.txt.sigstore.json", log.bundle(events["artifact"]))
    write_json(
        file_dir / "artifact.txt.intoto.sigstore.json", log.bundle(events["artifact-intoto"])
    )
    write_json(archive_dir / "gamma.skill.tar.gz.sigstore.json", log.bundle(events["archive"]))

    hostile = {
        name: log.bundle(events[name])
        for name in (
            "leaf-is-ca",
            "leaf-no-codesigning-eku",
            "leaf-expired-at-integrated-time",
            "sct-missing",
            "sct-wrong-key",
        )
    }
    # The valid alpha signing, with one part of its log entry forged.
    hostile["inclusion-proof-forged-sibling"] = log.bundle(events["alpha"], forge_sibling=True)
    hostile["checkpoint-wrong-key"] = log.bundle(
        events["alpha"], checkpoint=log.rogue_checkpoint
    )
    hostile["set-wrong-key"] = log.bundle(events["alpha"], set_key=ROGUE_KEY)
    for name, bundle in hostile.items():
        write_json(hostile_dir / f"{name}.sigstore.json", bundle)

    print(f"alpha directory digest: {alpha_digest.hex()}")
    print(f"beta directory digest:  {beta_digest.hex()}")
    print(f"artifact.txt sha256:    {hashlib.sha256(artifact).hexdigest()}")
    print(f"gamma.skill.tar.gz sha256: {hashlib.sha256(archive).hexdigest()}")
    print(f"log: {log.size} leaves, root {log.root.hex()}")
    for name, event in events.items():
        print(
            f"{name}: cert {rfc3339(event.cert.not_valid_before_utc)}.."
            f"{rfc3339(event.cert.not_valid_after_utc)}, integrated "
            f"{rfc3339(event.integrated_time)} ({int(event.integrated_time.timestamp())}), "
            f"logIndex {SHARD_OFFSET + log.index[name]} (shard {log.index[name]})"
        )


if __name__ == "__main__":
    main()
