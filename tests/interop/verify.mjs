#!/usr/bin/env node
// Independent verifier for skillc's key-based Sigstore bundles (v0.3,
// messageSignature, publicKey hint, ECDSA P-256 / SHA-256).
//
// Usage: node tests/interop/verify.mjs ARTIFACT BUNDLE PUBKEY_PEM
//
// The signature is checked by @sigstore/verify's own Verifier, with trust
// material built by its toTrustMaterial: the only trusted key is PUBKEY_PEM,
// found under its hint (base64 of SHA-256 of the SPKI DER). No transparency
// log, certificate transparency or timestamp is required (all thresholds 0),
// as @sigstore/verify allows for key-based bundles.
//
// One check is added on top: for a messageSignature bundle without tlog
// entries, @sigstore/verify 3.1.1's Verifier never compares
// messageSignature.messageDigest with the artifact (it only uses
// compareDigest when checking a tlog entry body), so a bundle with a wrong
// digest would still pass. This script therefore also requires the digest
// algorithm to be SHA2_256 and the digest to equal SHA-256(artifact), using
// the signed entity's own compareDigest.
//
// Exit codes: 0 verified, 1 verification failed, 2 usage error.

import { createHash, createPublicKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';

import { bundleFromJSON } from '@sigstore/bundle';
import { Verifier, toSignedEntity, toTrustMaterial } from '@sigstore/verify';

// Enum values of @sigstore/protobuf-specs (HashAlgorithm.SHA2_256 and
// PublicKeyDetails.PKIX_ECDSA_P256_SHA_256); not imported so that only
// @sigstore/verify and @sigstore/bundle are direct dependencies.
const HASH_ALGORITHM_SHA2_256 = 1;
const PKIX_ECDSA_P256_SHA_256 = 5;

function usage(message) {
  if (message) process.stderr.write(`${message}\n`);
  process.stderr.write(
    `usage: node ${basename(process.argv[1] ?? 'verify.mjs')} ARTIFACT BUNDLE PUBKEY_PEM\n`
  );
  process.exit(2);
}

function fail(message) {
  process.stdout.write(`${message}\n`);
  process.exit(1);
}

const args = process.argv.slice(2);
if (args.length !== 3) usage(`expected 3 arguments, got ${args.length}`);
const [artifactPath, bundlePath, keyPath] = args;

let artifact, bundleText, keyPem;
try {
  artifact = readFileSync(artifactPath);
  bundleText = readFileSync(bundlePath, 'utf8');
  keyPem = readFileSync(keyPath, 'utf8');
} catch (e) {
  usage(`cannot read input: ${e.message}`);
}

try {
  // Trusted key: the given SPKI PEM, registered under its hint.
  const spkiDer = createPublicKey(keyPem).export({ type: 'spki', format: 'der' });
  const hint = createHash('sha256').update(spkiDer).digest('base64');
  const trustedRoot = {
    mediaType: 'application/vnd.dev.sigstore.trustedroot+json;version=0.1',
    tlogs: [],
    certificateAuthorities: [],
    ctlogs: [],
    timestampAuthorities: [],
  };
  const trustMaterial = toTrustMaterial(trustedRoot, {
    [hint]: { rawBytes: spkiDer, keyDetails: PKIX_ECDSA_P256_SHA_256, validFor: undefined },
  });

  const bundle = bundleFromJSON(JSON.parse(bundleText));
  if (bundle.content?.$case !== 'messageSignature') {
    fail(`unsupported bundle content: ${bundle.content?.$case}`);
  }
  const entity = toSignedEntity(bundle, artifact);

  const verifier = new Verifier(trustMaterial, {
    ctlogThreshold: 0,
    tlogThreshold: 0,
    timestampThreshold: 0,
  });
  verifier.verify(entity);

  // Not checked by the Verifier for this kind of bundle (see above).
  const { messageDigest } = bundle.content.messageSignature;
  if (messageDigest.algorithm !== HASH_ALGORITHM_SHA2_256) {
    fail(`messageDigest.algorithm is not SHA2_256 (got ${messageDigest.algorithm})`);
  }
  const artifactDigest = createHash('sha256').update(artifact).digest();
  if (!entity.signature.compareDigest(artifactDigest)) {
    fail('messageDigest.digest does not match the SHA-256 of the artifact');
  }
} catch (e) {
  // VerificationError carries a code (e.g. SIGNATURE_ERROR); the bundle's
  // ValidationError lists the offending fields.
  let message = e?.message ?? String(e);
  if (e?.code) message = `${e.code}: ${message}`;
  if (Array.isArray(e?.fields)) message += `: ${e.fields.join(', ')}`;
  fail(message);
}

process.stdout.write('verified\n');
process.exit(0);
