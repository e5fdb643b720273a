//! FNV-1a: a fast, stable, non-cryptographic fingerprint for names and
//! cache keys (file names of caches and session state). Trust uses
//! SHA-256, never this.

/// FNV-1a of `bytes`, its offset basis xor-ed with `seed` (0 for plain FNV-1a).
pub fn fnv1a(seed: u64, bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325 ^ seed;
    for b in bytes {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

#[cfg(test)]
mod tests {
    #[test]
    fn known_values() {
        // The published FNV-1a 64 test vectors.
        assert_eq!(super::fnv1a(0, b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(super::fnv1a(0, b"a"), 0xaf63_dc4c_8601_ec8c);
    }
}
