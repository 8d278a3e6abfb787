#pragma once
// Test fixture shared by the engine and CLI tests: a TestSite listening as several loopback hosts.

#include "testsite.h"

#include <QHostAddress>
#include <QStringList>

#include <memory>

// A TestSite listening as `count` hosts: 127.0.0.2, 127.0.0.3, ...
struct LoopbackSite {
    testsite::TestSite server;
    QStringList hosts; // "127.0.0.x:port"

    QString url(int host, const QString &target) const { return server.baseUrl(hosts.at(host)) + target; }
    // `count` URLs on one host, the index filled into `targetPattern`'s %1 ("/p%1?ms=300").
    QStringList urls(int host, int count, const QString &targetPattern) const {
        return server.urls(hosts.at(host), count, targetPattern);
    }
    QList<testsite::RequestRecord> requests(int host) const { return server.requests(hosts.at(host)); }
    int peak(int host) const { return server.hostRecord(hosts.at(host)).peakInFlight; }
};

inline std::unique_ptr<LoopbackSite> makeLoopbackSite(int count, QString *error) {
    auto site = std::make_unique<LoopbackSite>();
    for (int i = 0; i < count; ++i) {
        const QString host =
            site->server.addHost(QHostAddress(QStringLiteral("127.0.0.%1").arg(i + 2)), 0, error);
        if (host.isEmpty())
            return nullptr;
        site->hosts << host;
    }
    return site;
}

#define MAKE_SITE(var, count)                                                                                \
    QString var##Error_;                                                                                     \
    const std::unique_ptr<LoopbackSite> var = makeLoopbackSite(count, &var##Error_);                         \
    QVERIFY2(var, qPrintable(var##Error_))
