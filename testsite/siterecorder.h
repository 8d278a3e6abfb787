#pragma once

#include "hosttolerance.h"
#include "observedhost.h"
#include "testsite.h"

#include <QList>
#include <QMutex>
#include <QStringList>

#include <atomic>
#include <map>
#include <memory>

namespace testsite {

// The records and counters of a TestSite: written by the server thread, read by any thread.
class SiteRecorder {
public:
    // Identifies one counted request, so its end can be recorded (unless a reset came in between).
    struct Ticket {
        quint64 generation = 0;
        qsizetype index = -1; // into the request records; -1 when not kept (maxRecords)
        bool counted = false;
        bool toleranceSlot = false; // holds one of the host's tolerance=K places until it ends
    };

    ObservedHost *addHost(const QString &name); // owned by the recorder, lives as long as it

    // Counts a request whose head has arrived; `record` has everything but the host filled in.
    // *failing says whether this hit of `target` falls within `fail=K`.
    Ticket begin(ObservedHost *host, const QByteArray &target, RequestRecord record, int fail, bool *failing);
    void setStatus(const Ticket &ticket, int status);
    // tolerance=K: takes one of the host's K places and returns how many it serves now, this one included
    // (sets ticket->toleranceSlot; end() gives the place back), or 0 when all K are taken.
    int admitTolerant(ObservedHost *host, const HostTolerance &tolerance, Ticket *ticket);
    void end(ObservedHost *host, const Ticket &ticket, int status, qint64 endNs, bool clientClosed);

    void connectionOpened(ObservedHost *host);
    void connectionClosed(ObservedHost *host);

    // The host's /robots.txt (TestSite::setRobotsTxt); a copy, read when a request for it arrives.
    bool setRobots(const QString &host, const RobotsTxt &robots);
    std::optional<RobotsTxt> robots(const ObservedHost *host) const;

    void reset();
    QByteArray json(const QString &only, bool includeRequests, bool includeHeaders) const;
    QStringList hostNames() const;
    HostRecord hostRecord(const QString &host) const;
    QList<RequestRecord> requests(const QString &host) const;
    qint64 totalRequests() const;
    void setMaxRecords(qint64 maxRecords);

    quint64 nextConnectionId() { return m_nextConnectionId.fetch_add(1); }
    bool controlEndpoints() const { return m_controlEndpoints.load(std::memory_order_relaxed); }
    void setControlEndpoints(bool enabled) { m_controlEndpoints.store(enabled); }

private:
    mutable QMutex m_mutex;
    QStringList m_hostNames;
    std::map<QString, std::unique_ptr<ObservedHost>> m_hosts;
    QList<RequestRecord> m_records;
    quint64 m_generation = 1;
    qint64 m_maxRecords = -1;
    std::atomic<quint64> m_nextConnectionId{1};
    std::atomic<bool> m_controlEndpoints{false};
};

} // namespace testsite
