#pragma once

#include <QObject>

#include <vector>

class QNetworkAccessManager;

namespace crawl {

// The QNetworkAccessManagers of one shard. Qt 6.4 opens at most 6 connections per host:port per QNAM
// and queues the rest inside itself, where its transfer timeout would run on queued work; so a host
// never gets more than 6 requests on one QNAM, and a higher per-host limit spreads over more lanes.
class NetworkLanes {
public:
    static constexpr int kConnectionsPerLane = 6;

    explicit NetworkLanes(QObject *owner)
        : m_owner(owner) {}

    // The first lane with room for one more request of a host whose per-lane counts are
    // `hostLaneInFlight` (grown as needed); creates the lane on first use.
    QNetworkAccessManager *laneFor(std::vector<int> &hostLaneInFlight, int *laneIndex);

    // Creates the first `count` lanes now and starts each one's HTTP thread (Qt starts it lazily, on a
    // lane's first request). A thread needs a descriptor for its event dispatcher, and GLib aborts the
    // process when it gets none: started mid-crawl, when connections may hold every descriptor, that can
    // happen. Blocks (runs a local event loop, at most ~2 s) until each lane's thread answered; call it
    // before the shard has any work.
    void startLanes(int count);

    const std::vector<QNetworkAccessManager *> &all() const { return m_lanes; }

private:
    QNetworkAccessManager *addLane();

    QObject *const m_owner; // parent of every QNAM (they live in its thread)
    std::vector<QNetworkAccessManager *> m_lanes;
};

} // namespace crawl
