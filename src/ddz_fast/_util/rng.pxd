# SplitMix64 in C (inline, so every compiled module that draws numbers gets
# the same code): the project's one random generator.  The algorithm and the
# seeding scheme are documented in ddz_fast._util.rng (the .pyx).
from libc.stdint cimport uint64_t

cdef extern from *:
    """
    #include <stdint.h>
    #define DDZ_GOLDEN 0x9E3779B97F4A7C15ULL
    #define DDZ_POLICY_SALT 0x5851F42D4C957F2DULL
    static inline uint64_t ddz_mix64(uint64_t z) {
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31);
    }
    static inline uint64_t ddz_next(uint64_t* s) {
        *s += DDZ_GOLDEN;
        return ddz_mix64(*s);
    }
    /* High and low 64 bits of the 128-bit product a * b. */
    static inline uint64_t ddz_mul128(uint64_t a, uint64_t b, uint64_t* lo) {
    #if defined(__SIZEOF_INT128__)
        unsigned __int128 m = (unsigned __int128)a * b;
        *lo = (uint64_t)m;
        return (uint64_t)(m >> 64);
    #else
        uint64_t a0 = (uint32_t)a, a1 = a >> 32, b0 = (uint32_t)b, b1 = b >> 32;
        uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
        uint64_t mid = (p00 >> 32) + (uint32_t)p01 + (uint32_t)p10;
        *lo = (mid << 32) | (uint32_t)p00;
        return p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
    #endif
    }
    /* Unbiased integer in [0, n), n >= 1 (Lemire 2019): the high word of
       x * n, rejecting x when the low word is below 2**64 mod n. */
    static inline uint64_t ddz_below(uint64_t* s, uint64_t n) {
        uint64_t lo, hi = ddz_mul128(ddz_next(s), n, &lo);
        if (lo < n) {
            uint64_t t = (0 - n) % n;  /* 2**64 mod n */
            while (lo < t)
                hi = ddz_mul128(ddz_next(s), n, &lo);
        }
        return hi;
    }
    static inline uint64_t ddz_game_seed(uint64_t seed, uint64_t i) {
        return ddz_mix64(seed + (i + 1) * DDZ_GOLDEN);
    }
    static inline uint64_t ddz_policy_seed(uint64_t g) {
        return ddz_mix64(g ^ DDZ_POLICY_SALT);
    }
    """
    uint64_t ddz_mix64(uint64_t z) noexcept nogil
    uint64_t ddz_next(uint64_t* s) noexcept nogil
    uint64_t ddz_below(uint64_t* s, uint64_t n) noexcept nogil
    uint64_t ddz_game_seed(uint64_t seed, uint64_t i) noexcept nogil
    uint64_t ddz_policy_seed(uint64_t g) noexcept nogil
