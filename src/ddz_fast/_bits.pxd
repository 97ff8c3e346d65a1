# Bit helpers of the compiled modules, in one place: the lowest and highest
# bit set in a mask, the bits set in a rank mask, and the packed key of a
# move row.  C inlines only: cimporting this file adds no module to import.
#
# The packed key: every byte of a move row (15 counts, then the kind) is
# below 16, so a row packs into one 64-bit word, byte j in bits 4j..4j+3 (the
# counts in bits 0..59, the kind in 60..63).  Action ids, the id tables
# (_lookup), actions.pack_rows, MoveList.card_lists and the solver's packed
# hands depend on this layout.

from libc.stdint cimport uint64_t

cdef extern from *:
    """
    #ifndef DDZ_BITS_H
    #define DDZ_BITS_H
    #include <stdint.h>
    #include <string.h>

    /* The lowest and the highest bit set in x != 0, of 32 and 64 bits. */
    #if defined(__GNUC__) || defined(__clang__)
    static inline int ddz_ctz(unsigned int x) { return __builtin_ctz(x); }
    static inline int ddz_top_bit(unsigned int x) { return 31 - __builtin_clz(x); }
    static inline int ddz_ctz64(uint64_t x) { return __builtin_ctzll(x); }
    static inline int ddz_top_bit64(uint64_t x) { return 63 - __builtin_clzll(x); }
    #elif defined(_MSC_VER)
    #include <intrin.h>
    static __inline int ddz_ctz(unsigned int x) { unsigned long i; _BitScanForward(&i, x); return (int)i; }
    static __inline int ddz_top_bit(unsigned int x) { unsigned long i; _BitScanReverse(&i, x); return (int)i; }
    #if defined(_M_X64) || defined(_M_ARM64)
    static __inline int ddz_ctz64(uint64_t x) { unsigned long i; _BitScanForward64(&i, x); return (int)i; }
    static __inline int ddz_top_bit64(uint64_t x) { unsigned long i; _BitScanReverse64(&i, x); return (int)i; }
    #else
    static __inline int ddz_ctz64(uint64_t x) {
        return (unsigned int)x ? ddz_ctz((unsigned int)x) : 32 + ddz_ctz((unsigned int)(x >> 32));
    }
    static __inline int ddz_top_bit64(uint64_t x) {
        return x >> 32 ? 32 + ddz_top_bit((unsigned int)(x >> 32)) : ddz_top_bit((unsigned int)x);
    }
    #endif
    #else
    static inline int ddz_ctz64(uint64_t x) {
        int n = 0;
        while (!(x & 1)) { x >>= 1; n++; }
        return n;
    }
    static inline int ddz_top_bit64(uint64_t x) {
        int n = 0;
        while (x >>= 1) n++;
        return n;
    }
    static inline int ddz_ctz(unsigned int x) { return ddz_ctz64(x); }
    static inline int ddz_top_bit(unsigned int x) { return ddz_top_bit64(x); }
    #endif

    /* Bits set in a mask of at most 16 bits, by two lookups of a table of
       the bytes (the popcnt instruction is not baseline x86-64:
       __builtin_popcount would be a library call). */
    #define DDZ_POP2(n) n, n + 1, n + 1, n + 2
    #define DDZ_POP4(n) DDZ_POP2(n), DDZ_POP2(n + 1), DDZ_POP2(n + 1), DDZ_POP2(n + 2)
    #define DDZ_POP6(n) DDZ_POP4(n), DDZ_POP4(n + 1), DDZ_POP4(n + 1), DDZ_POP4(n + 2)
    static const unsigned char ddz_pop8[256] = {DDZ_POP6(0), DDZ_POP6(1), DDZ_POP6(1), DDZ_POP6(2)};
    static inline int ddz_popcount16(unsigned int x) {
        return ddz_pop8[x & 0xFFu] + ddz_pop8[(x >> 8) & 0xFFu];
    }

    /* Bytes p[0..7] as a little-endian word (byte j in bits 8j..8j+7). */
    static inline uint64_t ddz_load_le64(const unsigned char* p) {
        uint64_t x;
    #if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        int j;
        for (x = 0, j = 7; j >= 0; j--)
            x = x << 8 | p[j];
    #else
        memcpy(&x, p, 8);
    #endif
        return x;
    }
    /* A word of 8 bytes, each < 16, to 8 nibbles: byte j to bits 4j..4j+3. */
    static inline uint64_t ddz_nibbles8(uint64_t x) {
        x = (x | (x >> 4)) & 0x00FF00FF00FF00FFULL;
        x = (x | (x >> 8)) & 0x0000FFFF0000FFFFULL;
        return (x | (x >> 16)) & 0x00000000FFFFFFFFULL;
    }
    /* The packed key of a 16-byte move row (every byte < 16). */
    static inline uint64_t ddz_pack_row(const unsigned char* row) {
        return ddz_nibbles8(ddz_load_le64(row)) | (ddz_nibbles8(ddz_load_le64(row + 8)) << 32);
    }
    /* The 15 counts of a hand (each < 16) packed the same way (bits 60..63
       zero).  Bytes 8..14 by one load of 7..14: a 7-byte copy is two stores
       that a word load cannot forward from, a stall on every call. */
    static inline uint64_t ddz_pack_hand(const unsigned char* h) {
        return ddz_nibbles8(ddz_load_le64(h)) | (ddz_nibbles8(ddz_load_le64(h + 7) >> 8) << 32);
    }
    /* The packed key of a 16-byte row of any bytes into *key, and its number
       of cards (bytes 0..14 added up); -1 for a row with a byte of 16 or
       more, which is no move row (then *key is not written). */
    static inline int ddz_row_key(const unsigned char* row, uint64_t* key) {
        uint64_t lo = ddz_load_le64(row), hi = ddz_load_le64(row + 8);
        if ((lo | hi) & 0xF0F0F0F0F0F0F0F0ULL)
            return -1;
        *key = ddz_nibbles8(lo) | (ddz_nibbles8(hi) << 32);
        /* every byte <= 15: the byte sums of lo + hi stay below 256 */
        return (int)(((lo + (hi & 0x00FFFFFFFFFFFFFFULL)) * 0x0101010101010101ULL) >> 56);
    }
    #endif
    """
    # (x != 0 for the four below)
    int ctz "ddz_ctz"(unsigned int x) noexcept nogil
    int top_bit "ddz_top_bit"(unsigned int x) noexcept nogil
    int ctz64 "ddz_ctz64"(uint64_t x) noexcept nogil
    int top_bit64 "ddz_top_bit64"(uint64_t x) noexcept nogil
    int popcount "ddz_popcount16"(unsigned int x) noexcept nogil     # x < 2**16
    # the packed key of a move row; of a hand's 15 counts; of a row of any
    # bytes, with its number of cards (-1: a byte of 16 or more)
    uint64_t pack_row "ddz_pack_row"(const unsigned char* row) noexcept nogil
    uint64_t pack_hand "ddz_pack_hand"(const unsigned char* h) noexcept nogil
    int row_key "ddz_row_key"(const unsigned char* row, uint64_t* key) noexcept nogil

cdef enum:
    CARD_KEY_BITS = 60           # the key bits of the 15 counts (the kind above them)


cdef inline uint64_t key_hash(uint64_t key) noexcept nogil:
    # Fibonacci hashing (key * 2^64 / golden ratio): use the top bits.
    return key * <uint64_t>0x9E3779B97F4A7C15
