#include "engine/networklanes.h"

#include <QEventLoop>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QTimer>

namespace crawl {

QNetworkAccessManager *NetworkLanes::laneFor(std::vector<int> &hostLaneInFlight, int *laneIndex) {
    int lane = 0;
    while (true) {
        if (size_t(lane) >= hostLaneInFlight.size())
            hostLaneInFlight.resize(size_t(lane) + 1, 0);
        if (size_t(lane) >= m_lanes.size())
            addLane();
        if (hostLaneInFlight[size_t(lane)] < kConnectionsPerLane)
            break;
        ++lane;
    }
    *laneIndex = lane;
    return m_lanes[size_t(lane)];
}

QNetworkAccessManager *NetworkLanes::addLane() {
    auto *nam = new QNetworkAccessManager(m_owner);
    nam->setRedirectPolicy(QNetworkRequest::ManualRedirectPolicy);
    nam->setStrictTransportSecurityEnabled(false);
    m_lanes.push_back(nam);
    return nam;
}

void NetworkLanes::startLanes(int count) {
    QEventLoop loop;
    int waiting = 0;
    while (int(m_lanes.size()) < count) {
        // Port 0 cannot be listened on: the request fails at once without reaching any server, but only
        // after the lane's HTTP thread has taken it.
        QNetworkRequest probe(QUrl(QStringLiteral("http://127.0.0.1:0/")));
        probe.setAttribute(QNetworkRequest::ConnectionCacheExpiryTimeoutSecondsAttribute, 0);
        QNetworkReply *reply = addLane()->get(probe);
        ++waiting;
        QObject::connect(reply, &QNetworkReply::finished, &loop, [reply, &waiting, &loop] {
            reply->deleteLater();
            if (--waiting == 0)
                loop.quit();
        });
    }
    if (waiting == 0)
        return;
    QTimer::singleShot(2000, &loop, &QEventLoop::quit);
    loop.exec();
}

} // namespace crawl
