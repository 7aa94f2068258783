#!/usr/bin/env node
// A second independent check of tests/data/keyless/: @sigstore/verify (sigstore-js), offline,
// with the versions pinned in tests/interop/package.json (@sigstore/verify 3.1.1).
//
//   (cd tests/interop && npm ci)
//   node tests/data/keyless/check_with_sigstore_js.mjs
//
// Not run by CI. Trust material is built by @sigstore/verify's toTrustMaterial from
// trusted_root.json; the Verifier runs with its default thresholds (1 tlog entry, 1 SCT,
// 1 verified timestamp) and a policy of identity (SAN) and issuer (it reads 1.3.6.1.4.1.57264.1.8,
// so this checks that extension's DER encoding; sigstore-python reads .1.1).
//
// sigstore-js verifies a message signature over the artifact's bytes only; the skills are signed
// over the haiku directory digest (prehashed), so for them the signature step is replaced by an
// ECDSA P-256 verification over the digest written here with BigInt arithmetic, after checking
// that the bundle's messageDigest is the directory digest computed here. Every other step
// (chain at the integrated time, SCT, SET, checkpoint, inclusion proof, log entry body, policy) is
// sigstore-js's own. Exits 1 if any valid bundle fails or any hostile bundle passes, except the
// two that @sigstore/verify 3.1.1 cannot refuse (see HOSTILE), reported as GAP.

import { X509Certificate, createHash, createPublicKey } from 'node:crypto';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(join(here, '..', '..', 'interop', 'package.json'));
const { bundleFromJSON } = require('@sigstore/bundle');
const { Verifier, toSignedEntity, toTrustMaterial } = require('@sigstore/verify');
const { TrustedRoot } = require('@sigstore/protobuf-specs');

const ALPHA = {
  subjectAlternativeName:
    'https://github.com/acme/skills/.github/workflows/release.yml@refs/heads/main',
  extensions: { issuer: 'https://token.actions.githubusercontent.com' },
};
const BETA = {
  subjectAlternativeName: 'maintainer@example.com',
  extensions: { issuer: 'https://github.com/login/oauth' },
};
// The error code of @sigstore/verify each hostile bundle must fail with. null: a check that
// @sigstore/verify 3.1.1 does not make (it never asks whether the leaf is a CA, nor for the
// code-signing EKU), so it accepts the bundle; reported as GAP, not as a failure of the data.
const HOSTILE = {
  'leaf-is-ca': null,
  'leaf-no-codesigning-eku': null,
  'leaf-expired-at-integrated-time': 'CERTIFICATE_ERROR',
  'inclusion-proof-forged-sibling': 'TLOG_INCLUSION_PROOF_ERROR',
  'checkpoint-wrong-key': 'TLOG_INCLUSION_PROOF_ERROR',
  'set-wrong-key': 'TLOG_INCLUSION_PROMISE_ERROR',
  'sct-missing': 'CERTIFICATE_ERROR',
  'sct-wrong-key': 'CERTIFICATE_ERROR',
};

// haiku.skills' directory digest for trees without .gitignore.
function skillDigest(dir) {
  const files = [];
  const walk = (d) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else files.push(relative(dir, p).split(sep));
    }
  };
  walk(dir);
  const cmp = (a, b) => {
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
    }
    return a.length - b.length;
  };
  const hash = createHash('sha256');
  for (const parts of files.sort(cmp)) {
    const name = parts[parts.length - 1];
    if (name === 'SKILL.sigstore' || /\.py[co]$/.test(name)) continue;
    if (parts.some((x) => x.startsWith('.') || x === '__pycache__' || x === 'node_modules')) continue;
    hash.update(parts.join('/'), 'utf8');
    hash.update(readFileSync(join(dir, ...parts)));
  }
  return hash.digest();
}

// ECDSA P-256 verification of a DER signature over a 32-byte digest (FIPS 186-4 §6.4.2).
const P = 0xffffffff00000001000000000000000000000000ffffffffffffffffffffffffn;
const N = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n;
const A = P - 3n;
const G = [
  0x6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296n,
  0x4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5n,
];
const mod = (a, m) => ((a % m) + m) % m;
const inv = (a, m) => {
  let [r0, r1, s0, s1] = [mod(a, m), m, 1n, 0n];
  while (r1 !== 0n) {
    const q = r0 / r1;
    [r0, r1, s0, s1] = [r1, r0 - q * r1, s1, s0 - q * s1];
  }
  return mod(s0, m);
};
const add = (p, q) => {
  if (p === null) return q;
  if (q === null) return p;
  if (p[0] === q[0] && mod(p[1] + q[1], P) === 0n) return null;
  const l =
    p[0] === q[0]
      ? mod((3n * p[0] * p[0] + A) * inv(2n * p[1], P), P)
      : mod((q[1] - p[1]) * inv(q[0] - p[0], P), P);
  const x = mod(l * l - p[0] - q[0], P);
  return [x, mod(l * (p[0] - x) - p[1], P)];
};
const mul = (k, p) => {
  let r = null;
  for (; k > 0n; k >>= 1n, p = add(p, p)) if (k & 1n) r = add(r, p);
  return r;
};
const big = (buf) => BigInt('0x' + (buf.toString('hex') || '0'));
function derSignature(sig) {
  // SEQUENCE { INTEGER r, INTEGER s } with short lengths (P-256 signatures are < 128 bytes).
  if (sig[0] !== 0x30 || sig[1] !== sig.length - 2 || sig[2] !== 0x02) throw new Error('bad DER');
  const rl = sig[3];
  const r = sig.subarray(4, 4 + rl);
  if (sig[4 + rl] !== 0x02) throw new Error('bad DER');
  const s = sig.subarray(6 + rl, 6 + rl + sig[5 + rl]);
  return [big(r), big(s)];
}
function verifyPrehashedP256(publicKey, digest, signature) {
  const jwk = publicKey.export({ format: 'jwk' });
  if (jwk.crv !== 'P-256') return false;
  const q = [big(Buffer.from(jwk.x, 'base64url')), big(Buffer.from(jwk.y, 'base64url'))];
  const [r, s] = derSignature(signature);
  if (r <= 0n || r >= N || s <= 0n || s >= N) return false;
  const w = inv(s, N);
  const x = add(mul(mod(big(digest) * w, N), G), mul(mod(r * w, N), q));
  return x !== null && mod(x[0], N) === r;
}

const trustedRoot = TrustedRoot.fromJSON(
  JSON.parse(readFileSync(join(here, 'trusted_root.json'), 'utf8'))
);
const verifier = new Verifier(toTrustMaterial(trustedRoot));
const load = (path) => bundleFromJSON(JSON.parse(readFileSync(join(here, path), 'utf8')));

function skillEntity(bundlePath, digest) {
  const bundle = load(bundlePath);
  const entity = toSignedEntity(bundle, Buffer.alloc(0));
  const { signature, messageDigest } = bundle.content.messageSignature;
  entity.signature.verifySignature = (key) =>
    Buffer.compare(messageDigest.digest, digest) === 0 &&
    verifyPrehashedP256(key.type === "public" ? key : createPublicKey(key), digest, signature);
  return entity;
}

let failures = 0;
function check(label, expectPass, run, expectedCode) {
  let ok;
  let detail = '';
  try {
    run();
    ok = expectPass;
    if (!ok) detail = 'it verified';
    if (!ok && expectedCode === null) {
      console.log(`GAP   ${label}: accepted: @sigstore/verify does not make this check`);
      return;
    }
  } catch (e) {
    detail = `${e.code ?? e.name}: ${e.message}`;
    ok = !expectPass && (expectedCode == null || e.code === expectedCode);
  }
  if (!ok) failures++;
  console.log(`${ok ? 'PASS' : 'FAIL'}  ${label}${detail ? ': ' + detail.slice(0, 200) : ''}`);
}

const alphaDigest = skillDigest(join(here, 'skills', 'alpha'));
const betaDigest = skillDigest(join(here, 'skills', 'beta'));
const artifact = readFileSync(join(here, 'file', 'artifact.txt'));

// The prehashed ECDSA verifier itself: the signed digest verifies, any other does not.
check('prehashed ECDSA check: alpha\'s digest verifies, a changed digest does not', true, () => {
  const bundle = load('skills/alpha/SKILL.sigstore');
  const key = new X509Certificate(bundle.verificationMaterial.content.certificate.rawBytes)
    .publicKey;
  const { signature } = bundle.content.messageSignature;
  const changed = Buffer.from(alphaDigest);
  changed[31] ^= 1;
  if (!verifyPrehashedP256(key, alphaDigest, signature)) throw new Error('true digest refused');
  if (verifyPrehashedP256(key, changed, signature)) throw new Error('changed digest accepted');
});

check('skills/alpha/SKILL.sigstore verifies', true, () =>
  verifier.verify(skillEntity('skills/alpha/SKILL.sigstore', alphaDigest), ALPHA)
);
check('skills/beta/SKILL.sigstore verifies', true, () =>
  verifier.verify(skillEntity('skills/beta/SKILL.sigstore', betaDigest), BETA)
);
check('file/artifact.txt.sigstore.json verifies', true, () =>
  verifier.verify(toSignedEntity(load('file/artifact.txt.sigstore.json'), artifact), ALPHA)
);
const archive = readFileSync(join(here, 'archive', 'gamma.skill.tar.gz'));
check('archive/gamma.skill.tar.gz.sigstore.json verifies', true, () =>
  verifier.verify(toSignedEntity(load('archive/gamma.skill.tar.gz.sigstore.json'), archive), ALPHA)
);
check(
  'archive/gamma.skill.tar.gz with a changed byte is refused',
  false,
  () => {
    const changed = Buffer.from(archive);
    changed[changed.length >> 1] ^= 1;
    verifier.verify(toSignedEntity(load('archive/gamma.skill.tar.gz.sigstore.json'), changed), ALPHA);
  },
  'SIGNATURE_ERROR'
);
check('file/artifact.txt.intoto.sigstore.json verifies (and names artifact.txt)', true, () => {
  const bundle = load('file/artifact.txt.intoto.sigstore.json');
  verifier.verify(toSignedEntity(bundle), ALPHA);
  const statement = JSON.parse(bundle.content.dsseEnvelope.payload.toString('utf8'));
  const want = createHash('sha256').update(artifact).digest('hex');
  if (!statement.subject.some((s) => s.digest.sha256 === want)) throw new Error('subject');
});
check(
  'skills/alpha under beta\'s identity is refused',
  false,
  () => verifier.verify(skillEntity('skills/alpha/SKILL.sigstore', alphaDigest), BETA),
  'UNTRUSTED_SIGNER_ERROR'
);
for (const [name, code] of Object.entries(HOSTILE)) {
  check(
    `hostile/${name}.sigstore.json is refused`,
    false,
    () => verifier.verify(skillEntity(`hostile/${name}.sigstore.json`, alphaDigest), ALPHA),
    code
  );
}
console.log(`${failures} failed`);
process.exit(failures ? 1 : 0);
