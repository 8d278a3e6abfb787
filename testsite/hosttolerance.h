#pragma once

#include <QByteArray>

namespace testsite {

// A host with a limited tolerance (tolerance=K&tolms=BASE&tolstep=STEP on any path): like a server with K
// workers, it serves at most K of these requests at once and answers 503 at once (no Retry-After unless
// ra=... asks for one) to any that arrives while K are being served; a served request takes
// BASE + STEP x n ms, n being how many it serves at that moment, this one included, so it slows as load
// rises. The best it allows is K at once at BASE + STEP x K ms each. A pure value: the site keeps the
// count per listening host.
struct HostTolerance {
    static constexpr int kMaxCapacity = 10'000;
    static constexpr int kMaxMs = 3'600'000;

    int capacity = 0; // K; 0: not a tolerance request
    int baseMs = 0;
    int stepMs = 0;

    bool enabled() const { return capacity > 0; }
    // `serving`: requests of this profile the host is serving already.
    bool admits(int serving) const { return serving < capacity; }
    // The delay for a request admitted as the `load`-th one served at once (1-based).
    int latencyMs(int load) const;

    // Reads one query parameter; false when `key` is not one of tolerance, tolms, tolstep.
    bool parse(const QByteArray &key, const QByteArray &value);
};

} // namespace testsite
