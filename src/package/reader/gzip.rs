//! gzip: exactly one member, read to its end so that its CRC-32 and length are checked, and
//! nothing after it. `gzip -d`, GNU tar and Python read every member of a multi-member file (and
//! some skip trailing garbage), so a second member would be an archive only they see.

use std::io::Read;

/// One gzip member over the archive's bytes, read through a cap.
pub(super) struct Member<'a> {
    decoder: flate2::bufread::GzDecoder<&'a [u8]>,
    /// Decompressed bytes read so far.
    out: u64,
    /// The most decompressed bytes that may be read.
    cap: u64,
}

impl<'a> Member<'a> {
    /// Starts decoding `bytes`, refusing more than `cap` decompressed bytes.
    pub(super) fn new(bytes: &'a [u8], cap: u64) -> Member<'a> {
        Member {
            decoder: flate2::bufread::GzDecoder::new(bytes),
            out: 0,
            cap,
        }
    }

    /// Reads the rest of the member, which must be zero bytes only (the tar padding after the
    /// end-of-archive blocks, at most `zeros` of them), then checks that nothing follows it.
    pub(super) fn finish(mut self, zeros: u64) -> Result<(), String> {
        let mut block = [0u8; 8192];
        let mut seen: u64 = 0;
        loop {
            let n = self.read(&mut block).map_err(gzip_error)?;
            if n == 0 {
                break;
            }
            if block[..n].iter().any(|&b| b != 0) {
                return Err(
                    "reading the archive: data follows the end-of-archive blocks".to_string(),
                );
            }
            seen += n as u64;
            if seen > zeros {
                return Err(format!(
                    "reading the archive: more than {zeros} bytes of padding follow the end-of-archive blocks"
                ));
            }
        }
        let rest = self.decoder.get_ref();
        if rest.starts_with(&[0x1f, 0x8b]) {
            Err("the archive holds a second gzip member; skillc reads exactly one".into())
        } else if !rest.is_empty() {
            Err(format!(
                "{} bytes follow the gzip stream; nothing may follow it",
                rest.len()
            ))
        } else {
            Ok(())
        }
    }
}

impl Read for Member<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let room = self.cap.saturating_sub(self.out);
        if room == 0 && !buf.is_empty() {
            // One more byte tells a stream that ends exactly at the cap from one that goes on.
            let mut probe = [0u8; 1];
            return match self.decoder.read(&mut probe)? {
                0 => Ok(0),
                _ => Err(std::io::Error::other(format!(
                    "the tar stream is longer than {} bytes",
                    self.cap
                ))),
            };
        }
        let len = buf.len().min(usize::try_from(room).unwrap_or(usize::MAX));
        let n = self.decoder.read(&mut buf[..len])?;
        self.out += n as u64;
        Ok(n)
    }
}

/// A gzip error as a message.
pub(super) fn gzip_error(e: std::io::Error) -> String {
    format!("reading the archive: {e}")
}
