#include "engine/networklanes.h"

#include <QNetworkAccessManager>

namespace crawl {

QNetworkAccessManager *NetworkLanes::laneFor(std::vector<int> &hostLaneInFlight, int *laneIndex) {
    int lane = 0;
    while (true) {
        if (size_t(lane) >= hostLaneInFlight.size())
            hostLaneInFlight.resize(size_t(lane) + 1, 0);
        if (size_t(lane) >= m_lanes.size()) {
            auto *nam = new QNetworkAccessManager(m_owner);
            nam->setRedirectPolicy(QNetworkRequest::ManualRedirectPolicy);
            nam->setStrictTransportSecurityEnabled(false);
            m_lanes.push_back(nam);
        }
        if (hostLaneInFlight[size_t(lane)] < kConnectionsPerLane)
            break;
        ++lane;
    }
    *laneIndex = lane;
    return m_lanes[size_t(lane)];
}

} // namespace crawl
