// C ABI over unum::usearch::index_dense_t for Longship's WebAssembly build.
//
// Every fallible call returns a status code (see longship_status_t, mirrored in
// src/index/wasm-status.ts) and, on failure, sets *error to a static message.
// Nothing here may abort the module: USearch's error_t terminates in its destructor
// when exceptions are off, so every error is release()d before it goes out of scope.
// Keys cross the boundary as doubles: JS numbers, exact below 2^53.

#include <emscripten/emscripten.h>
#include <malloc.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <usearch/index_dense.hpp>

#include "kernels.hpp"

using namespace unum::usearch;
using vector_key_t = index_dense_t::vector_key_t;

using longship_status_t = int;
enum : longship_status_t {
    longship_ok_k = 0,
    longship_invalid_argument_k = 1,
    longship_out_of_memory_k = 2,
    longship_duplicate_key_k = 3,
    longship_read_only_k = 4,
    longship_corrupt_k = 5,
    longship_usearch_k = 6,
};

enum : int { longship_cos_k = 0, longship_ip_k = 1, longship_l2sq_k = 2 };
enum : int { longship_f32_k = 0, longship_f16_k = 1, longship_i8_k = 2 };

struct longship_index_t {
    index_dense_t index;
    // Set by longship_load(): the serialized bytes the index's nodes and vectors lie in, owned here and freed
    // with the index. A load writes into them where they are (USearch's adopt_viewed_bytes()), so
    // that opening copies nothing and faults in no second copy; a view refuses writes.
    std::uint8_t* bytes = nullptr;
    std::size_t graph_at = 0; // where the graph starts in `bytes`: what lies before it is vectors and head
    bool read_only = false;
    std::vector<vector_key_t> allowed; // scratch for filtered search, reused between calls
    // Cosine over f32/f16 stores unit vectors and measures 1 − a·b (kernels.hpp unit_cos_*). False for
    // bytes serialized before that (no unit_mark_k in their head): their vectors keep their lengths.
    bool unit = false;
    std::vector<float> normalized; // `dimensions` floats: a vector or query scaled to unit length
};

namespace {

template <typename result_at> longship_status_t fail(result_at& result, longship_status_t code, char const** error) {
    *error = result.error.release();
    return code;
}

longship_status_t fail(longship_status_t code, char const* message, char const** error) {
    *error = message;
    return code;
}

metric_kind_t to_metric_kind(int metric) {
    switch (metric) {
    case longship_cos_k: return metric_kind_t::cos_k;
    case longship_ip_k: return metric_kind_t::ip_k;
    case longship_l2sq_k: return metric_kind_t::l2sq_k;
    default: return metric_kind_t::unknown_k;
    }
}

scalar_kind_t to_scalar_kind(int scalar) {
    switch (scalar) {
    case longship_f32_k: return scalar_kind_t::f32_k;
    case longship_f16_k: return scalar_kind_t::f16_k;
    case longship_i8_k: return scalar_kind_t::i8_k;
    default: return scalar_kind_t::unknown_k;
    }
}

// Whether this build stores unit vectors for the kind: cosine over f32 and f16. (i8 stores a direction
// already, scaled to 127 rather than 1, and keeps its own kernel.)
bool stores_unit(metric_kind_t metric, scalar_kind_t scalar) {
    return metric == metric_kind_t::cos_k && (scalar == scalar_kind_t::f32_k || scalar == scalar_kind_t::f16_k);
}

// Marks bytes whose cos vectors are unit: the last byte of USearch's 64-byte dense head, which
// 2.26.2 zeroes on save and never reads (it parses only the first 42). Any other value reads as
// unmarked, which is always correct: the full cosine measures unit vectors as well as any.
constexpr std::size_t unit_mark_at_k = 63;
constexpr std::uint8_t unit_mark_k = 'U';

// Our SIMD128 kernels (kernels.hpp) for every kind this build creates; `unit` picks the one-sum cosine.
metric_punned_t make_metric(std::size_t dims, metric_kind_t metric, scalar_kind_t scalar, bool unit) {
    using fn_t = float (*)(longship::uptr_t, longship::uptr_t, longship::uptr_t);
    fn_t fn = nullptr;
    if (scalar == scalar_kind_t::i8_k)
        fn = metric == metric_kind_t::cos_k  ? &longship::cos_i8
             : metric == metric_kind_t::ip_k ? &longship::ip_i8
                                             : &longship::l2sq_i8;
    else if (scalar == scalar_kind_t::f16_k)
        fn = metric == metric_kind_t::cos_k  ? (unit ? &longship::unit_cos_f16 : &longship::cos_f16)
             : metric == metric_kind_t::ip_k ? &longship::ip_f16
                                             : &longship::l2sq_f16;
    else if (scalar == scalar_kind_t::f32_k)
        fn = metric == metric_kind_t::cos_k  ? (unit ? &longship::unit_cos_f32 : &longship::cos_f32)
             : metric == metric_kind_t::ip_k ? &longship::ip_f32
                                             : &longship::l2sq_f32;
    if (!fn)
        return metric_punned_t::builtin(dims, metric, scalar);
    return metric_punned_t::stateless(dims, reinterpret_cast<std::uintptr_t>(fn),
                                      metric_punned_signature_t::array_array_size_k, metric, scalar);
}

// No threads in this build: one slot for add and one for search.
index_limits_t limits_for(std::size_t members) { return index_limits_t(members, 1); }

// Grows capacity geometrically so that a stream of single adds stays amortised O(1).
bool ensure_capacity(index_dense_t& index, std::size_t extra) {
    std::size_t needed = index.size() + extra;
    if (needed <= index.capacity())
        return true;
    std::size_t grown = (std::max)(needed, index.capacity() + index.capacity() / 2 + 64);
    return index.try_reserve(limits_for(grown));
}

std::uint64_t bytes_per_scalar(scalar_kind_t scalar) {
    switch (scalar) {
    case scalar_kind_t::f32_k: return 4;
    case scalar_kind_t::f16_k: return 2;
    case scalar_kind_t::i8_k: return 1;
    default: return 0;
    }
}

template <typename value_at> value_at read_at(std::uint8_t const* bytes, std::uint64_t offset) {
    value_at value;
    std::memcpy(&value, bytes + offset, sizeof(value));
    return value;
}

// USearch checks that each part of a serialized index fits in the bytes, not that the parts agree:
// a corrupt scalar kind left the metric a null function, and a corrupt dimension count made search
// read past each vector. Returns the offset of the graph after the dense header, or 0 if corrupt.
std::uint64_t check_dense_head(std::uint8_t const* bytes, index_dense_metadata_result_t const& metadata,
                               char const** error) {
    index_dense_head_t const& head = metadata.head;
    if (metadata.config.exclude_vectors)
        return *error = "The serialized index holds no vectors", 0;
    std::uint64_t scalar_bytes = bytes_per_scalar(head.kind_scalar);
    if (!scalar_bytes)
        return *error = "Unsupported scalar kind in serialized index", 0;
    // index_dense_metadata_from_buffer() checked that the matrix and the header fit in the bytes.
    bool wide = metadata.config.use_64_bit_dimensions;
    std::uint64_t rows = wide ? read_at<std::uint64_t>(bytes, 0) : read_at<std::uint32_t>(bytes, 0);
    std::uint64_t columns = wide ? read_at<std::uint64_t>(bytes, 8) : read_at<std::uint32_t>(bytes, 4);
    std::uint64_t dimensions = head.dimensions;
    if (!dimensions || dimensions > columns || dimensions * scalar_bytes != columns)
        return *error = "Dimensions in the header do not match the stored vectors", 0;
    return (wide ? 16 : 8) + rows * columns + sizeof(index_dense_head_buffer_t);
}

// USearch checks that the graph's nodes fit in the bytes, not that its links stay inside the graph:
// a corrupt entry slot, level or neighbour slot made search read out of bounds and trap. Runs after a
// successful view(), which validated the connectivity and the size of every node.
bool graph_is_sound(std::uint8_t const* bytes, std::uint64_t length, std::uint64_t offset) {
    using level_t = std::int16_t;
    using count_t = std::uint32_t;
    using slot_t = index_dense_t::compressed_slot_t;
    index_serialized_header_t header;
    if (offset > length || length - offset < sizeof(header))
        return false;
    std::memcpy(&header, bytes + offset, sizeof(header));
    std::uint64_t size = header.size;
    if (!size)
        return true;
    std::uint64_t levels = offset + sizeof(header);
    std::uint64_t base_bytes = sizeof(count_t) + header.connectivity_base * sizeof(slot_t);
    std::uint64_t upper_bytes = sizeof(count_t) + header.connectivity * sizeof(slot_t);
    std::uint64_t node = levels + size * sizeof(level_t);
    std::uint64_t top = 0;
    for (std::uint64_t i = 0; i != size; ++i) {
        level_t level = read_at<level_t>(bytes, levels + i * sizeof(level_t));
        if (level < 0 || static_cast<std::uint64_t>(level) > header.max_level)
            return false;
        std::uint64_t node_bytes = sizeof(vector_key_t) + sizeof(level_t) + base_bytes + level * upper_bytes;
        if (node > length || length - node < node_bytes ||
            read_at<level_t>(bytes, node + sizeof(vector_key_t)) != level)
            return false;
        std::uint64_t list = node + sizeof(vector_key_t) + sizeof(level_t);
        for (level_t at = 0; at <= level; ++at) {
            count_t count = read_at<count_t>(bytes, list);
            if (count > (at ? header.connectivity : header.connectivity_base))
                return false;
            for (count_t j = 0; j != count; ++j)
                if (read_at<slot_t>(bytes, list + sizeof(count_t) + j * sizeof(slot_t)) >= size)
                    return false;
            list += at ? upper_bytes : base_bytes;
        }
        top = (std::max)(top, static_cast<std::uint64_t>(level));
        node += node_bytes;
    }
    return header.entry_slot < size && top == header.max_level &&
           static_cast<std::uint64_t>(read_at<level_t>(bytes, levels + header.entry_slot * sizeof(level_t))) ==
               header.max_level;
}

// The vector to store or measure: `vector` itself, or for a unit index its unit copy in handle->normalized
// (valid until the next call). Every add and search passes its vector through here before measuring: the
// i8 kernels forget the norm they keep from the call before (kernels.hpp).
float const* measured(longship_index_t* handle, float const* vector) {
    longship::forget_i8_norm();
    if (!handle->unit)
        return vector;
    longship::normalize_f32(vector, handle->normalized.data(), handle->normalized.size());
    return handle->normalized.data();
}

// Where the dense head starts in bytes that index_dense_metadata_from_buffer() accepted.
std::uint64_t dense_head_at(std::uint8_t const* bytes, bool wide) {
    std::uint64_t rows = wide ? read_at<std::uint64_t>(bytes, 0) : read_at<std::uint32_t>(bytes, 0);
    std::uint64_t columns = wide ? read_at<std::uint64_t>(bytes, 8) : read_at<std::uint32_t>(bytes, 4);
    return (wide ? 16 : 8) + rows * columns;
}

// longship_load() leaves the key -> slot table out (search never reads it): the calls that look keys up
// fill it first, once. False when out of memory.
bool keys_ready(longship_index_t* handle) { return handle->index.restore_key_lookups(); }

void write_results(index_dense_t::search_result_t const& result, double* keys, float* distances,
                   std::size_t* found) {
    std::size_t count = result.size();
    for (std::size_t i = 0; i != count; ++i) {
        keys[i] = static_cast<double>(result[i].member.key);
        distances[i] = result[i].distance;
    }
    *found = count;
}

} // namespace

extern "C" {

EMSCRIPTEN_KEEPALIVE longship_status_t longship_index_new(std::size_t dims, int metric, int scalar,
                                                          std::size_t connectivity, std::size_t expansion_add,
                                                          std::size_t expansion_search, longship_index_t** out,
                                                          char const** error) {
    metric_kind_t metric_kind = to_metric_kind(metric);
    scalar_kind_t scalar_kind = to_scalar_kind(scalar);
    if (!dims || metric_kind == metric_kind_t::unknown_k || scalar_kind == scalar_kind_t::unknown_k)
        return fail(longship_invalid_argument_k, "Unknown metric or scalar kind, or zero dimensions", error);

    index_dense_config_t config(connectivity, expansion_add, expansion_search);
    bool unit = stores_unit(metric_kind, scalar_kind);
    auto made = index_dense_t::make(make_metric(dims, metric_kind, scalar_kind, unit), config,
                                    default_free_value<vector_key_t>(), limits_for(0));
    if (!made)
        return fail(made, longship_invalid_argument_k, error);

    auto* handle = new (std::nothrow) longship_index_t{std::move(made.index)};
    if (!handle)
        return fail(longship_out_of_memory_k, "Out of memory", error);
    handle->unit = unit;
    handle->normalized.resize(dims);
    *out = handle;
    return longship_ok_k;
}

EMSCRIPTEN_KEEPALIVE void longship_index_free(longship_index_t* handle) {
    if (!handle)
        return;
    std::uint8_t* bytes = handle->bytes;
    delete handle; // the index first: it points into the bytes
    std::free(bytes);
}

EMSCRIPTEN_KEEPALIVE longship_status_t longship_reserve(longship_index_t* handle, std::size_t capacity,
                                                        char const** error) {
    if (handle->read_only)
        return fail(longship_read_only_k, "A viewed index is read-only", error);
    if (capacity > handle->index.capacity() && !handle->index.try_reserve(limits_for(capacity)))
        return fail(longship_out_of_memory_k, "Out of memory while reserving capacity", error);
    return longship_ok_k;
}

EMSCRIPTEN_KEEPALIVE longship_status_t longship_add(longship_index_t* handle, double const* keys,
                                                    float const* vectors, std::size_t count, std::size_t* added,
                                                    char const** error) {
    *added = 0;
    index_dense_t& index = handle->index;
    if (handle->read_only)
        return fail(longship_read_only_k, "A viewed index is read-only", error);
    if (!keys_ready(handle) || !ensure_capacity(index, count))
        return fail(longship_out_of_memory_k, "Out of memory while growing the index", error);
    std::size_t dims = index.dimensions();
    for (std::size_t i = 0; i != count; ++i) {
        vector_key_t key = static_cast<vector_key_t>(keys[i]);
        if (index.contains(key))
            return fail(longship_duplicate_key_k, "Key already present", error);
        auto result = index.add(key, measured(handle, vectors + i * dims));
        if (!result)
            return fail(result, longship_usearch_k, error);
        *added = i + 1;
    }
    return longship_ok_k;
}

EMSCRIPTEN_KEEPALIVE longship_status_t longship_search(longship_index_t* handle, float const* query,
                                                       std::size_t wanted, int exact, double* keys, float* distances,
                                                       std::size_t* found, char const** error) {
    auto result = handle->index.search(measured(handle, query), wanted, index_dense_t::any_thread(), exact != 0);
    if (!result)
        return fail(result, longship_usearch_k, error);
    write_results(result, keys, distances, found);
    return longship_ok_k;
}

// HNSW search that only accepts keys in an allow-list, binary-searched inside WASM:
// no call back into JS per candidate.
EMSCRIPTEN_KEEPALIVE longship_status_t longship_filtered_search(longship_index_t* handle, float const* query,
                                                                std::size_t wanted, double const* allowed,
                                                                std::size_t allowed_count, int exact, double* keys,
                                                                float* distances, std::size_t* found,
                                                                char const** error) {
    std::vector<vector_key_t>& sorted = handle->allowed;
    sorted.resize(allowed_count);
    for (std::size_t i = 0; i != allowed_count; ++i)
        sorted[i] = static_cast<vector_key_t>(allowed[i]);
    std::sort(sorted.begin(), sorted.end());
    auto is_allowed = [&sorted](vector_key_t key) noexcept {
        return std::binary_search(sorted.begin(), sorted.end(), key);
    };
    auto result = handle->index.filtered_search(measured(handle, query), wanted, is_allowed,
                                                index_dense_t::any_thread(), exact != 0);
    if (!result)
        return fail(result, longship_usearch_k, error);
    write_results(result, keys, distances, found);
    return longship_ok_k;
}

// Exact top-k over a small allow-list: O(allowed) lookups instead of a walk over the graph
// that rejects almost every candidate. The query is cast to the stored scalar type and measured
// with the index's own metric, exactly as search() measures it, so the distances are identical.
// `scratch` holds dims f32s: the stored vector, then (for f16 and i8) the cast query after it.
EMSCRIPTEN_KEEPALIVE longship_status_t longship_score_keys(longship_index_t* handle, float const* query,
                                                           std::size_t wanted, double const* allowed,
                                                           std::size_t allowed_count, float* scratch, double* keys,
                                                           float* distances, std::size_t* found,
                                                           char const** error) {
    index_dense_t& index = handle->index;
    if (!keys_ready(handle))
        return fail(longship_out_of_memory_k, "Out of memory while indexing the keys", error);
    metric_punned_t const& metric = index.metric();
    scalar_kind_t scalar = index.scalar_kind();
    byte_t* stored = reinterpret_cast<byte_t*>(scratch);
    byte_t const* probe = reinterpret_cast<byte_t const*>(measured(handle, query));
    byte_t* cast_query = stored + metric.bytes_per_vector();
    if (casts_punned_t::make(scalar).from.f32(probe, index.dimensions(), cast_query))
        probe = cast_query;
    // A key listed twice must not come back twice.
    std::vector<vector_key_t>& sorted = handle->allowed;
    sorted.assign(allowed, allowed + allowed_count);
    std::sort(sorted.begin(), sorted.end());
    sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
    using scored_t = std::pair<float, vector_key_t>;
    std::vector<scored_t> scored;
    scored.reserve(sorted.size());
    for (vector_key_t key : sorted) {
        bool present = scalar == scalar_kind_t::i8_k    ? index.get(key, reinterpret_cast<i8_t*>(stored))
                       : scalar == scalar_kind_t::f16_k ? index.get(key, reinterpret_cast<f16_t*>(stored))
                                                        : index.get(key, reinterpret_cast<f32_t*>(stored));
        if (present)
            scored.emplace_back(metric(probe, stored), key);
    }
    std::size_t count = (std::min)(wanted, scored.size());
    std::partial_sort(scored.begin(), scored.begin() + count, scored.end());
    for (std::size_t i = 0; i != count; ++i)
        keys[i] = static_cast<double>(scored[i].second), distances[i] = scored[i].first;
    *found = count;
    return longship_ok_k;
}

// Distances from `query` to `count` f32 vectors laid end to end, by the index's metric in f32: rescoring
// a quantized index's candidates with the caller's full-precision vectors, at SIMD speed instead of in JS.
// The caller's vectors need not be unit, so cosine here is the full one.
EMSCRIPTEN_KEEPALIVE void longship_f32_distances(longship_index_t* handle, float const* query, float const* vectors,
                                                 std::size_t count, float* distances) {
    using fn_t = float (*)(longship::uptr_t, longship::uptr_t, longship::uptr_t);
    metric_kind_t metric = handle->index.metric().metric_kind();
    fn_t fn = metric == metric_kind_t::cos_k  ? &longship::cos_f32
              : metric == metric_kind_t::ip_k ? &longship::ip_f32
                                              : &longship::l2sq_f32;
    std::size_t dims = handle->index.dimensions();
    for (std::size_t i = 0; i != count; ++i)
        distances[i] = fn(reinterpret_cast<longship::uptr_t>(query),
                          reinterpret_cast<longship::uptr_t>(vectors + i * dims), dims);
}

EMSCRIPTEN_KEEPALIVE longship_status_t longship_remove(longship_index_t* handle, double key, std::size_t* removed,
                                                       char const** error) {
    if (handle->read_only)
        return fail(longship_read_only_k, "A viewed index is read-only", error);
    if (!keys_ready(handle))
        return fail(longship_out_of_memory_k, "Out of memory while indexing the keys", error);
    auto result = handle->index.remove(static_cast<vector_key_t>(key));
    if (!result)
        return fail(result, longship_usearch_k, error);
    *removed = result.completed;
    return longship_ok_k;
}

// 1 present, 0 absent, -1 out of memory (filling the key table).
EMSCRIPTEN_KEEPALIVE int longship_contains(longship_index_t* handle, double key) {
    if (!keys_ready(handle))
        return -1;
    return handle->index.contains(static_cast<vector_key_t>(key)) ? 1 : 0;
}

// Writes the stored vector, dequantised to f32, and returns 1; 0 when the key is absent, -1 out of memory.
EMSCRIPTEN_KEEPALIVE int longship_get(longship_index_t* handle, double key, float* vector) {
    if (!keys_ready(handle))
        return -1;
    return handle->index.get(static_cast<vector_key_t>(key), vector) ? 1 : 0;
}

EMSCRIPTEN_KEEPALIVE std::size_t longship_size(longship_index_t* handle) { return handle->index.size(); }
EMSCRIPTEN_KEEPALIVE std::size_t longship_capacity(longship_index_t* handle) { return handle->index.capacity(); }
EMSCRIPTEN_KEEPALIVE std::size_t longship_dimensions(longship_index_t* handle) { return handle->index.dimensions(); }
EMSCRIPTEN_KEEPALIVE std::size_t longship_connectivity(longship_index_t* handle) {
    return handle->index.connectivity();
}
EMSCRIPTEN_KEEPALIVE int longship_metric(longship_index_t* handle) {
    switch (handle->index.metric().metric_kind()) {
    case metric_kind_t::cos_k: return longship_cos_k;
    case metric_kind_t::ip_k: return longship_ip_k;
    case metric_kind_t::l2sq_k: return longship_l2sq_k;
    default: return -1;
    }
}
EMSCRIPTEN_KEEPALIVE int longship_scalar(longship_index_t* handle) {
    switch (handle->index.scalar_kind()) {
    case scalar_kind_t::f32_k: return longship_f32_k;
    case scalar_kind_t::f16_k: return longship_f16_k;
    case scalar_kind_t::i8_k: return longship_i8_k;
    default: return -1;
    }
}
EMSCRIPTEN_KEEPALIVE std::size_t longship_memory_usage(longship_index_t* handle) {
    // A view's count leaves its nodes out; a loaded index counts them, and not the vectors in its bytes.
    std::size_t bytes = handle->read_only ? handle->index.serialized_length() : handle->graph_at;
    return handle->index.memory_usage() + bytes;
}

EMSCRIPTEN_KEEPALIVE void longship_change_expansion(longship_index_t* handle, std::size_t add, std::size_t search) {
    if (add)
        handle->index.change_expansion_add(add);
    if (search)
        handle->index.change_expansion_search(search);
}

EMSCRIPTEN_KEEPALIVE std::size_t longship_serialized_length(longship_index_t* handle) {
    return handle->index.serialized_length();
}

EMSCRIPTEN_KEEPALIVE longship_status_t longship_save(longship_index_t* handle, std::uint8_t* buffer,
                                                     std::size_t length, char const** error) {
    auto result = handle->index.save(memory_mapped_file_t(reinterpret_cast<byte_t*>(buffer), length));
    if (!result)
        return fail(result, longship_usearch_k, error);
    // save() with the default serialization_config_t writes the matrix dimensions as 32-bit.
    if (handle->unit)
        buffer[dense_head_at(buffer, false) + unit_mark_at_k] = unit_mark_k;
    return longship_ok_k;
}

// Makes a view writable where it lies: its bytes are the module's own heap, which it owns.
EMSCRIPTEN_KEEPALIVE void longship_adopt(longship_index_t* handle) {
    handle->index.adopt_viewed_bytes();
    handle->read_only = false;
}

// Replaces the index with serialized bytes, which it reads in place and takes ownership of (the caller
// frees `buffer` only on failure). With view != 0 the index is read-only until longship_adopt().
EMSCRIPTEN_KEEPALIVE longship_status_t longship_load(longship_index_t* handle, std::uint8_t* buffer,
                                                     std::size_t length, int view, char const** error) {
    // USearch trusts the header's sizes; check the bytes hold what the header claims first.
    auto metadata = index_dense_metadata_from_buffer(
        memory_mapped_file_t(reinterpret_cast<byte_t*>(buffer), length), 0);
    if (!metadata)
        return fail(metadata, longship_corrupt_k, error);
    index_dense_head_t const& head = metadata.head;
    if (to_metric_kind(longship_cos_k) != head.kind_metric && to_metric_kind(longship_ip_k) != head.kind_metric &&
        to_metric_kind(longship_l2sq_k) != head.kind_metric)
        return fail(longship_corrupt_k, "Unsupported metric in serialized index", error);

    std::uint64_t graph = check_dense_head(buffer, metadata, error);
    if (!graph)
        return longship_corrupt_k;
    // Read from the bytes: metadata.head points into its own copy of the 42 bytes USearch parses.
    bool unit = stores_unit(head.kind_metric, head.kind_scalar) &&
                buffer[dense_head_at(buffer, metadata.config.use_64_bit_dimensions) + unit_mark_at_k] == unit_mark_k;

    memory_mapped_file_t file(reinterpret_cast<byte_t*>(buffer), length);
    handle->index.defer_key_lookups();
    auto result = handle->index.view(std::move(file));
    if (!result)
        return fail(result, longship_corrupt_k, error);
    if (!graph_is_sound(buffer, length, graph)) {
        handle->index.reset();
        return fail(longship_corrupt_k, "The graph is corrupt: a level, link or entry point is out of range", error);
    }

    // view() rebuilds the metric from the header with USearch's own loops.
    metric_punned_t metric = make_metric(head.dimensions, head.kind_metric, head.kind_scalar, unit);
    if (!handle->index.try_change_metric(metric))
        return fail(longship_out_of_memory_k, "Out of memory while restoring the metric", error);
    handle->unit = unit;
    handle->normalized.resize(head.dimensions);
    std::free(handle->bytes);
    handle->bytes = buffer;
    handle->graph_at = graph;
    handle->read_only = true;
    if (!view)
        longship_adopt(handle);
    return longship_ok_k;
}

// Bytes in use on the module's heap: what leak tests watch across create/free cycles.
EMSCRIPTEN_KEEPALIVE std::size_t longship_heap_used() { return mallinfo().uordblks; }

} // extern "C"
