//! Signing and verifying stream what they do not keep: peak memory stays far below the
//! artifact's size. A test binary of its own, so that no other test's memory can show in the
//! measured child (Linux carries the parent's high-water mark into a forked child).

mod common;

use std::io::Write;
use std::path::Path;

use common::skillc_watched as skillc;

fn sparse(path: &Path, head: &[u8], len: u64) {
    let mut file = std::fs::File::create(path).unwrap();
    file.write_all(head).unwrap();
    file.set_len(len).unwrap();
}

#[test]
fn large_artifacts_are_streamed_not_loaded() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    assert_eq!(skillc(root, &["keygen", "--out", "me"]).code, Some(0));
    // 300 MiB, sparse: signing and verifying it must not hold it in memory.
    sparse(&root.join("big.bin"), b"data", 300 * 1024 * 1024);
    let run = skillc(root, &["sign", "big.bin", "--key", "me.key"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(
        run.max_rss_kib < 64 * 1024,
        "sign used {} KiB",
        run.max_rss_kib
    );
    let run = skillc(root, &["verify", "big.bin", "--key", "me.pub"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(
        run.stderr.starts_with("OK: big.bin (key hint "),
        "{}",
        run.stderr
    );
    assert!(
        run.max_rss_kib < 64 * 1024,
        "verify used {} KiB",
        run.max_rss_kib
    );
    // An archive larger than any the reader accepts is refused without being loaded.
    let limit = skillc::package::reader::MAX_ARCHIVE;
    sparse(&root.join("big.tar.gz"), &[0x1f, 0x8b, 0x08], limit + 1);
    let run = skillc(root, &["verify", "big.tar.gz", "--insecure-skip-signature"]);
    assert_eq!(run.code, Some(1));
    assert_eq!(
        run.stderr,
        format!(
            "FAIL: big.tar.gz: archive check failed: the archive is {} bytes; skillc reads \
             archives of at most {limit} bytes\n",
            limit + 1
        )
    );
    assert!(
        run.max_rss_kib < 64 * 1024,
        "verify used {} KiB",
        run.max_rss_kib
    );
}

// ---------------------------------------------------------------------------------------------
// verify DIR accounts for every file under DIR.
