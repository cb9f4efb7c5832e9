// ascendc_model_sanitizer.h — memcheck, initcheck and synccheck for the CPU model
// (docs/sanitizer.md). Off until begin(); both consumers of the model share it (the C++ API
// through ascendc_model_impl.h, the C ABI through ascendc_model_abi.cpp).
//
// * memcheck: every byte an intrinsic touches lies inside one registered region (a GM argument
//   or an on-chip buffer placed by the lowering); an access outside is reported and skipped.
// * initcheck: each on-chip region has a "written" bit per byte. Writes set it, copies between
//   on-chip buffers (LoadData) propagate it like valgrind's definedness, and a *use* of an unset
//   byte is reported: Mmad operands, Fixpipe's L0C source, DataCopy from on-chip to GM.
// * synccheck: each pipe runs in order; pipes are ordered only by SetFlag -> WaitFlag chains and
//   PipeBarrier<PIPE_ALL>. A vector clock per pipe holds what that pipe has waited for; every
//   intrinsic records the byte ranges it read and wrote with its pipe's clock, and an access
//   that conflicts (RAW, WAR, WAW) with an access of another pipe not ordered before it is
//   reported. A WaitFlag with no SetFlag before it (the pipe would wait forever on hardware)
//   and flags still set at end() are reported too. The Mmad/Fixpipe unitFlag handshake (one
//   flag bit per 512 B L0C block) orders a Fixpipe's read of a block after the Mmad that
//   released it, and an Mmad's write after the Fixpipe that cleared it, block by block; a
//   one-sided handshake and a read of an unfinished accumulation are reported (unit_rules).
// * racecheck: a multi-core launch runs its blocks one after another (begin_block() between
//   them) over the same GM; each GM byte remembers the block that last wrote it, and a write by
//   another block is reported with both block ids (blocks of one launch must write disjoint GM:
//   their order on the device is unspecified). Atomic adds (Fixpipe under SetAtomicAdd) of
//   several blocks into the same bytes commute and are no race; a plain write and an atomic add
//   of two blocks, or two plain writes, are. Each block starts with its own on-chip memory
//   (written bits cleared) and its own pipes and flags (synccheck state reset).
// Only the first violation is kept (later ones are often its consequences); count() has all.
#ifndef ASCENDC_MODEL_SANITIZER_H
#define ASCENDC_MODEL_SANITIZER_H

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <deque>
#include <map>
#include <string>
#include <vector>

namespace ascendc_model {
namespace san {

enum : uint32_t { CHECK_MEM = 1, CHECK_INIT = 2, CHECK_SYNC = 4, CHECK_RACE = 8, CHECK_ALL = 15 };
// AscendC pipe_t numbering (ascendc_model.h, ascendc-emit's llvm.rs): S V M MTE1 MTE2 MTE3 ALL FIX.
enum : uint32_t { PIPE_S = 0, PIPE_V = 1, PIPE_M = 2, PIPE_MTE1 = 3, PIPE_MTE2 = 4, PIPE_MTE3 = 5, PIPE_ALL = 6, PIPE_FIX = 7 };
constexpr uint32_t PIPES = 8;

inline const char* pipe_name(uint32_t p) {
    static const char* names[PIPES] = {"S", "V", "M", "MTE1", "MTE2", "MTE3", "ALL", "FIX"};
    return p < PIPES ? names[p] : "?";
}

using Clock = std::array<uint64_t, PIPES>;

struct Region {
    uintptr_t lo, hi;
    uint32_t elem_bytes;
    std::string name;
    bool on_chip;
    std::vector<uint8_t> written;  // one byte per byte (on-chip regions only)
    std::vector<int32_t> writer;   // racecheck: the block that last wrote each byte, -1 (GM only)
    std::vector<int32_t> other;    // racecheck: the last block before `writer` that wrote it, -1
    std::vector<int32_t> plain;    // racecheck: a block that wrote it plainly (not atomically), -1
};

struct Range {
    uintptr_t lo, hi;
};

struct Access {
    uint32_t pipe;
    uint64_t clock;
    bool write;
    Range bytes;
    std::string what;  // "Mmad #3 (site 12)"
};

// The unit flag of one 512 B L0C block as program order leaves it (asc-devkit UnitFlag): set by
// an Mmad with unitFlag 3 (at M clock `set_clock`), cleared by a Fixpipe
// with unitFlag 3 (at FIX clock `clear_clock`); `last_mmad`: the unitFlag of the last Mmad that
// wrote the block, -1 before any.
struct UnitBlock {
    uint8_t flag = 0;
    int32_t last_mmad = -1;
    uint64_t set_clock = 0;
    bool cleared = false;
    uint64_t clear_clock = 0;
};

constexpr uint64_t UNIT_BYTES = 512;  // ASCENDC_MODEL_UNIT_FLAG_BLOCK_BYTES

struct State {
    uint32_t checks = 0;
    std::vector<Region> regions;
    Clock vc[PIPES] = {};
    std::map<uint32_t, std::deque<std::pair<Clock, int32_t>>> flags;  // (src, dst, id) -> pending SetFlags (clock, site)
    std::vector<Access> history;
    // The intrinsic being executed.
    const char* name = "";
    uint32_t pipe = PIPE_S;
    int32_t site = -1;
    uint64_t calls = 0;
    std::vector<Range> reads, writes;
    uint32_t unit = 0;  // its unitFlag (Mmad, Fixpipe), 0 otherwise
    // Unit flags by host block address / 512: the model's on-chip memories are 4096-aligned
    // (ascendc_model.h ArenaBase, the LLVM form's globals), so that is the L0C block number.
    std::map<uintptr_t, UnitBlock> units;
    // The first violation.
    std::string report;
    int32_t report_site = -1;
    int32_t report_region = -1;
    int64_t report_elem = -1;
    uint64_t violations = 0;
    size_t last_region = 0;  // where the previous lookup hit (accesses come in runs)
    int32_t block = 0;       // the block running (racecheck), set by begin_block()
};

// One sanitizer per thread: JIT-compiled kernels run the model on the calling thread, and
// test threads must not see each other's runs.
inline State& state() {
    static thread_local State s;
    return s;
}

inline bool on(uint32_t check) { return (state().checks & check) != 0; }

inline void begin(uint32_t checks) {
    State& s = state();
    s = State();
    s.checks = checks;
}

// Registers a buffer; accesses are resolved to the first region containing them.
inline void add_region(const void* base, uint64_t bytes, uint32_t elem_bytes, const char* name, bool on_chip) {
    const uintptr_t lo = reinterpret_cast<uintptr_t>(base);
    Region r{lo, lo + bytes, elem_bytes ? elem_bytes : 1, name ? name : "?", on_chip, {}, {}, {}, {}};
    if (on_chip) r.written.assign(bytes, 0);
    if (!on_chip && (state().checks & CHECK_RACE)) {
        r.writer.assign(bytes, -1);
        r.other.assign(bytes, -1);
        r.plain.assign(bytes, -1);
    }
    state().regions.push_back(r);
}

// The static call site of the next intrinsic (an index chosen by the caller: the emitted
// kernel's call number); -1 when unknown.
inline void site(int32_t id) { state().site = id; }

inline int32_t region_of(uintptr_t lo, uintptr_t hi) {
    State& s = state();
    const size_t n = s.regions.size();
    for (size_t k = 0; k < n; ++k) {
        const size_t i = (s.last_region + k) % n;
        if (lo >= s.regions[i].lo && hi <= s.regions[i].hi) {
            s.last_region = i;
            return static_cast<int32_t>(i);
        }
    }
    return -1;
}

inline std::string current() {
    const State& s = state();
    char buf[96];
    std::snprintf(buf, sizeof buf, "%s (PIPE_%s)", s.name, pipe_name(s.pipe));
    return buf;
}

inline void violation(const std::string& message, int32_t region = -1, int64_t elem = -1) {
    State& s = state();
    if (s.violations++ == 0) {
        s.report = message;
        s.report_site = s.site;
        s.report_region = region;
        s.report_elem = elem;
    }
}

// Where [lo, hi) lies relative to the regions, for a memcheck report.
inline std::string describe_outside(uintptr_t lo, uintptr_t hi) {
    const State& s = state();
    const Region* near = nullptr;
    for (const Region& r : s.regions)
        if (r.lo <= lo && (!near || r.lo > near->lo)) near = &r;
    char buf[256];
    if (near && lo < near->hi)
        std::snprintf(buf, sizeof buf, "bytes [%llu, %llu) of %s, which has %llu bytes", (unsigned long long)(lo - near->lo),
                      (unsigned long long)(hi - near->lo), near->name.c_str(), (unsigned long long)(near->hi - near->lo));
    else if (near)
        std::snprintf(buf, sizeof buf, "%llu bytes at %llu bytes past the end of %s (%llu bytes)", (unsigned long long)(hi - lo),
                      (unsigned long long)(lo - near->hi), near->name.c_str(), (unsigned long long)(near->hi - near->lo));
    else
        std::snprintf(buf, sizeof buf, "%llu bytes below every registered buffer", (unsigned long long)(hi - lo));
    return buf;
}

// memcheck of one access; false (and reported) when it leaves every region.
inline bool inside(const void* p, uint64_t n, bool write) {
    if (!on(CHECK_MEM) || n == 0) return true;
    const uintptr_t lo = reinterpret_cast<uintptr_t>(p);
    if (region_of(lo, lo + n) >= 0) return true;
    violation("memcheck: " + current() + (write ? " writes " : " reads ") + describe_outside(lo, lo + n));
    return false;
}

inline void note(std::vector<Range>& v, const void* p, uint64_t n) {
    if (!on(CHECK_SYNC) || n == 0) return;
    const uintptr_t lo = reinterpret_cast<uintptr_t>(p);
    if (!v.empty() && v.back().hi == lo) {
        v.back().hi = lo + n;
        return;
    }
    v.push_back(Range{lo, lo + n});
}

// initcheck of a use of [p, p + n): the first unwritten on-chip byte is reported.
inline void check_written(const void* p, uint64_t n) {
    if (!on(CHECK_INIT)) return;
    const uintptr_t lo = reinterpret_cast<uintptr_t>(p);
    const int32_t ri = region_of(lo, lo + n);
    if (ri < 0) return;
    const Region& r = state().regions[ri];
    if (!r.on_chip) return;
    for (uint64_t i = 0; i < n; ++i)
        if (!r.written[lo - r.lo + i]) {
            const uint64_t byte = lo - r.lo + i;
            char buf[256];
            std::snprintf(buf, sizeof buf, " reads element %llu (byte %llu) of %s, which nothing wrote before (or was computed from unwritten data)",
                          (unsigned long long)(byte / r.elem_bytes), (unsigned long long)byte, r.name.c_str());
            violation("initcheck: " + current() + buf, ri, static_cast<int64_t>(byte / r.elem_bytes));
            return;
        }
}

// Sets (or, with src, copies) the written bits of the on-chip bytes [d, d + n).
inline void mark_written(void* d, const void* src, uint64_t n) {
    if (!on(CHECK_INIT)) return;
    const uintptr_t lo = reinterpret_cast<uintptr_t>(d);
    const int32_t ri = region_of(lo, lo + n);
    if (ri < 0 || !state().regions[ri].on_chip) return;
    Region& r = state().regions[ri];
    const uintptr_t slo = reinterpret_cast<uintptr_t>(src);
    const int32_t si = src ? region_of(slo, slo + n) : -1;
    if (si >= 0 && state().regions[si].on_chip) {
        // The bits are read before any is written (overlapping copies stay exact).
        std::vector<uint8_t> bits(state().regions[si].written.begin() + (slo - state().regions[si].lo),
                                  state().regions[si].written.begin() + (slo - state().regions[si].lo + n));
        std::copy(bits.begin(), bits.end(), r.written.begin() + (lo - r.lo));
    } else {
        std::fill(r.written.begin() + (lo - r.lo), r.written.begin() + (lo - r.lo + n), 1);
    }
}

// racecheck of a write of [p, p + n) to GM by the current block (an atomic add when `atomic`):
// the first byte whose earlier write by another block races with it is reported with the run of
// bytes that block wrote, then every byte records this write.
inline void race_write(const void* p, uint64_t n, bool atomic = false) {
    if (!on(CHECK_RACE) || n == 0) return;
    const uintptr_t lo = reinterpret_cast<uintptr_t>(p);
    const int32_t ri = region_of(lo, lo + n);
    if (ri < 0) return;
    Region& r = state().regions[ri];
    if (r.on_chip || r.writer.empty()) return;
    const int32_t me = state().block;
    const uint64_t at = lo - r.lo;
    int32_t* w = r.writer.data() + at;
    int32_t* o = r.other.data() + at;
    int32_t* pl = r.plain.data() + at;
    // The block whose write of byte i races with this one, -1 if none.
    auto racing = [&](uint64_t i) -> int32_t {
        if (atomic) return pl[i] >= 0 && pl[i] != me ? pl[i] : -1;
        if (w[i] >= 0 && w[i] != me) return w[i];
        return o[i] >= 0 && o[i] != me ? o[i] : -1;
    };
    for (uint64_t i = 0; i < n; ++i) {
        const int32_t other = racing(i);
        if (other < 0) continue;
        uint64_t j = i;
        while (j < n && racing(j) == other) ++j;
        const uint64_t first = at + i;
        char buf[384];
        std::snprintf(buf, sizeof buf, " in block %d %s %s bytes [%llu, %llu), which block %d wrote too (the blocks of a launch must write disjoint global memory, except atomic adds into the same bytes)",
                      me, atomic ? "atomically adds into" : "writes", r.name.c_str(), (unsigned long long)first, (unsigned long long)(at + j), other);
        violation("racecheck: " + current() + buf, ri, static_cast<int64_t>(first / r.elem_bytes));
        break;
    }
    for (uint64_t i = 0; i < n; ++i) {
        if (w[i] != me) {
            o[i] = w[i];
            w[i] = me;
        }
        if (!atomic && pl[i] < 0) pl[i] = me;
    }
}

// ---- the hooks the model's intrinsics call ----------------------------------------------------

// Reads n bytes at s as an operand (initcheck use); false if memcheck failed.
inline bool use(const void* s, uint64_t n) {
    if (!state().checks) return true;
    if (!inside(s, n, false)) return false;
    note(state().reads, s, n);
    check_written(s, n);
    return true;
}

// Writes n computed bytes at d; false if memcheck failed (the write must be skipped).
inline bool def(void* d, uint64_t n) {
    if (!state().checks) return true;
    if (!inside(d, n, true)) return false;
    note(state().writes, d, n);
    mark_written(d, nullptr, n);
    race_write(d, n);
    return true;
}

// def() for a GM element an atomic add updates (racecheck: an atomic write).
inline bool def_atomic(void* d, uint64_t n) {
    if (!state().checks) return true;
    if (!inside(d, n, true)) return false;
    note(state().writes, d, n);
    mark_written(d, nullptr, n);
    race_write(d, n, true);
    return true;
}

// Whether every on-chip byte of [p, p + n) is written (no report; off-chip bytes count as written).
inline bool all_written(const void* p, uint64_t n) {
    const uintptr_t lo = reinterpret_cast<uintptr_t>(p);
    const int32_t ri = region_of(lo, lo + n);
    if (ri < 0 || !state().regions[ri].on_chip) return true;
    const Region& r = state().regions[ri];
    for (uint64_t i = 0; i < n; ++i)
        if (!r.written[lo - r.lo + i]) return false;
    return true;
}

// Clears the written bits of the on-chip bytes [d, d + n): a result computed from unwritten data.
inline void mark_unwritten(void* d, uint64_t n) {
    const uintptr_t lo = reinterpret_cast<uintptr_t>(d);
    const int32_t ri = region_of(lo, lo + n);
    if (ri < 0 || !state().regions[ri].on_chip) return;
    Region& r = state().regions[ri];
    std::fill(r.written.begin() + (lo - r.lo), r.written.begin() + (lo - r.lo + n), 0);
}

// Mmad reads whole fractals: the padding rows of A and columns of B feed only C's padding, which
// no valid store reads. So Mmad propagates "written" (like valgrind's definedness) instead of
// reporting: an operand element is memchecked and ANDed into `defined`; the result element is
// written when every input was, else unwritten, and a store that reads it reports it.
inline bool operand_elem(const void* s, uint64_t n, bool& defined) {
    if (!state().checks) return true;
    if (!inside(s, n, false)) return false;
    if (on(CHECK_INIT)) defined = defined && all_written(s, n);
    return true;
}

inline bool result_elem(void* d, uint64_t n, bool defined) {
    if (!state().checks) return true;
    if (!inside(d, n, true)) return false;
    if (!on(CHECK_INIT)) return true;
    if (defined) {
        mark_written(d, nullptr, n);
    } else {
        mark_unwritten(d, n);
    }
    return true;
}

// The unitFlag of the running Mmad or Fixpipe (synccheck: unit_rules, handshake_orders).
inline void unit_flag(uint32_t u) { state().unit = u; }

// The byte ranges an intrinsic reads / writes, for synccheck only.
inline void reads(const void* s, uint64_t n) { note(state().reads, s, n); }
inline void writes(const void* d, uint64_t n) { note(state().writes, d, n); }

inline bool is_gm(const void* p) {
    const uintptr_t lo = reinterpret_cast<uintptr_t>(p);
    const int32_t ri = region_of(lo, lo + 1);
    return ri >= 0 && !state().regions[ri].on_chip;
}

// memmove(d, s, n) with the checks: a copy into on-chip memory propagates the written bits, a
// copy from on-chip memory to GM is a use of its source.
inline void copy(void* d, const void* s, uint64_t n) {
    if (state().checks) {
        if (!inside(s, n, false) || !inside(d, n, true)) return;
        note(state().reads, s, n);
        note(state().writes, d, n);
        if (is_gm(d)) check_written(s, n);
        mark_written(d, s, n);
        race_write(d, n);
    }
    std::memmove(d, s, n);
}

inline void zero(void* d, uint64_t n) {
    if (!def(d, n)) return;
    std::memset(d, 0, n);
}

inline bool overlaps(const Range& a, const Range& b) { return a.lo < b.hi && b.lo < a.hi; }

inline std::string describe_range(const Range& x) {
    const State& s = state();
    const int32_t ri = region_of(x.lo, x.lo + 1);
    char buf[256];
    if (ri < 0) {
        std::snprintf(buf, sizeof buf, "%llu bytes", (unsigned long long)(x.hi - x.lo));
        return buf;
    }
    const Region& r = s.regions[ri];
    std::snprintf(buf, sizeof buf, "%s bytes [%llu, %llu)", r.name.c_str(), (unsigned long long)(x.lo - r.lo),
                  (unsigned long long)(std::min(x.hi, r.hi) - r.lo));
    return buf;
}

inline void merge(std::vector<Range>& v) {
    std::sort(v.begin(), v.end(), [](const Range& a, const Range& b) { return a.lo < b.lo; });
    std::vector<Range> out;
    for (const Range& r : v) {
        if (!out.empty() && r.lo <= out.back().hi)
            out.back().hi = std::max(out.back().hi, r.hi);
        else
            out.push_back(r);
    }
    v.swap(out);
}

// ---- unitFlag (asc-devkit UnitFlag.md; docs/sanitizer.md "unitFlag") --------------------------
// The L0C blocks the current Mmad writes (M) or the current Fixpipe reads (FIX).
inline std::vector<Range>& unit_bytes() {
    State& s = state();
    return s.pipe == PIPE_M ? s.writes : s.reads;
}

inline bool unit_call() {
    const State& s = state();
    return s.pipe == PIPE_M || s.pipe == PIPE_FIX;
}

// Block b (host address / 512) as far as x covers it.
inline std::string describe_block(uintptr_t b, const Range& x) {
    const Range r{std::max<uintptr_t>(b * UNIT_BYTES, x.lo), std::min<uintptr_t>((b + 1) * UNIT_BYTES, x.hi)};
    return describe_range(r) + " (a 512 B unit-flag block)";
}

// The handshake's own rules, checked against the blocks' flags before the call changes them:
// * an Mmad with unitFlag 2/3 writing a block whose flag is 1 waits on the device until a
//   Fixpipe reads it, so that Fixpipe (later in program order) reads the accumulation before
//   this Mmad finished it;
// * a Fixpipe with unitFlag 2/3 reading a block whose flag is 0 waits for a later Mmad with
//   unitFlag 3 (forever if none): the last Mmad that wrote it did not release it.
inline void unit_rules() {
    State& s = state();
    if (!unit_call() || s.unit < 2) return;
    for (const Range& x : unit_bytes())
        for (uintptr_t b = x.lo / UNIT_BYTES; b * UNIT_BYTES < x.hi; ++b) {
            const auto it = s.units.find(b);
            const UnitBlock u = it == s.units.end() ? UnitBlock{} : it->second;
            char buf[512];
            if (s.pipe == PIPE_M && u.flag == 1) {
                std::snprintf(buf, sizeof buf,
                              " with unitFlag %u writes %s, whose unit flag is still 1: an Mmad with unitFlag 3 released it and no "
                              "Fixpipe with unitFlag 3 has read it, so on the device this Mmad waits for a later Fixpipe, which reads an "
                              "unfinished accumulation (only the last Mmad of an accumulation may use unitFlag 3)",
                              s.unit, describe_block(b, x).c_str());
                violation("synccheck: " + current() + buf);
                return;
            }
            if (s.pipe == PIPE_FIX && u.flag == 0) {
                char last[96];
                if (u.last_mmad < 0)
                    std::snprintf(last, sizeof last, "no Mmad since the kernel began (or since a Fixpipe cleared it)");
                else
                    std::snprintf(last, sizeof last, "the last Mmad that wrote it used unitFlag %d", u.last_mmad);
                std::snprintf(buf, sizeof buf,
                              " with unitFlag %u reads %s, whose unit flag is 0 (%s): on the device it waits for a later Mmad with unitFlag 3, "
                              "forever if none (both sides must enable unitFlag, the last Mmad with 3)",
                              s.unit, describe_block(b, x).c_str(), u.cleared && u.last_mmad < 0 ? "a Fixpipe with unitFlag 3 cleared it" : last);
                violation("synccheck: " + current() + buf);
                return;
            }
        }
}

// Whether the handshake orders the current call's access x after the earlier access h of the
// other side, over every block they share: a Fixpipe with unitFlag 2/3 reads a block after the
// Mmad with unitFlag 3 that set its flag (and every earlier Mmad: M runs in order); an Mmad with
// unitFlag 2/3 writes a block after the Fixpipe with unitFlag 3 that cleared it (and every
// earlier Fixpipe). Block by block only: nothing else of the two pipes is ordered by it.
inline bool handshake_orders(const Access& h, const Range& x, bool write) {
    State& s = state();
    if (s.unit < 2) return false;
    const bool fix_reads = s.pipe == PIPE_FIX && !write && h.pipe == PIPE_M && h.write;
    const bool mmad_writes = s.pipe == PIPE_M && write && h.pipe == PIPE_FIX && !h.write;
    if (!fix_reads && !mmad_writes) return false;
    const Range both{std::max(h.bytes.lo, x.lo), std::min(h.bytes.hi, x.hi)};
    for (uintptr_t b = both.lo / UNIT_BYTES; b * UNIT_BYTES < both.hi; ++b) {
        const auto it = s.units.find(b);
        if (it == s.units.end()) return false;
        const UnitBlock& u = it->second;
        const bool ordered = fix_reads ? u.flag == 1 && u.set_clock >= h.clock : u.flag == 0 && u.cleared && u.clear_clock >= h.clock;
        if (!ordered) return false;
    }
    return true;
}

// Why an unordered Mmad/Fixpipe conflict is one-sided unitFlag, "" if it is not.
inline std::string one_sided(const Access& h, const Range& x) {
    State& s = state();
    if (s.unit >= 2) return "";
    const Range both{std::max(h.bytes.lo, x.lo), std::min(h.bytes.hi, x.hi)};
    for (uintptr_t b = both.lo / UNIT_BYTES; b * UNIT_BYTES < both.hi; ++b) {
        const auto it = s.units.find(b);
        if (it == s.units.end()) continue;
        if (s.pipe == PIPE_FIX && h.pipe == PIPE_M && it->second.flag == 1)
            return "; the Mmad released the block with unitFlag 3 but this Fixpipe has unitFlag 0 (both sides must enable it)";
        if (s.pipe == PIPE_M && h.pipe == PIPE_FIX && it->second.cleared && it->second.clear_clock >= h.clock)
            return "; the Fixpipe cleared the block with unitFlag 3 but this Mmad has unitFlag 0 (both sides must enable it)";
    }
    return "";
}

// The flags after the call (clock: its clock on its pipe).
inline void unit_update(uint64_t clock) {
    State& s = state();
    if (!unit_call()) return;
    for (const Range& x : unit_bytes())
        for (uintptr_t b = x.lo / UNIT_BYTES; b * UNIT_BYTES < x.hi; ++b) {
            if (s.pipe == PIPE_M) {
                UnitBlock& u = s.units[b];
                u.last_mmad = static_cast<int32_t>(s.unit);
                if (s.unit == 3) {
                    u.flag = 1;
                    u.set_clock = clock;
                }
            } else if (s.unit == 3) {
                UnitBlock& u = s.units[b];
                u.flag = 0;
                u.cleared = true;
                u.clear_clock = clock;
                u.last_mmad = -1;
            }
        }
}

// synccheck of the finished intrinsic against every earlier access of another pipe.
inline void check_and_record() {
    State& s = state();
    merge(s.reads);
    merge(s.writes);
    const uint32_t p = s.pipe;
    const Clock& known = s.vc[p];
    unit_rules();
    for (int pass = 0; pass < 2; ++pass) {
        const bool write = pass == 1;
        for (const Range& x : write ? s.writes : s.reads) {
            for (const Access& h : s.history) {
                if (h.pipe == p || (!write && !h.write) || known[h.pipe] >= h.clock || !overlaps(h.bytes, x)) continue;
                if (handshake_orders(h, x, write)) continue;
                const char* kind = h.write ? (write ? "WAW" : "RAW") : "WAR";
                const Range both{std::max(h.bytes.lo, x.lo), std::min(h.bytes.hi, x.hi)};
                char buf[160];
                std::snprintf(buf, sizeof buf, " with no SetFlag<%s_%s> -> WaitFlag chain ordering them (%s)", pipe_name(h.pipe),
                              pipe_name(p), kind);
                violation("synccheck: " + current() + (write ? " writes " : " reads ") + describe_range(both) +
                          (h.write ? " written by " : " read by ") + h.what + buf + one_sided(h, x));
                goto recorded;
            }
        }
    }
recorded:
    const uint64_t clock = ++s.vc[p][p];
    unit_update(clock);
    char what[96];
    std::snprintf(what, sizeof what, "%s (PIPE_%s)", s.name, pipe_name(p));
    // An earlier access of this pipe inside a new write (or a read inside a new read) can be
    // forgotten: whatever is unordered with it is unordered with the new one and conflicts too.
    auto covered = [&](const Access& h) {
        if (h.pipe != p) return false;
        for (const Range& x : s.writes)
            if (x.lo <= h.bytes.lo && h.bytes.hi <= x.hi) return true;
        if (!h.write)
            for (const Range& x : s.reads)
                if (x.lo <= h.bytes.lo && h.bytes.hi <= x.hi) return true;
        return false;
    };
    // So can an access every other pipe has waited for.
    auto known_everywhere = [&](const Access& h) {
        for (uint32_t q = 0; q < PIPES; ++q)
            if (q != h.pipe && q != PIPE_ALL && s.vc[q][h.pipe] < h.clock) return false;
        return true;
    };
    s.history.erase(std::remove_if(s.history.begin(), s.history.end(),
                                   [&](const Access& h) { return covered(h) || known_everywhere(h); }),
                    s.history.end());
    for (const Range& x : s.reads) s.history.push_back(Access{p, clock, false, x, what});
    for (const Range& x : s.writes) s.history.push_back(Access{p, clock, true, x, what});
    constexpr size_t MAX_HISTORY = 1u << 16;
    if (s.history.size() > MAX_HISTORY) s.history.erase(s.history.begin(), s.history.end() - MAX_HISTORY);
}

// One intrinsic on one pipe: construct at entry, the checks run at exit.
struct Call {
    Call(const char* name, uint32_t pipe) {
        State& s = state();
        s.name = name;
        s.pipe = pipe;
        s.unit = 0;
        s.reads.clear();
        s.writes.clear();
        ++s.calls;
    }
    ~Call() {
        State& s = state();
        if (s.checks & CHECK_SYNC) check_and_record();
        s.site = -1;
    }
};

inline uint32_t flag_key(uint32_t src, uint32_t dst, uint32_t id) { return (src << 16) | (dst << 8) | (id & 0xffu); }

inline std::string flag_name(const char* what, uint32_t src, uint32_t dst, uint32_t id) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "%s<HardEvent::%s_%s>(EVENT_ID%u)", what, pipe_name(src), pipe_name(dst), id);
    return buf;
}

// SetFlag on pipe src: a later WaitFlag on dst orders dst after everything src issued so far.
inline void set_flag(uint32_t src, uint32_t dst, uint32_t id) {
    if (!on(CHECK_SYNC) || src >= PIPES || dst >= PIPES) return;
    State& s = state();
    s.flags[flag_key(src, dst, id)].push_back({s.vc[src], s.site});
}

inline void wait_flag(uint32_t src, uint32_t dst, uint32_t id) {
    if (!on(CHECK_SYNC) || src >= PIPES || dst >= PIPES) return;
    State& s = state();
    auto& pending = s.flags[flag_key(src, dst, id)];
    if (pending.empty()) {
        violation("synccheck: " + flag_name("WaitFlag", src, dst, id) +
                  " with no SetFlag before it: PIPE_" + pipe_name(dst) + " would wait forever on the device");
        return;
    }
    for (uint32_t q = 0; q < PIPES; ++q) s.vc[dst][q] = std::max(s.vc[dst][q], pending.front().first[q]);
    pending.pop_front();
}

// PipeBarrier<PIPE_ALL> orders every pipe after everything issued; one pipe's barrier orders
// nothing across pipes (a pipe runs in order anyway).
inline void barrier(uint32_t pipe) {
    if (!on(CHECK_SYNC) || pipe != PIPE_ALL) return;
    State& s = state();
    Clock all{};
    for (uint32_t p = 0; p < PIPES; ++p)
        for (uint32_t q = 0; q < PIPES; ++q) all[q] = std::max(all[q], s.vc[p][q]);
    for (uint32_t p = 0; p < PIPES; ++p) s.vc[p] = all;
}

// The end of one block's run: flags still set are reported.
inline void end_block() {
    State& s = state();
    if (s.checks & CHECK_SYNC)
        for (const auto& f : s.flags)
            if (!f.second.empty()) {
                const uint32_t src = f.first >> 16, dst = (f.first >> 8) & 0xffu, id = f.first & 0xffu;
                char buf[64];
                std::snprintf(buf, sizeof buf, " set %zu time(s) and never waited for", f.second.size());
                s.site = f.second.back().second;  // reported at the last SetFlag nothing waited for
                violation("synccheck: flag left set at kernel exit: " + flag_name("SetFlag", src, dst, id) + buf);
            }
}

// Block `block` of a multi-core launch starts: the previous block ends (end_block), and the new
// one gets fresh on-chip memory (nothing written), pipes and flags. GM and its writers persist.
inline void begin_block(int32_t block) {
    State& s = state();
    if (!s.checks) return;
    end_block();
    for (Region& r : s.regions)
        if (r.on_chip) std::fill(r.written.begin(), r.written.end(), 0);
    for (Clock& c : s.vc) c = Clock{};
    s.flags.clear();
    s.history.clear();
    s.units.clear();
    s.block = block;
}

// Ends the run: flags still set are reported; returns the first violation ("" if none) and
// turns the sanitizer off.
inline const char* end() {
    State& s = state();
    end_block();
    s.checks = 0;
    return s.report.c_str();
}

}  // namespace san
}  // namespace ascendc_model

#endif
