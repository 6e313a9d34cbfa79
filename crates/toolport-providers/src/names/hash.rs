//! The hash suffix that keeps a shortened or colliding name unique: eight hex digits of the
//! FNV-1a hash of the name as the server wrote it.
//!
//! FNV-1a is a published algorithm of a few lines, the same on every platform, release and run
//! (unlike `std`'s randomly keyed `DefaultHasher`), so a tool keeps its name across restarts. It
//! is not collision resistant, and need not be: every name is checked against the others after
//! the suffix is added, and a tie is resolved or reported (`resolve.rs`).

const OFFSET_BASIS: u64 = 0xcbf2_9ce4_8422_2325;
const PRIME: u64 = 0x0000_0100_0000_01b3;

/// How many hex digits a suffix has.
pub(super) const SUFFIX_DIGITS: usize = 8;

/// The 64-bit FNV-1a hash of `parts`, one after the other.
fn fnv1a64(parts: &[&[u8]]) -> u64 {
    let mut hash = OFFSET_BASIS;
    for byte in parts.iter().flat_map(|part| part.iter()) {
        hash ^= u64::from(*byte);
        hash = hash.wrapping_mul(PRIME);
    }
    hash
}

/// Eight lowercase hex digits of the hash of `name`. Attempt 0 hashes the name alone; a later
/// attempt (after two suffixes tied) puts the attempt's number before it, which changes the
/// whole hash rather than only its last steps.
pub(super) fn suffix(name: &str, attempt: u32) -> String {
    let hash = if attempt == 0 {
        fnv1a64(&[name.as_bytes()])
    } else {
        fnv1a64(&[&attempt.to_le_bytes(), name.as_bytes()])
    };
    // Xor-folding the halves is how FNV's authors take fewer bits than the hash has.
    let folded = (hash >> 32) ^ (hash & 0xffff_ffff);
    format!("{folded:0width$x}", width = SUFFIX_DIGITS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a64_matches_the_published_test_vectors() {
        assert_eq!(fnv1a64(&[b""]), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(&[b"a"]), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a64(&[b"foobar"]), 0x8594_4171_f739_67e8);
        assert_eq!(fnv1a64(&[b"foo", b"bar"]), fnv1a64(&[b"foobar"]));
    }

    #[test]
    fn a_suffix_is_eight_hex_digits_and_fixed_forever() {
        // Pinned: a changed value renames every shortened or colliding tool of every user.
        assert_eq!(suffix("foobar", 0), "72ad2699");
        assert_eq!(suffix("a", 0), "296230c0");
        assert_ne!(suffix("foobar", 1), suffix("foobar", 0));
        assert_eq!(suffix("", 0).len(), SUFFIX_DIGITS);
    }
}
