use std::fmt;

use crate::FsError;

const BOM_UTF8: &[u8] = b"\xEF\xBB\xBF";
const BOM_UTF16LE: &[u8] = b"\xFF\xFE";
const BOM_UTF16BE: &[u8] = b"\xFE\xFF";
const BOM_UTF32LE: &[u8] = b"\xFF\xFE\x00\x00";
const BOM_UTF32BE: &[u8] = b"\x00\x00\xFE\xFF";

/// How many leading bytes the UTF-16-without-BOM heuristic looks at.
const UTF16_SNIFF_LEN: usize = 4096;

/// How a file's bytes are encoded on disk.
///
/// Only the byte-order mark decides between these: surgical never guesses an
/// encoding from content, because a wrong guess would rewrite bytes the edit
/// did not target. Content without a BOM is [`Encoding::Utf8`], whether or
/// not it is valid UTF-8.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// No byte-order mark. The bytes are passed through as they are, so this
    /// also covers ASCII, Latin-1 and invalid UTF-8.
    Utf8,
    /// UTF-8 behind the byte-order mark `EF BB BF`. The content after the
    /// BOM is passed through as it is, even if it is not valid UTF-8.
    Utf8Bom,
    /// UTF-16, little endian, behind the byte-order mark `FF FE`.
    Utf16Le,
    /// UTF-16, big endian, behind the byte-order mark `FE FF`.
    Utf16Be,
}

impl Encoding {
    /// A short lowercase name: `"utf-8"`, `"utf-8-bom"`, `"utf-16le"` or
    /// `"utf-16be"`.
    ///
    /// These names are stable and meant for reports shown to users and
    /// models.
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Utf8 => "utf-8",
            Encoding::Utf8Bom => "utf-8-bom",
            Encoding::Utf16Le => "utf-16le",
            Encoding::Utf16Be => "utf-16be",
        }
    }

    /// Whether files in this encoding start with a byte-order mark.
    ///
    /// This is true for everything except [`Encoding::Utf8`].
    pub fn has_bom(self) -> bool {
        !self.bom().is_empty()
    }

    /// The byte-order mark [`encode`] writes for this encoding; empty for
    /// [`Encoding::Utf8`].
    pub fn bom(self) -> &'static [u8] {
        match self {
            Encoding::Utf8 => b"",
            Encoding::Utf8Bom => BOM_UTF8,
            Encoding::Utf16Le => BOM_UTF16LE,
            Encoding::Utf16Be => BOM_UTF16BE,
        }
    }
}

impl fmt::Display for Encoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Text ready for the core: UTF-8 bytes without the byte-order mark.
///
/// For [`Encoding::Utf8`] and [`Encoding::Utf8Bom`], `text` is exactly the
/// file's bytes after the BOM and may contain invalid UTF-8, which is carried
/// through untouched. For the UTF-16 encodings, `text` is the transcoded
/// content and is always valid UTF-8 (it may contain U+0000, which UTF-16
/// files can encode legitimately).
///
/// In every case `encode(d.encoding, &d.text)` gives back the exact bytes
/// `d` was decoded from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decoded {
    /// The encoding to write the text back in.
    pub encoding: Encoding,
    /// The text, as UTF-8 (or as the file's own bytes; see above).
    pub text: Vec<u8>,
}

/// Decodes a file's bytes into UTF-8 text plus the encoding to write it back
/// in.
///
/// The rules, checked in this order:
///
/// 1. `EF BB BF` → [`Encoding::Utf8Bom`]; `text` is the rest, unchecked.
/// 2. `FF FE 00 00` or `00 00 FE FF` → a UTF-32 byte-order mark, which is
///    [`FsError::UnsupportedEncoding`]. This means a UTF-16LE file whose
///    first character is U+0000 is also rejected; that is the conventional
///    reading of those bytes.
/// 3. `FF FE` → [`Encoding::Utf16Le`]; `FE FF` → [`Encoding::Utf16Be`]. The
///    rest must be well-formed UTF-16: an odd number of bytes or an unpaired
///    surrogate is [`FsError::UnsupportedEncoding`] naming the byte offset
///    (counted from the start of the file, BOM included). Decoding is never
///    lossy.
/// 4. Any NUL byte → [`FsError::Binary`] with the offset of the first one.
///    If the NUL bytes look like UTF-16 without a byte-order mark, the error
///    says so, but such content is still not decoded.
/// 5. Anything else → [`Encoding::Utf8`] with the bytes unchanged, valid
///    UTF-8 or not. An empty input is `Utf8` with empty text.
///
/// The bytes are taken by value so that the common UTF-8 cases reuse the
/// allocation instead of copying it.
///
/// Errors carry no path; see [`FsError::with_path`].
///
/// # Example
///
/// ```
/// use surgical_fs::{decode, Encoding};
///
/// let d = decode(b"\xFF\xFEh\x00i\x00".to_vec())?;
/// assert_eq!(d.encoding, Encoding::Utf16Le);
/// assert_eq!(d.text, b"hi");
///
/// // Latin-1 is not valid UTF-8, but it is carried through byte for byte.
/// let d = decode(b"caf\xE9".to_vec())?;
/// assert_eq!(d.encoding, Encoding::Utf8);
/// assert_eq!(d.text, b"caf\xE9");
///
/// assert_eq!(decode(b"a\x00b".to_vec()).unwrap_err().code(), "binary_file");
/// # Ok::<(), surgical_fs::FsError>(())
/// ```
pub fn decode(bytes: Vec<u8>) -> Result<Decoded, FsError> {
    match decode_keeping(bytes) {
        Decoding::Text(d) | Decoding::Transcoded(d, _) => Ok(d),
        Decoding::Refused(e, _) => Err(e),
    }
}

/// What [`decode_keeping`] made of a file's bytes.
#[derive(Debug)]
pub enum Decoding {
    /// [`Encoding::Utf8`] or [`Encoding::Utf8Bom`]: the text is the bytes themselves (after the
    /// BOM), in the same allocation.
    Text(Decoded),
    /// UTF-16: the transcoded text, and the bytes it was transcoded from.
    Transcoded(Decoded, Vec<u8>),
    /// The bytes cannot be decoded (see [`decode`] for why), and here they are, untouched.
    Refused(FsError, Vec<u8>),
}

/// [`decode`] without losing the bytes: where the text is not the bytes themselves (UTF-16) or
/// there is no text (binary, UTF-32, malformed UTF-16), the bytes come back with the result, so a
/// caller that needs them too (to delete or replace a file it cannot edit, to keep the exact
/// bytes of a UTF-16 file) keeps them without a copy. The rules and errors are those of
/// [`decode`]; errors carry no path.
pub fn decode_keeping(bytes: Vec<u8>) -> Decoding {
    decode_keeping_with(bytes, |bytes| memchr::memchr(0, bytes))
}

/// [`decode_keeping`] of bytes whose first NUL is known already: at `first_nul` (the reader
/// looked, see `Target::read_decoding`).
pub(crate) fn decode_keeping_noted(bytes: Vec<u8>, first_nul: Option<usize>) -> Decoding {
    debug_assert_eq!(first_nul, memchr::memchr(0, &bytes));
    decode_keeping_with(bytes, |_| first_nul)
}

/// [`decode_keeping`], with `first_nul` telling where the first NUL of the bytes is (asked only for
/// bytes without a BOM).
fn decode_keeping_with(mut bytes: Vec<u8>, first_nul: impl FnOnce(&[u8]) -> Option<usize>) -> Decoding {
    if bytes.starts_with(BOM_UTF8) {
        bytes.drain(..BOM_UTF8.len());
        return Decoding::Text(Decoded {
            encoding: Encoding::Utf8Bom,
            text: bytes,
        });
    }
    // UTF-32LE's BOM starts with UTF-16LE's, so it must be checked first.
    for (bom, name) in [(BOM_UTF32LE, "UTF-32LE"), (BOM_UTF32BE, "UTF-32BE")] {
        if bytes.starts_with(bom) {
            let error = unsupported(format!(
                "UTF-32 is not supported (it starts with the {name} byte-order mark); convert it to \
                 UTF-8 or UTF-16 first, or edit it with another tool"
            ));
            return Decoding::Refused(error, bytes);
        }
    }
    for encoding in [Encoding::Utf16Le, Encoding::Utf16Be] {
        if bytes.starts_with(encoding.bom()) {
            return match decode_utf16(&bytes, encoding) {
                Ok(d) => Decoding::Transcoded(d, bytes),
                Err(e) => Decoding::Refused(e, bytes),
            };
        }
    }
    if let Some(offset) = first_nul(&bytes) {
        let error = FsError::Binary {
            path: None,
            offset,
            utf16_guess: guess_utf16(&bytes),
        };
        return Decoding::Refused(error, bytes);
    }
    Decoding::Text(Decoded {
        encoding: Encoding::Utf8,
        text: bytes,
    })
}

/// Encodes text for writing in the given encoding; the inverse of
/// [`decode`].
///
/// * [`Encoding::Utf8`]: `text` itself, whatever it contains. Note that if
///   `text` starts with `EF BB BF` or holds a NUL byte, decoding the result
///   will not give `Utf8` back; the bytes are still written as asked.
/// * [`Encoding::Utf8Bom`]: the BOM followed by `text`, whatever it contains.
/// * [`Encoding::Utf16Le`] / [`Encoding::Utf16Be`]: the BOM followed by the
///   UTF-16 code units. `text` must be valid UTF-8, otherwise this returns
///   [`FsError::UnsupportedEncoding`] naming the offset of the first invalid
///   byte, since UTF-16 can only hold Unicode scalar values. For UTF-16LE,
///   `text` must also not start with U+0000: the result would start with
///   `FF FE 00 00`, which [`decode`] reads as a UTF-32 BOM and refuses, so
///   this returns [`FsError::UnsupportedEncoding`] instead of writing a file
///   that cannot be read back. (Text decoded from UTF-16LE never starts with
///   U+0000, for the same reason.)
///
/// # Example
///
/// ```
/// use surgical_fs::{encode, Encoding};
///
/// assert_eq!(encode(Encoding::Utf16Be, "hi".as_bytes())?, b"\xFE\xFF\x00h\x00i");
/// assert_eq!(encode(Encoding::Utf8Bom, b"\xE9")?, b"\xEF\xBB\xBF\xE9");
/// assert!(encode(Encoding::Utf16Le, b"\xE9").is_err());
/// # Ok::<(), surgical_fs::FsError>(())
/// ```
pub fn encode(encoding: Encoding, text: &[u8]) -> Result<Vec<u8>, FsError> {
    let big_endian = match encoding {
        Encoding::Utf8 => return Ok(text.to_vec()),
        Encoding::Utf8Bom => {
            let mut out = Vec::with_capacity(BOM_UTF8.len() + text.len());
            out.extend_from_slice(BOM_UTF8);
            out.extend_from_slice(text);
            return Ok(out);
        }
        Encoding::Utf16Le => false,
        Encoding::Utf16Be => true,
    };
    let text = std::str::from_utf8(text).map_err(|e| {
        unsupported(format!(
            "the text to write as {} is not valid UTF-8 at byte offset {}; UTF-16 can only hold \
             valid Unicode text, so remove or fix the invalid bytes",
            encoding.name().to_uppercase(),
            e.valid_up_to()
        ))
    })?;
    if encoding == Encoding::Utf16Le && text.starts_with('\0') {
        // FF FE 00 00 is read back as a UTF-32LE BOM, so writing this would
        // produce a file that `decode` refuses.
        return Err(unsupported(
            "the text starts with U+0000, which cannot be written as UTF-16LE: the file would \
             start with FF FE 00 00, which reads as a UTF-32 byte-order mark; do not put a NUL \
             character at the very start"
                .to_string(),
        ));
    }
    // Most text is ASCII, so two bytes per input byte is a good first guess.
    let mut out = Vec::with_capacity(2 + 2 * text.len());
    out.extend_from_slice(encoding.bom());
    for unit in text.encode_utf16() {
        let pair = if big_endian {
            unit.to_be_bytes()
        } else {
            unit.to_le_bytes()
        };
        out.extend_from_slice(&pair);
    }
    Ok(out)
}

/// [`encode`] of the concatenation of `parts`, without making it: for a new version that is an old
/// text with a few ranges replaced (its unchanged stretches and the replacements, in order), so
/// that encoding it as UTF-16 holds the encoded bytes but no second copy of the text.
///
/// The result and the errors are exactly [`encode`]'s for the concatenated text. For UTF-16 each
/// part is encoded on its own when every part is valid UTF-8 by itself (parts cut at character
/// boundaries, as an edit's are); otherwise the parts are joined and encoded whole.
///
/// ```
/// use surgical_fs::{encode, encode_parts, Encoding};
///
/// let parts: [&[u8]; 3] = [b"say ", "h\u{e9}llo".as_bytes(), b"!"];
/// for e in [Encoding::Utf8, Encoding::Utf8Bom, Encoding::Utf16Le, Encoding::Utf16Be] {
///     assert_eq!(encode_parts(e, &parts)?, encode(e, &parts.concat())?);
/// }
/// # Ok::<(), surgical_fs::FsError>(())
/// ```
pub fn encode_parts(encoding: Encoding, parts: &[&[u8]]) -> Result<Vec<u8>, FsError> {
    let len: usize = parts.iter().map(|p| p.len()).sum();
    let big_endian = match encoding {
        Encoding::Utf8 | Encoding::Utf8Bom => {
            let mut out = Vec::with_capacity(encoding.bom().len() + len);
            out.extend_from_slice(encoding.bom());
            parts.iter().for_each(|p| out.extend_from_slice(p));
            return Ok(out);
        }
        Encoding::Utf16Le => false,
        Encoding::Utf16Be => true,
    };
    let strs: Option<Vec<&str>> = parts.iter().map(|p| std::str::from_utf8(p).ok()).collect();
    let Some(strs) = strs else {
        // A part cut inside a character, or invalid text: whole, as `encode` words its error.
        return encode(encoding, &parts.concat());
    };
    if encoding == Encoding::Utf16Le && strs.iter().find(|s| !s.is_empty()).is_some_and(|s| s.starts_with('\0')) {
        // As `encode` refuses it, with its words.
        return encode(encoding, b"\0");
    }
    let mut out = Vec::with_capacity(2 + 2 * len);
    out.extend_from_slice(encoding.bom());
    for unit in strs.iter().flat_map(|s| s.encode_utf16()) {
        out.extend_from_slice(&if big_endian {
            unit.to_be_bytes()
        } else {
            unit.to_le_bytes()
        });
    }
    Ok(out)
}

fn unsupported(detail: String) -> FsError {
    FsError::UnsupportedEncoding { path: None, detail }
}

/// Decodes `bytes` (BOM included) as UTF-16, refusing anything ill-formed.
fn decode_utf16(bytes: &[u8], encoding: Encoding) -> Result<Decoded, FsError> {
    let name = encoding.name().to_uppercase();
    let body = &bytes[2..];
    if !body.len().is_multiple_of(2) {
        return Err(unsupported(format!(
            "it starts with the {name} byte-order mark but has an odd number of bytes ({}), so \
             the last byte (offset {}) is half a code unit: the file is truncated or not {name}; \
             fix or convert it, or edit it with another tool",
            bytes.len(),
            bytes.len() - 1
        )));
    }
    let big_endian = encoding == Encoding::Utf16Be;
    let units = body.chunks_exact(2).map(|pair| {
        let pair = [pair[0], pair[1]];
        if big_endian {
            u16::from_be_bytes(pair)
        } else {
            u16::from_le_bytes(pair)
        }
    });
    // ASCII-heavy text shrinks by half when going to UTF-8.
    let mut text = Vec::with_capacity(body.len() / 2);
    // Index of the next code unit, so an error can name its byte offset.
    let mut unit_index = 0usize;
    for result in char::decode_utf16(units) {
        match result {
            Ok(c) => {
                let mut buf = [0u8; 4];
                text.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                unit_index += c.len_utf16();
            }
            Err(e) => {
                return Err(unsupported(format!(
                    "unpaired UTF-16 surrogate 0x{:04X} at byte offset {}: the file is not valid \
                     {name} and surgical will not decode it lossily; fix or convert it, or edit it \
                     with another tool",
                    e.unpaired_surrogate(),
                    2 + 2 * unit_index
                )));
            }
        }
    }
    Ok(Decoded { encoding, text })
}

/// Guesses whether BOM-less content with NUL bytes is really UTF-16 text.
///
/// Mostly-ASCII UTF-16 has a NUL in every other byte: at odd offsets for
/// little endian, at even offsets for big endian. Binary formats usually
/// scatter NULs over both, so we require that at least half the code units
/// in the sample have a NUL on one side and that the other side has at most
/// a tenth as many.
fn guess_utf16(bytes: &[u8]) -> Option<Encoding> {
    let sample = &bytes[..bytes.len().min(UTF16_SNIFF_LEN)];
    let sample = &sample[..sample.len() & !1];
    let units = sample.len() / 2;
    if units == 0 {
        return None;
    }
    let (mut even, mut odd) = (0usize, 0usize);
    for pair in sample.chunks_exact(2) {
        even += usize::from(pair[0] == 0);
        odd += usize::from(pair[1] == 0);
    }
    if 2 * odd >= units && 10 * even <= odd {
        Some(Encoding::Utf16Le)
    } else if 2 * even >= units && 10 * odd <= even {
        Some(Encoding::Utf16Be)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn detail(err: FsError) -> String {
        match err {
            FsError::UnsupportedEncoding { path: None, detail } => detail,
            other => panic!("expected UnsupportedEncoding, got {other:?}"),
        }
    }

    fn utf16(encoding: Encoding, s: &str) -> Vec<u8> {
        let mut out = encoding.bom().to_vec();
        for u in s.encode_utf16() {
            if encoding == Encoding::Utf16Be {
                out.extend_from_slice(&u.to_be_bytes());
            } else {
                out.extend_from_slice(&u.to_le_bytes());
            }
        }
        out
    }

    #[test]
    fn names_and_boms() {
        let all = [
            (Encoding::Utf8, "utf-8", false),
            (Encoding::Utf8Bom, "utf-8-bom", true),
            (Encoding::Utf16Le, "utf-16le", true),
            (Encoding::Utf16Be, "utf-16be", true),
        ];
        for (enc, name, bom) in all {
            assert_eq!(enc.name(), name);
            assert_eq!(enc.to_string(), name);
            assert_eq!(enc.has_bom(), bom);
        }
    }

    #[test]
    fn decode_keeping_gives_the_bytes_back() {
        let utf16 = utf16(Encoding::Utf16Be, "hi");
        match decode_keeping(utf16.clone()) {
            Decoding::Transcoded(d, bytes) => assert_eq!((d.text, bytes), (b"hi".to_vec(), utf16)),
            other => panic!("{other:?}"),
        }
        for refused in [&b"a\x00b"[..], b"\xFF\xFE\x00\x00", b"\xFF\xFEa"] {
            match decode_keeping(refused.to_vec()) {
                Decoding::Refused(e, bytes) => {
                    assert_eq!(bytes, refused);
                    assert_eq!(e.code(), decode(refused.to_vec()).unwrap_err().code());
                }
                other => panic!("{other:?}"),
            }
        }
        assert!(matches!(decode_keeping(b"\xEF\xBB\xBFx".to_vec()), Decoding::Text(d) if d.text == b"x"));
    }

    #[test]
    fn empty_is_utf8() {
        let d = decode(Vec::new()).unwrap();
        assert_eq!(d.encoding, Encoding::Utf8);
        assert!(d.text.is_empty());
    }

    #[test]
    fn utf8_bom_keeps_invalid_bytes() {
        let d = decode(b"\xEF\xBB\xBFa\xFF\xC3(".to_vec()).unwrap();
        assert_eq!(d.encoding, Encoding::Utf8Bom);
        assert_eq!(d.text, b"a\xFF\xC3(");
        // A BOM-only file and a doubled BOM both round trip.
        assert_eq!(decode(BOM_UTF8.to_vec()).unwrap().text, b"");
        let double = b"\xEF\xBB\xBF\xEF\xBB\xBFx".to_vec();
        let d = decode(double.clone()).unwrap();
        assert_eq!(d.text, b"\xEF\xBB\xBFx");
        assert_eq!(encode(d.encoding, &d.text).unwrap(), double);
    }

    #[test]
    fn utf8_bom_allows_nul() {
        // The BOM says "text", so a NUL after it is content, not a binary
        // marker.
        let d = decode(b"\xEF\xBB\xBFa\x00b".to_vec()).unwrap();
        assert_eq!(d.text, b"a\x00b");
    }

    #[test]
    fn latin1_passes_through() {
        let bytes = b"na\xEFve caf\xE9\r\n".to_vec();
        let d = decode(bytes.clone()).unwrap();
        assert_eq!(d.encoding, Encoding::Utf8);
        assert_eq!(d.text, bytes);
        assert_eq!(encode(Encoding::Utf8, &d.text).unwrap(), bytes);
    }

    #[test]
    fn utf32_rejected() {
        for bytes in [&b"\xFF\xFE\x00\x00a\x00\x00\x00"[..], b"\x00\x00\xFE\xFF"] {
            let err = decode(bytes.to_vec()).unwrap_err();
            assert_eq!(err.code(), "unsupported_encoding");
            assert!(detail(err).contains("UTF-32 is not supported"));
        }
    }

    #[test]
    fn utf16_both_endians() {
        let s = "h\u{e9}llo \u{1F600}\r\n\u{0}";
        for enc in [Encoding::Utf16Le, Encoding::Utf16Be] {
            let bytes = utf16(enc, s);
            let d = decode(bytes.clone()).unwrap();
            assert_eq!(d.encoding, enc);
            assert_eq!(d.text, s.as_bytes());
            assert_eq!(encode(enc, &d.text).unwrap(), bytes);
        }
        assert_eq!(decode(b"\xFE\xFF".to_vec()).unwrap().text, b"");
    }

    #[test]
    fn utf16_odd_length() {
        let err = decode(b"\xFF\xFEa\x00b".to_vec()).unwrap_err();
        let d = detail(err);
        assert!(d.contains("odd number of bytes (5)"), "{d}");
        assert!(d.contains("offset 4"), "{d}");
        assert!(d.contains("UTF-16LE"), "{d}");
    }

    #[test]
    fn utf16_unpaired_surrogates() {
        // Lone high surrogate followed by a non-surrogate, at unit 1.
        let err = decode(b"\xFF\xFEa\x00\x00\xD8b\x00".to_vec()).unwrap_err();
        let d = detail(err);
        assert!(d.contains("0xD800 at byte offset 4"), "{d}");
        // Lone low surrogate, big endian, after an astral char (2 units).
        let mut bytes = utf16(Encoding::Utf16Be, "\u{10000}");
        bytes.extend_from_slice(b"\xDC\x00");
        let d = detail(decode(bytes).unwrap_err());
        assert!(d.contains("0xDC00 at byte offset 6"), "{d}");
        // High surrogate at end of input.
        let d = detail(decode(b"\xFE\xFF\xD8\x00".to_vec()).unwrap_err());
        assert!(d.contains("0xD800 at byte offset 2"), "{d}");
    }

    #[test]
    fn binary_offset_and_guess() {
        match decode(b"abc\x00def".to_vec()).unwrap_err() {
            FsError::Binary {
                path: None,
                offset: 3,
                utf16_guess: None,
            } => {}
            other => panic!("{other:?}"),
        }
        let le = utf16(Encoding::Utf16Le, "hello world")[2..].to_vec();
        match decode(le).unwrap_err() {
            FsError::Binary {
                offset: 1,
                utf16_guess: Some(Encoding::Utf16Le),
                ..
            } => {}
            other => panic!("{other:?}"),
        }
        let be = utf16(Encoding::Utf16Be, "hello world")[2..].to_vec();
        let err = decode(be).unwrap_err();
        assert!(matches!(
            err,
            FsError::Binary {
                offset: 0,
                utf16_guess: Some(Encoding::Utf16Be),
                ..
            }
        ));
        assert!(err.to_string().contains("UTF-16BE"));
        // NULs on both parities: plain binary, no hint.
        let err = decode(b"\x7FELF\x00\x00\x00\x00\x01\x02".to_vec()).unwrap_err();
        assert!(matches!(err, FsError::Binary { utf16_guess: None, .. }));
    }

    #[test]
    fn encode_rejects_invalid_utf8_for_utf16() {
        for enc in [Encoding::Utf16Le, Encoding::Utf16Be] {
            let d = detail(encode(enc, b"ok\xFFno").unwrap_err());
            assert!(d.contains("byte offset 2"), "{d}");
        }
        // A leading NUL would turn the UTF-16LE BOM into a UTF-32LE one.
        let d = detail(encode(Encoding::Utf16Le, b"\0a").unwrap_err());
        assert!(d.contains("U+0000"), "{d}");
        assert_eq!(encode(Encoding::Utf16Be, b"\0a").unwrap(), b"\xFE\xFF\x00\x00\x00a");
        assert_eq!(encode(Encoding::Utf16Le, b"a\0").unwrap(), b"\xFF\xFEa\x00\x00\x00");
        // UTF-8 encodings take anything.
        assert_eq!(encode(Encoding::Utf8, b"\xFF\x00").unwrap(), b"\xFF\x00");
    }

    fn utf16_encoding() -> impl Strategy<Value = Encoding> {
        prop_oneof![Just(Encoding::Utf16Le), Just(Encoding::Utf16Be)]
    }

    proptest! {
        #[test]
        fn utf16_round_trip(s in any::<String>(), enc in utf16_encoding()) {
            prop_assume!(!(enc == Encoding::Utf16Le && s.starts_with('\0')));
            let bytes = encode(enc, s.as_bytes()).unwrap();
            prop_assert_eq!(&bytes, &utf16(enc, &s));
            let d = decode(bytes.clone()).unwrap();
            prop_assert_eq!(d.encoding, enc);
            prop_assert_eq!(&d.text, s.as_bytes());
            prop_assert_eq!(encode(enc, &d.text).unwrap(), bytes);
        }

        #[test]
        fn utf16_astral_round_trip(
            chars in proptest::collection::vec(
                prop_oneof![any::<char>(), proptest::char::range('\u{10000}', '\u{10FFFF}')],
                0..64,
            ),
            enc in utf16_encoding(),
        ) {
            let s: String = chars.into_iter().collect();
            prop_assume!(!(enc == Encoding::Utf16Le && s.starts_with('\0')));
            let bytes = utf16(enc, &s);
            prop_assert_eq!(&encode(enc, s.as_bytes()).unwrap(), &bytes);
            let d = decode(bytes.clone()).unwrap();
            prop_assert_eq!(&d.text, s.as_bytes());
            prop_assert_eq!(encode(enc, &d.text).unwrap(), bytes);
        }

        /// Random code units, surrogates included: decoding either fails or
        /// round trips exactly, never lossily.
        #[test]
        fn utf16_random_units_never_lossy(
            units in proptest::collection::vec(
                prop_oneof![any::<u16>(), 0xD800u16..0xE000],
                0..32,
            ),
            enc in utf16_encoding(),
        ) {
            let mut bytes = enc.bom().to_vec();
            for u in &units {
                let pair = if enc == Encoding::Utf16Be { u.to_be_bytes() } else { u.to_le_bytes() };
                bytes.extend_from_slice(&pair);
            }
            let well_formed = char::decode_utf16(units.iter().copied()).all(|r| r.is_ok());
            match decode(bytes.clone()) {
                Ok(d) => {
                    prop_assert!(well_formed);
                    prop_assert_eq!(encode(d.encoding, &d.text).unwrap(), bytes);
                }
                Err(e) => {
                    // A leading 00 00 after FF FE reads as a UTF-32 BOM.
                    prop_assert!(!well_formed || (enc == Encoding::Utf16Le && units.first() == Some(&0)));
                    prop_assert_eq!(e.code(), "unsupported_encoding");
                }
            }
        }

        /// BOM-less, NUL-free bytes come back exactly, valid UTF-8 or not.
        #[test]
        fn utf8_bytes_pass_through(bytes in proptest::collection::vec(1u8..=255, 0..256)) {
            prop_assume!(!bytes.starts_with(BOM_UTF8));
            prop_assume!(!bytes.starts_with(BOM_UTF16LE) && !bytes.starts_with(BOM_UTF16BE));
            let d = decode(bytes.clone()).unwrap();
            prop_assert_eq!(d.encoding, Encoding::Utf8);
            prop_assert_eq!(&d.text, &bytes);
            prop_assert_eq!(encode(Encoding::Utf8, &d.text).unwrap(), bytes);
        }

        /// Whatever decodes, encodes back to the same bytes.
        #[test]
        fn any_bytes_round_trip_or_error(
            prefix in prop_oneof![
                Just(&b""[..]), Just(BOM_UTF8), Just(BOM_UTF16LE), Just(BOM_UTF16BE),
            ],
            rest in proptest::collection::vec(any::<u8>(), 0..128),
        ) {
            let mut bytes = prefix.to_vec();
            bytes.extend_from_slice(&rest);
            if let Ok(d) = decode(bytes.clone()) {
                prop_assert_eq!(encode(d.encoding, &d.text).unwrap(), bytes);
            }
        }

        /// Encoding parts is encoding their concatenation: the same bytes, or the same error, for
        /// any bytes (valid text or not) cut anywhere (at character boundaries or inside one).
        #[test]
        fn encoding_parts_is_encoding_them_joined(
            pieces in proptest::collection::vec(
                prop_oneof![
                    any::<String>().prop_map(String::into_bytes),
                    proptest::collection::vec(any::<u8>(), 0..6),
                    Just(vec![0u8]),
                    Just("\u{e9}\u{1F600}".as_bytes().to_vec()),
                ],
                0..5,
            ),
            cuts in proptest::collection::vec(0usize..8, 0..4),
            enc in prop_oneof![
                Just(Encoding::Utf8), Just(Encoding::Utf8Bom), Just(Encoding::Utf16Le), Just(Encoding::Utf16Be),
            ],
        ) {
            let joined = pieces.concat();
            // Cut the joined bytes at arbitrary places too (inside characters included).
            let mut parts: Vec<&[u8]> = Vec::new();
            let mut rest = joined.as_slice();
            for c in cuts {
                let (a, b) = rest.split_at(c.min(rest.len()));
                parts.push(a);
                rest = b;
            }
            parts.push(rest);
            let whole = encode(enc, &joined).map_err(|e| e.to_string());
            let by_parts = encode_parts(enc, &parts).map_err(|e| e.to_string());
            prop_assert_eq!(by_parts, whole);
        }

        #[test]
        fn utf8_bom_round_trip(rest in proptest::collection::vec(any::<u8>(), 0..128)) {
            let mut bytes = BOM_UTF8.to_vec();
            bytes.extend_from_slice(&rest);
            let d = decode(bytes.clone()).unwrap();
            prop_assert_eq!(d.encoding, Encoding::Utf8Bom);
            prop_assert_eq!(&d.text, &rest);
            prop_assert_eq!(encode(Encoding::Utf8Bom, &d.text).unwrap(), bytes);
        }
    }
}
