// SIMD128 distance kernels for f32, f16 and i8 storage.
//
// With NumKong off (it needs relaxed SIMD, which this emscripten lacks), USearch's
// i8 and f16 metrics are scalar loops: i8 ~4x and f16 ~7x slower than f32 in WASM.
// These kernels are registered as stateless metrics with the same kinds, so the
// serialized format is unchanged. Signature: (a, b, dimensions) -> distance.
#pragma once

#include <wasm_simd128.h>

#include <cmath>
#include <cstddef>
#include <cstdint>

namespace longship {

using uptr_t = std::uintptr_t;

struct i8_sums_t {
    std::int32_t ab, a2, b2;
};

// Sums of a·b, a·a and b·b over signed bytes, 16 lanes at a time via i32x4.dot_i16x8_s. With
// `SumA2` false, a·a is not summed but taken as `a2_known` (see i8_last_norm below).
template <bool SumA2 = true>
inline i8_sums_t i8_sums(std::int8_t const* a, std::int8_t const* b, std::size_t n, std::int32_t a2_known = 0) noexcept {
    v128_t ab = wasm_i32x4_splat(0), a2 = wasm_i32x4_splat(0), b2 = wasm_i32x4_splat(0);
    std::size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        v128_t va = wasm_v128_load(a + i), vb = wasm_v128_load(b + i);
        v128_t al = wasm_i16x8_extend_low_i8x16(va), ah = wasm_i16x8_extend_high_i8x16(va);
        v128_t bl = wasm_i16x8_extend_low_i8x16(vb), bh = wasm_i16x8_extend_high_i8x16(vb);
        ab = wasm_i32x4_add(ab, wasm_i32x4_add(wasm_i32x4_dot_i16x8(al, bl), wasm_i32x4_dot_i16x8(ah, bh)));
        if constexpr (SumA2)
            a2 = wasm_i32x4_add(a2, wasm_i32x4_add(wasm_i32x4_dot_i16x8(al, al), wasm_i32x4_dot_i16x8(ah, ah)));
        b2 = wasm_i32x4_add(b2, wasm_i32x4_add(wasm_i32x4_dot_i16x8(bl, bl), wasm_i32x4_dot_i16x8(bh, bh)));
    }
    i8_sums_t s{
        wasm_i32x4_extract_lane(ab, 0) + wasm_i32x4_extract_lane(ab, 1) + wasm_i32x4_extract_lane(ab, 2) +
            wasm_i32x4_extract_lane(ab, 3),
        SumA2 ? wasm_i32x4_extract_lane(a2, 0) + wasm_i32x4_extract_lane(a2, 1) + wasm_i32x4_extract_lane(a2, 2) +
                    wasm_i32x4_extract_lane(a2, 3)
              : a2_known,
        wasm_i32x4_extract_lane(b2, 0) + wasm_i32x4_extract_lane(b2, 1) + wasm_i32x4_extract_lane(b2, 2) +
            wasm_i32x4_extract_lane(b2, 3),
    };
    for (; i != n; ++i) {
        std::int32_t ai = a[i], bi = b[i];
        s.ab += ai * bi, s.b2 += bi * bi;
        if constexpr (SumA2)
            s.a2 += ai * ai;
    }
    return s;
}

// Cosine distance; a zero dot product is distance 1 (orthogonal), not 0 as in
// USearch 2.26.2's scalar loop. Two zero vectors are distance 0, one zero vector 1.
inline float cos_distance(float ab, float a2, float b2) noexcept {
    if (a2 == 0 && b2 == 0) return 0.f;
    if (a2 == 0 || b2 == 0) return 1.f;
    return 1.f - ab / (std::sqrt(a2) * std::sqrt(b2));
}

// a·a of the last first argument measured. Within one add or search the first argument stays the same
// for runs of calls (the query, or the node whose links are being chosen), so its sum is taken once a run:
// a third less work a call, and the same integers, so the same distances. The binding forgets it before
// every add and search, whose query buffer is reused with new contents. (One thread in this build.)
struct i8_norm_t {
    std::int8_t const* a = nullptr;
    std::int32_t a2 = 0;
};
inline i8_norm_t i8_last_norm;
inline void forget_i8_norm() noexcept { i8_last_norm.a = nullptr; }

inline i8_sums_t i8_sums_of(uptr_t ua, uptr_t ub, uptr_t n) noexcept {
    std::int8_t const *a = (std::int8_t const*)ua, *b = (std::int8_t const*)ub;
    if (a == i8_last_norm.a)
        return i8_sums<false>(a, b, n, i8_last_norm.a2);
    i8_sums_t s = i8_sums(a, b, n);
    i8_last_norm = {a, s.a2};
    return s;
}

inline float cos_i8(uptr_t a, uptr_t b, uptr_t n) noexcept {
    i8_sums_t s = i8_sums_of(a, b, n);
    return cos_distance((float)s.ab, (float)s.a2, (float)s.b2);
}

// USearch stores i8 as trunc(127 * x / |x|): a direction only, and truncation shortens it by a few
// percent (more, the more dimensions), so a.b / 127^2 came out biased low: 0.08 for a 100-d unit
// vector and itself. For unit vectors the inner product is the cosine, so measure that instead.
inline float ip_i8(uptr_t a, uptr_t b, uptr_t n) noexcept {
    i8_sums_t s = i8_sums_of(a, b, n);
    if (s.a2 == 0 || s.b2 == 0) return 1.f;
    return 1.f - (float)s.ab / (std::sqrt((float)s.a2) * std::sqrt((float)s.b2));
}

// Differences of two bytes fit in i16, so (a - b)² sums exactly, with no cancellation.
inline float l2sq_i8(uptr_t ua, uptr_t ub, uptr_t n) noexcept {
    std::int8_t const *a = (std::int8_t const*)ua, *b = (std::int8_t const*)ub;
    v128_t sum = wasm_i32x4_splat(0);
    std::size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        v128_t va = wasm_v128_load(a + i), vb = wasm_v128_load(b + i);
        v128_t dl = wasm_i16x8_sub(wasm_i16x8_extend_low_i8x16(va), wasm_i16x8_extend_low_i8x16(vb));
        v128_t dh = wasm_i16x8_sub(wasm_i16x8_extend_high_i8x16(va), wasm_i16x8_extend_high_i8x16(vb));
        sum = wasm_i32x4_add(sum, wasm_i32x4_add(wasm_i32x4_dot_i16x8(dl, dl), wasm_i32x4_dot_i16x8(dh, dh)));
    }
    std::int32_t total = wasm_i32x4_extract_lane(sum, 0) + wasm_i32x4_extract_lane(sum, 1) +
                         wasm_i32x4_extract_lane(sum, 2) + wasm_i32x4_extract_lane(sum, 3);
    for (; i != n; ++i) {
        std::int32_t d = a[i] - b[i];
        total += d * d;
    }
    return (float)total / (127.f * 127.f);
}

// Half to single precision for four lanes: shift exponent and mantissa into place and
// multiply by 2^112 to rebias the exponent, which also handles subnormals. Infinities
// and NaNs do not occur in embeddings; they come out as large finite values.
inline v128_t f16x4_to_f32x4(v128_t h32) noexcept {
    v128_t magnitude = wasm_i32x4_shl(wasm_v128_and(h32, wasm_i32x4_splat(0x7fff)), 13);
    v128_t sign = wasm_i32x4_shl(wasm_v128_and(h32, wasm_i32x4_splat(0x8000)), 16);
    v128_t scaled = wasm_f32x4_mul(magnitude, wasm_f32x4_splat(0x1p112f));
    return wasm_v128_or(scaled, sign);
}

struct f32_sums_t {
    float ab, a2, b2;
};

inline float horizontal_sum(v128_t v) noexcept {
    return wasm_f32x4_extract_lane(v, 0) + wasm_f32x4_extract_lane(v, 1) + wasm_f32x4_extract_lane(v, 2) +
           wasm_f32x4_extract_lane(v, 3);
}

inline float f16_scalar(std::uint16_t h) noexcept {
    std::uint32_t bits = (std::uint32_t)(h & 0x7fff) << 13;
    float f;
    __builtin_memcpy(&f, &bits, 4);
    f *= 0x1p112f;
    return (h & 0x8000) ? -f : f;
}

inline f32_sums_t f16_sums(std::uint16_t const* a, std::uint16_t const* b, std::size_t n) noexcept {
    v128_t ab = wasm_f32x4_splat(0), a2 = wasm_f32x4_splat(0), b2 = wasm_f32x4_splat(0);
    std::size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        v128_t va = wasm_v128_load(a + i), vb = wasm_v128_load(b + i);
        v128_t al = f16x4_to_f32x4(wasm_u32x4_extend_low_u16x8(va));
        v128_t ah = f16x4_to_f32x4(wasm_u32x4_extend_high_u16x8(va));
        v128_t bl = f16x4_to_f32x4(wasm_u32x4_extend_low_u16x8(vb));
        v128_t bh = f16x4_to_f32x4(wasm_u32x4_extend_high_u16x8(vb));
        ab = wasm_f32x4_add(ab, wasm_f32x4_add(wasm_f32x4_mul(al, bl), wasm_f32x4_mul(ah, bh)));
        a2 = wasm_f32x4_add(a2, wasm_f32x4_add(wasm_f32x4_mul(al, al), wasm_f32x4_mul(ah, ah)));
        b2 = wasm_f32x4_add(b2, wasm_f32x4_add(wasm_f32x4_mul(bl, bl), wasm_f32x4_mul(bh, bh)));
    }
    f32_sums_t s{horizontal_sum(ab), horizontal_sum(a2), horizontal_sum(b2)};
    for (; i != n; ++i) {
        float ai = f16_scalar(a[i]), bi = f16_scalar(b[i]);
        s.ab += ai * bi, s.a2 += ai * ai, s.b2 += bi * bi;
    }
    return s;
}

inline float cos_f16(uptr_t a, uptr_t b, uptr_t n) noexcept {
    f32_sums_t s = f16_sums((std::uint16_t const*)a, (std::uint16_t const*)b, n);
    return cos_distance(s.ab, s.a2, s.b2);
}

// a·b alone: the one sum that inner product and cosine of unit vectors need.
inline float f16_dot(std::uint16_t const* a, std::uint16_t const* b, std::size_t n) noexcept {
    v128_t s0 = wasm_f32x4_splat(0), s1 = s0;
    std::size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        v128_t va = wasm_v128_load(a + i), vb = wasm_v128_load(b + i);
        s0 = wasm_f32x4_add(s0, wasm_f32x4_mul(f16x4_to_f32x4(wasm_u32x4_extend_low_u16x8(va)),
                                               f16x4_to_f32x4(wasm_u32x4_extend_low_u16x8(vb))));
        s1 = wasm_f32x4_add(s1, wasm_f32x4_mul(f16x4_to_f32x4(wasm_u32x4_extend_high_u16x8(va)),
                                               f16x4_to_f32x4(wasm_u32x4_extend_high_u16x8(vb))));
    }
    float ab = horizontal_sum(wasm_f32x4_add(s0, s1));
    for (; i != n; ++i)
        ab += f16_scalar(a[i]) * f16_scalar(b[i]);
    return ab;
}

inline float ip_f16(uptr_t a, uptr_t b, uptr_t n) noexcept {
    return 1.f - f16_dot((std::uint16_t const*)a, (std::uint16_t const*)b, n);
}

inline bool f16_is_zero(std::uint16_t const* a, std::size_t n) noexcept {
    for (std::size_t i = 0; i != n; ++i)
        if (a[i] & 0x7fff)
            return false;
    return true;
}

// Cosine of vectors stored at unit length (zero stays zero), as hnswlib measures it: 1 − a·b, one sum
// instead of three. a·b = 0 is checked further only to keep two zero vectors at distance 0, as cos_f16 has it.
inline float unit_cos_f16(uptr_t ua, uptr_t ub, uptr_t n) noexcept {
    std::uint16_t const *a = (std::uint16_t const*)ua, *b = (std::uint16_t const*)ub;
    float ab = f16_dot(a, b, n);
    return ab == 0 && f16_is_zero(a, n) && f16_is_zero(b, n) ? 0.f : 1.f - ab;
}

inline float l2sq_f16(uptr_t ua, uptr_t ub, uptr_t n) noexcept {
    std::uint16_t const *a = (std::uint16_t const*)ua, *b = (std::uint16_t const*)ub;
    v128_t sum = wasm_f32x4_splat(0);
    std::size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        v128_t va = wasm_v128_load(a + i), vb = wasm_v128_load(b + i);
        v128_t dl = wasm_f32x4_sub(f16x4_to_f32x4(wasm_u32x4_extend_low_u16x8(va)),
                                   f16x4_to_f32x4(wasm_u32x4_extend_low_u16x8(vb)));
        v128_t dh = wasm_f32x4_sub(f16x4_to_f32x4(wasm_u32x4_extend_high_u16x8(va)),
                                   f16x4_to_f32x4(wasm_u32x4_extend_high_u16x8(vb)));
        sum = wasm_f32x4_add(sum, wasm_f32x4_add(wasm_f32x4_mul(dl, dl), wasm_f32x4_mul(dh, dh)));
    }
    float total = horizontal_sum(sum);
    for (; i != n; ++i) {
        float d = f16_scalar(a[i]) - f16_scalar(b[i]);
        total += d * d;
    }
    return total;
}

// f32: USearch's loop keeps one running sum per quantity, so each add waits for the previous one.
// Two independent 4-lane accumulators per sum hide that latency; 512 dimensions take 64 iterations.
inline f32_sums_t f32_sums(float const* a, float const* b, std::size_t n) noexcept {
    v128_t ab0 = wasm_f32x4_splat(0), a20 = ab0, b20 = ab0, ab1 = ab0, a21 = ab0, b21 = ab0;
    std::size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        v128_t x0 = wasm_v128_load(a + i), y0 = wasm_v128_load(b + i);
        v128_t x1 = wasm_v128_load(a + i + 4), y1 = wasm_v128_load(b + i + 4);
        ab0 = wasm_f32x4_add(ab0, wasm_f32x4_mul(x0, y0)), ab1 = wasm_f32x4_add(ab1, wasm_f32x4_mul(x1, y1));
        a20 = wasm_f32x4_add(a20, wasm_f32x4_mul(x0, x0)), a21 = wasm_f32x4_add(a21, wasm_f32x4_mul(x1, x1));
        b20 = wasm_f32x4_add(b20, wasm_f32x4_mul(y0, y0)), b21 = wasm_f32x4_add(b21, wasm_f32x4_mul(y1, y1));
    }
    f32_sums_t s{horizontal_sum(wasm_f32x4_add(ab0, ab1)), horizontal_sum(wasm_f32x4_add(a20, a21)),
                 horizontal_sum(wasm_f32x4_add(b20, b21))};
    for (; i != n; ++i)
        s.ab += a[i] * b[i], s.a2 += a[i] * a[i], s.b2 += b[i] * b[i];
    return s;
}

inline float cos_f32(uptr_t a, uptr_t b, uptr_t n) noexcept {
    f32_sums_t s = f32_sums((float const*)a, (float const*)b, n);
    return cos_distance(s.ab, s.a2, s.b2);
}

inline float f32_dot(float const* a, float const* b, std::size_t n) noexcept {
    v128_t s0 = wasm_f32x4_splat(0), s1 = s0, s2 = s0, s3 = s0;
    std::size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        s0 = wasm_f32x4_add(s0, wasm_f32x4_mul(wasm_v128_load(a + i), wasm_v128_load(b + i)));
        s1 = wasm_f32x4_add(s1, wasm_f32x4_mul(wasm_v128_load(a + i + 4), wasm_v128_load(b + i + 4)));
        s2 = wasm_f32x4_add(s2, wasm_f32x4_mul(wasm_v128_load(a + i + 8), wasm_v128_load(b + i + 8)));
        s3 = wasm_f32x4_add(s3, wasm_f32x4_mul(wasm_v128_load(a + i + 12), wasm_v128_load(b + i + 12)));
    }
    float ab = horizontal_sum(wasm_f32x4_add(wasm_f32x4_add(s0, s1), wasm_f32x4_add(s2, s3)));
    for (; i != n; ++i)
        ab += a[i] * b[i];
    return ab;
}

inline float ip_f32(uptr_t a, uptr_t b, uptr_t n) noexcept { return 1.f - f32_dot((float const*)a, (float const*)b, n); }

inline bool f32_is_zero(float const* a, std::size_t n) noexcept {
    for (std::size_t i = 0; i != n; ++i)
        if (a[i] != 0)
            return false;
    return true;
}

// See unit_cos_f16.
inline float unit_cos_f32(uptr_t ua, uptr_t ub, uptr_t n) noexcept {
    float const *a = (float const*)ua, *b = (float const*)ub;
    float ab = f32_dot(a, b, n);
    return ab == 0 && f32_is_zero(a, n) && f32_is_zero(b, n) ? 0.f : 1.f - ab;
}

// `vector` scaled to unit length into `out` (a zero vector stays zero), for the unit_cos kernels.
// Every path (add, search, exact, filtered, scored) goes through this one function, so a query
// is normalised to the same bits whichever path measures it.
inline void normalize_f32(float const* vector, float* out, std::size_t n) noexcept {
    float norm = std::sqrt(f32_dot(vector, vector, n));
    for (std::size_t i = 0; i != n; ++i)
        out[i] = norm == 0 ? 0.f : vector[i] / norm;
}

inline float l2sq_f32(uptr_t ua, uptr_t ub, uptr_t n) noexcept {
    float const *a = (float const*)ua, *b = (float const*)ub;
    v128_t s0 = wasm_f32x4_splat(0), s1 = s0, s2 = s0, s3 = s0;
    std::size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        v128_t d0 = wasm_f32x4_sub(wasm_v128_load(a + i), wasm_v128_load(b + i));
        v128_t d1 = wasm_f32x4_sub(wasm_v128_load(a + i + 4), wasm_v128_load(b + i + 4));
        v128_t d2 = wasm_f32x4_sub(wasm_v128_load(a + i + 8), wasm_v128_load(b + i + 8));
        v128_t d3 = wasm_f32x4_sub(wasm_v128_load(a + i + 12), wasm_v128_load(b + i + 12));
        s0 = wasm_f32x4_add(s0, wasm_f32x4_mul(d0, d0)), s1 = wasm_f32x4_add(s1, wasm_f32x4_mul(d1, d1));
        s2 = wasm_f32x4_add(s2, wasm_f32x4_mul(d2, d2)), s3 = wasm_f32x4_add(s3, wasm_f32x4_mul(d3, d3));
    }
    float total = horizontal_sum(wasm_f32x4_add(wasm_f32x4_add(s0, s1), wasm_f32x4_add(s2, s3)));
    for (; i != n; ++i) {
        float d = a[i] - b[i];
        total += d * d;
    }
    return total;
}

} // namespace longship
