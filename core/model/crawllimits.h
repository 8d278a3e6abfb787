#pragma once

#include <QHash>
#include <QMetaType>
#include <QString>

namespace crawl {

// A per-host override: a value <= 0 means "use the global per-host setting".
struct HostOverride {
    int maxInFlight = 0;
    int intervalMs = -1; // -1 inherits; 0 means no pacing for this host
    bool operator==(const HostOverride &) const = default;
};

// The politeness bounds. All of them can change while a crawl runs (CrawlEngine::setLimits):
// raising a bound starts waiting work at once, lowering one cancels nothing and lets in-flight drain.
struct CrawlLimits {
    int globalInFlight = 16;                    // protects this machine
    int perHostInFlight = 2;                    // protects each target ("host" = host:port)
    int intervalMs = 500;                       // minimum start-to-start gap on one host
    double jitter = 0.0;                        // 0..1: each gap is interval x (1 + U(0, jitter))
    double maxRatePerSec = 0.0;                 // global request starts per second; 0 = off
    QHash<QString, HostOverride> hostOverrides; // key: "host:port" (see hostKey())
    // Adaptive pace (AIMD, see PaceController): each host's in-flight limit and interval move between
    // the limits above as ceilings and 1 in flight as the floor, by what the host tolerates.
    bool adaptive = false;

    int maxInFlightFor(const QString &hostKey) const;
    int intervalMsFor(const QString &hostKey) const;
    // The same limits with every override keyed as the engine keys hosts (an IDN name in its ASCII
    // "xn--" form, lower case), so "bücher.de:80" matches the URL's host.
    CrawlLimits withCanonicalHostKeys() const;
    bool operator==(const CrawlLimits &) const = default;
};

} // namespace crawl

Q_DECLARE_METATYPE(crawl::CrawlLimits)
