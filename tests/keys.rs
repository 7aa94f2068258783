//! Keys people actually have (package.md, keygen / sign / verify): SEC1 keys from `openssl
//! ecparam`, encrypted keys OpenSSL can read back, and a precise message for every key skillc
//! cannot use — another curve or algorithm, the wrong half of the pair, a cipher it does not
//! implement, a cost it will not pay — instead of an ASN.1 error. Key files that are devices,
//! FIFOs or huge are refused at once.
//!
//! The P-384, Ed25519 and encrypted keys below are throwaway keys written by OpenSSL 3.0; the
//! RSA key and the costly scrypt key are built byte by byte.

use std::fs;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use base64::Engine;
use base64::engine::general_purpose::STANDARD as BASE64;

struct Run {
    code: Option<i32>,
    stderr: String,
}

/// Runs skillc in `dir`; a run that takes over 20 s (a hang on a FIFO or a device) fails.
fn skillc(dir: &Path, args: &[&str], password: Option<&str>) -> Run {
    let mut command = Command::new(env!("CARGO_BIN_EXE_skillc"));
    command
        .current_dir(dir)
        .env("HOME", dir.join("home"))
        .env_remove("SKILLC_KEY_PASSWORD")
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped());
    if let Some(password) = password {
        command.env("SKILLC_KEY_PASSWORD", password);
    }
    let mut child = command.spawn().unwrap();
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > Duration::from_secs(20) {
            child.kill().unwrap();
            panic!("skillc {args:?} hung");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    Run {
        code: out.status.code(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

fn pem(label: &str, der: &[u8]) -> String {
    let body = BASE64.encode(der);
    let lines: Vec<&str> = body
        .as_bytes()
        .chunks(64)
        .map(|c| std::str::from_utf8(c).unwrap())
        .collect();
    format!(
        "-----BEGIN {label}-----\n{}\n-----END {label}-----\n",
        lines.join("\n")
    )
}

fn mkfifo(path: &Path) {
    let c = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
}

/// A directory with `a.txt` and a key pair `me.key` / `me.pub` from keygen.
fn setup() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    fs::write(tmp.path().join("a.txt"), b"hello\n").unwrap();
    let run = skillc(tmp.path(), &["keygen", "--out", "me"], None);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    tmp
}

const P384_PKCS8: &str = "-----BEGIN PRIVATE KEY-----
MIG2AgEAMBAGByqGSM49AgEGBSuBBAAiBIGeMIGbAgEBBDCt8vFNh6d0yyS0hfP1
I46Hb0NkyKo7BEM9T3jYz2jRsCrXDId9WQirl+Gw3Ly7UK2hZANiAATKuaZ3qVoK
3MpXpoE8mynGjATsq6qkiqUW4VEax6rGzKfG0jLwZWvD7auDogv1ddxVu90o6wDb
d2irjy9pWvwoM/0rlVPv6Ut2dKll7Bbeb+Sm9EoW07IEjVJo84wWxos=
-----END PRIVATE KEY-----
";

const P384_PUBLIC: &str = "-----BEGIN PUBLIC KEY-----
MHYwEAYHKoZIzj0CAQYFK4EEACIDYgAEyrmmd6laCtzKV6aBPJspxowE7KuqpIql
FuFRGseqxsynxtIy8GVrw+2rg6IL9XXcVbvdKOsA23doq48vaVr8KDP9K5VT7+lL
dnSpZewW3m/kpvRKFtOyBI1SaPOMFsaL
-----END PUBLIC KEY-----
";

const P384_SEC1: &str = "-----BEGIN EC PRIVATE KEY-----
MIGkAgEBBDC4MR8X5a2DGh8HvIdibJiP+pd5V7STwgIrcb/CaceTwONI8oHcVwhY
0rqe2I5iGMKgBwYFK4EEACKhZANiAATejDzs087LSKWTcqHl5fJhdpfjJPC8DKmq
FjOO5lqLNM1K8yBJT773h765XR/jEPdJ6FS07iXV3fRZ2w0VNp83wVcRmGuzn23u
J/Vs/awSCpts2wB7OopbHbTgPUX4R0E=
-----END EC PRIVATE KEY-----
";

const ED25519: &str = "-----BEGIN PRIVATE KEY-----
MC4CAQAwBQYDK2VwBCIEIND3Y2sl9EUWUblZPIrbBf9fG6Dr7G8EiLvEXrUl5lzQ
-----END PRIVATE KEY-----
";

/// `openssl pkcs8 -topk8 -v2 des3` (PBES2, PBKDF2-HMAC-SHA256, DES-EDE3-CBC), password `pw`.
const DES3: &str = "-----BEGIN ENCRYPTED PRIVATE KEY-----
MIHjME4GCSqGSIb3DQEFDTBBMCkGCSqGSIb3DQEFDDAcBAibKAJfYEVDGwICCAAw
DAYIKoZIhvcNAgkFADAUBggqhkiG9w0DBwQIdByZma0AkcIEgZBAjQ0dwtpDVZOB
CKr09w0offQ3EXwhed0Thpz5s1vwtcO3wlWzf6sUkV7j21PFNxINcSMFUX5kaAoC
RZrRgmRbR62+4PVc96rOts01z2B8NDHhK5XUp/+M+SSL+twaHIms+Bfp1QLV+W0G
+wUnyqLu4oZDZXpaLL7jugyUc2MWGn0YIkjzNpfB6Akvi6Rgja8=
-----END ENCRYPTED PRIVATE KEY-----
";

/// `openssl pkcs8 -topk8 -v1 PBE-SHA1-3DES` (PKCS#12 PBES1), password `pw`.
const PBE_SHA1_3DES: &str = "-----BEGIN ENCRYPTED PRIVATE KEY-----
MIGxMBwGCiqGSIb3DQEMAQMwDgQI+IeVcVUm79kCAggABIGQaR6C3P0WuNrYhAoE
kX3yHAmjAmE4C+tXZS77oWHbs9k+XRrbK4G/SDbeiy4ImQxiWRoKgouc3Jpawuz8
s/CjcNZ9f3udK6iyXKkceXR/vRUtQFPUlIY6uhU3HcdvUkY8VhB1NcZfkbIzt2JD
Y8F7aO6xW25NX7osAkj9L62HgpPaVy6sjftZLWlRiJrTfKmu
-----END ENCRYPTED PRIVATE KEY-----
";

/// `openssl pkcs8 -topk8 -v2 aes-256-cbc -v2prf hmacWithSHA1`, password `pw`.
const HMAC_SHA1: &str = "-----BEGIN ENCRYPTED PRIVATE KEY-----
MIHeMEkGCSqGSIb3DQEFDTA8MBsGCSqGSIb3DQEFDDAOBAjNZsayPj6pLwICCAAw
HQYJYIZIAWUDBAEqBBDQDPFQEP66Z5C9W9AGQmaBBIGQqeRbzHdjW1qR68DV+Oia
Li0zDgztz9F0Ek6Ztun7b//2LNHjr+w57xKKQGuzEMtHleUj1DQykBjx3rj2nenw
HJxxsFv9WH1NUns3q5efmA52dHXsy+LjVeqLxlZIRvhZbDUpE0d4kl3o05CziAum
n/NXaXIc5vIkm1DW4HkAzHUhWjB0WohG2j40ecNj9vnx
-----END ENCRYPTED PRIVATE KEY-----
";

/// `openssl ec -aes256`: the legacy PEM encryption with Proc-Type / DEK-Info headers.
const LEGACY: &str = "-----BEGIN EC PRIVATE KEY-----
Proc-Type: 4,ENCRYPTED
DEK-Info: AES-256-CBC,51BDB3205E149D8D785D8CD4E7C31BD2

iE1wuN3UpFMyydi4liTzHNeNXsIEG35hR/uPruJjzN40YQZDlFUX393ydV3jbRK9
vFL15FNwmQKnxJnalqBR8Uf1PLfeqbdbkdUQ4r68M8YI3XEPXtkuOW7G+42roy3d
vKARthhegShZDdxAchW1bpigtE90CqDSQqiMqaNZYaY=
-----END EC PRIVATE KEY-----
";

const SIGN_WITH: &str =
    "skillc signs with ECDSA P-256 private keys — generate one with `skillc keygen`";
const REENCRYPT: &str = "re-encrypt it with AES-256: \
    `openssl pkcs8 -topk8 -v2 aes-256-cbc -in OLD.key -out NEW.key`";

/// A PKCS#8 RSA key, byte by byte: only its algorithm identifier matters.
fn rsa_pkcs8() -> String {
    let mut der = vec![0x30, 0x14, 0x02, 0x01, 0x00, 0x30, 0x0d, 0x06, 0x09];
    der.extend([0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01]); // rsaEncryption
    der.extend([0x05, 0x00, 0x04, 0x00]);
    pem("PRIVATE KEY", &der)
}

#[test]
fn keys_of_other_kinds_are_named() {
    let tmp = setup();
    let cases: Vec<(&str, String, String)> = vec![
        (
            "p384.key",
            P384_PKCS8.into(),
            format!("an ECDSA P-384 key; {SIGN_WITH}"),
        ),
        (
            "p384-sec1.key",
            P384_SEC1.into(),
            format!("an ECDSA P-384 key; {SIGN_WITH}"),
        ),
        (
            "ed.key",
            ED25519.into(),
            format!("an Ed25519 key; {SIGN_WITH}"),
        ),
        ("rsa.key", rsa_pkcs8(), format!("an RSA key; {SIGN_WITH}")),
        (
            "pkcs1.key",
            pem("RSA PRIVATE KEY", &[0x30, 0x00]),
            format!("an RSA private key; {SIGN_WITH}"),
        ),
        (
            "cert.pem",
            pem("CERTIFICATE", &[0x30, 0x00]),
            format!("an X.509 certificate, not a key; {SIGN_WITH}"),
        ),
        (
            "junk.key",
            "hello\n".into(),
            "not a PEM key (no `-----BEGIN …-----` block); skillc reads PEM keys such as \
             `skillc keygen` writes"
                .into(),
        ),
        (
            "params.key",
            "-----BEGIN EC PARAMETERS-----\nBggqhkjOPQMBBw==\n-----END EC PARAMETERS-----\n".into(),
            "holds only EC parameters, no key".into(),
        ),
        (
            "legacy.key",
            LEGACY.into(),
            format!(
                "encrypted in OpenSSL's legacy PEM format (Proc-Type header), which skillc \
                 does not read; {REENCRYPT}"
            ),
        ),
    ];
    for (name, text, reason) in cases {
        fs::write(tmp.path().join(name), text).unwrap();
        let run = skillc(tmp.path(), &["sign", "a.txt", "--key", name], Some("pw"));
        assert_eq!(run.code, Some(2), "{name}: {}", run.stderr);
        assert_eq!(run.stderr, format!("error: `{name}`: {reason}\n"), "{name}");
        assert!(!tmp.path().join("a.txt.sigstore.json").exists());
    }
    fs::write(tmp.path().join("p384.pub"), P384_PUBLIC).unwrap();
    let run = skillc(tmp.path(), &["verify", "a.txt", "--key", "p384.pub"], None);
    assert_eq!(run.code, Some(2));
    assert_eq!(
        run.stderr,
        "error: `p384.pub`: an ECDSA P-384 public key; skillc verifies ECDSA P-256 signatures \
         (keys from `skillc keygen`)\n"
    );
}

#[test]
fn encryption_skillc_cannot_read_is_named_not_called_a_wrong_password() {
    let tmp = setup();
    let cases = [
        ("des3.key", DES3, "cipher (des-ede3-cbc)"),
        (
            "pbe1.key",
            PBE_SHA1_3DES,
            "scheme (pbeWithSHAAnd3-KeyTripleDES-CBC)",
        ),
        (
            "sha1.key",
            HMAC_SHA1,
            "key derivation (PBKDF2 with hmacWithSHA1)",
        ),
    ];
    for (name, text, what) in cases {
        fs::write(tmp.path().join(name), text).unwrap();
        // With the right password, and without one: the scheme is the problem either way.
        for password in [Some("pw"), None] {
            let run = skillc(tmp.path(), &["sign", "a.txt", "--key", name], password);
            assert_eq!(run.code, Some(2), "{name}");
            assert_eq!(
                run.stderr,
                format!("error: `{name}`: encrypted with an unsupported {what}; {REENCRYPT}\n"),
                "{name}"
            );
        }
    }
}

#[test]
fn wrong_half_of_the_pair_says_which_file_to_use() {
    let tmp = setup();
    let run = skillc(tmp.path(), &["sign", "a.txt", "--key", "me.pub"], None);
    assert_eq!(run.code, Some(2));
    assert_eq!(
        run.stderr,
        "error: `me.pub`: this is a public key; sign with the private key `me.key`\n"
    );
    let run = skillc(tmp.path(), &["verify", "a.txt", "--key", "me.key"], None);
    assert_eq!(run.code, Some(2));
    assert_eq!(
        run.stderr,
        "error: `me.key`: this is a private key; verify with the public key `me.pub`\n"
    );
    // Without a sibling file the message still says what the file is.
    fs::copy(tmp.path().join("me.pub"), tmp.path().join("lonely.pem")).unwrap();
    let run = skillc(tmp.path(), &["sign", "a.txt", "--key", "lonely.pem"], None);
    assert_eq!(
        run.stderr,
        "error: `lonely.pem`: this is a public key; sign with the private key\n"
    );
}

/// `openssl ecparam -genkey -name prime256v1` writes an EC PARAMETERS block, then a SEC1 key.
#[test]
fn sec1_keys_as_openssl_ecparam_writes_them_sign() {
    let tmp = setup();
    let pkcs8 = fs::read_to_string(tmp.path().join("me.key")).unwrap();
    let key = skillc::sign::signing_key(&pkcs8, None).unwrap();
    let sec1 = p256::SecretKey::from(&key)
        .to_sec1_pem(p256::pkcs8::LineEnding::LF)
        .unwrap();
    assert!(sec1.starts_with("-----BEGIN EC PRIVATE KEY-----\n"));
    let text = format!(
        "-----BEGIN EC PARAMETERS-----\nBggqhkjOPQMBBw==\n-----END EC PARAMETERS-----\n{}",
        sec1.as_str()
    );
    fs::write(tmp.path().join("ec.key"), text).unwrap();
    let run = skillc(tmp.path(), &["sign", "a.txt", "--key", "ec.key"], None);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let run = skillc(tmp.path(), &["verify", "a.txt", "--key", "me.pub"], None);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(
        run.stderr.starts_with("OK: a.txt (key hint "),
        "{}",
        run.stderr
    );
}

/// Key files that are a device, a FIFO, a link to a device, or too large are refused at once.
#[test]
fn key_files_are_read_capped_and_never_block() {
    let tmp = setup();
    mkfifo(&tmp.path().join("fifo.key"));
    std::os::unix::fs::symlink("/dev/zero", tmp.path().join("zero.key")).unwrap();
    let big = fs::File::create(tmp.path().join("big.key")).unwrap();
    big.set_len(64 * 1024 + 1).unwrap();
    let cases = [
        ("fifo.key", "not a regular file"),
        ("zero.key", "not a regular file"),
        ("/dev/zero", "not a regular file"),
        ("big.key", "the file is 65537 bytes; the limit is 65536"),
    ];
    for (name, reason) in cases {
        let run = skillc(tmp.path(), &["sign", "a.txt", "--key", name], None);
        assert_eq!(run.code, Some(2), "{name}");
        assert_eq!(
            run.stderr,
            format!("error: reading the key `{name}`: {reason}\n")
        );
        let run = skillc(tmp.path(), &["verify", "a.txt", "--key", name], None);
        assert_eq!(run.code, Some(2), "{name}");
        assert_eq!(
            run.stderr,
            format!("error: reading the public key `{name}`: {reason}\n")
        );
    }
}

/// An encrypted key that asks scrypt for more work than skillc will do is refused before any
/// key derivation (a hostile key must not take minutes or gigabytes to reject).
#[test]
fn costly_scrypt_parameters_are_refused_up_front() {
    let tmp = tempfile::tempdir().unwrap();
    fs::write(tmp.path().join("a.txt"), b"a").unwrap();
    let run = skillc(tmp.path(), &["keygen", "--out", "enc"], Some("pw"));
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let text = fs::read_to_string(tmp.path().join("enc.key")).unwrap();
    let body: String = text.lines().filter(|l| !l.starts_with("-----")).collect();
    let mut der = BASE64.decode(body).unwrap();
    // scrypt-params: ... INTEGER N=16384, INTEGER r=8, INTEGER p=1 -> p=127.
    let params = [0x02, 0x02, 0x40, 0x00, 0x02, 0x01, 0x08, 0x02, 0x01, 0x01];
    let at = der
        .windows(params.len())
        .position(|w| w == params)
        .expect("keygen writes N=2^14, r=8, p=1");
    der[at + params.len() - 1] = 0x7f;
    fs::write(
        tmp.path().join("costly.key"),
        pem("ENCRYPTED PRIVATE KEY", &der),
    )
    .unwrap();
    let started = Instant::now();
    let run = skillc(
        tmp.path(),
        &["sign", "a.txt", "--key", "costly.key"],
        Some("pw"),
    );
    assert!(started.elapsed() < Duration::from_secs(5));
    assert_eq!(run.code, Some(2));
    assert_eq!(
        run.stderr,
        format!(
            "error: `costly.key`: encrypted with scrypt parameters too costly to decrypt \
             (N=16384, r=8, p=127: 16 MiB and N·r·p = 16646144; the limits are 256 MiB and \
             4194304); {REENCRYPT}\n"
        )
    );
}

#[test]
fn wrong_password_is_called_so() {
    let tmp = tempfile::tempdir().unwrap();
    fs::write(tmp.path().join("a.txt"), b"a").unwrap();
    assert_eq!(
        skillc(tmp.path(), &["keygen", "--out", "enc"], Some("right")).code,
        Some(0)
    );
    let run = skillc(
        tmp.path(),
        &["sign", "a.txt", "--key", "enc.key"],
        Some("wrong"),
    );
    assert_eq!(run.code, Some(2));
    assert_eq!(
        run.stderr,
        "error: `enc.key`: cannot decrypt the key: wrong password\n"
    );
}

/// keygen's encrypted keys use scrypt N=2^14, r=8, p=1 (16 MiB), which OpenSSL 3 reads under
/// its default 32 MiB limit; OpenSSL's own SEC1 keys sign, and its verifier accepts the result.
#[test]
fn openssl_reads_keygen_keys_and_skillc_reads_openssl_keys() {
    let has_openssl = Command::new("openssl")
        .arg("version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !has_openssl {
        assert!(
            std::env::var_os("SKILLC_REQUIRE_OPENSSL").is_none_or(|v| v != "1"),
            "openssl is missing and SKILLC_REQUIRE_OPENSSL=1"
        );
        eprintln!("note: openssl is not installed; skipping the OpenSSL interoperability test");
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    fs::write(dir.join("a.txt"), b"hello\n").unwrap();
    let run = skillc(dir, &["keygen", "--out", "enc"], Some("s3cret"));
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let openssl = |args: &[&str]| {
        Command::new("openssl")
            .current_dir(dir)
            .env("P", "s3cret")
            .args(args)
            .output()
            .unwrap()
    };
    let out = openssl(&["pkey", "-in", "enc.key", "-passin", "env:P", "-noout"]);
    assert!(
        out.status.success(),
        "openssl cannot read keygen's encrypted key: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    // openssl ecparam -genkey: EC PARAMETERS + SEC1 key; sign with skillc, verify with openssl.
    let out = openssl(&[
        "ecparam",
        "-genkey",
        "-name",
        "prime256v1",
        "-out",
        "ec.key",
    ]);
    assert!(out.status.success());
    assert!(
        fs::read_to_string(dir.join("ec.key"))
            .unwrap()
            .starts_with("-----BEGIN EC PARAMETERS-----")
    );
    assert!(
        openssl(&["ec", "-in", "ec.key", "-pubout", "-out", "ec.pub"])
            .status
            .success()
    );
    let run = skillc(dir, &["sign", "a.txt", "--key", "ec.key"], None);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let bundle: serde_json::Value =
        serde_json::from_slice(&fs::read(dir.join("a.txt.sigstore.json")).unwrap()).unwrap();
    let signature = BASE64
        .decode(bundle["messageSignature"]["signature"].as_str().unwrap())
        .unwrap();
    fs::write(dir.join("a.sig"), signature).unwrap();
    let out = openssl(&[
        "dgst",
        "-sha256",
        "-verify",
        "ec.pub",
        "-signature",
        "a.sig",
        "a.txt",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let run = skillc(dir, &["verify", "a.txt", "--key", "ec.pub"], None);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
}
