// The global rate cap across hosts and fetch shards, and a custom User-Agent, as the server saw them.
#include "engine/crawlengine.h"
#include "testsite.h"

#include <QSignalSpy>
#include <QTest>

#include <algorithm>

using namespace crawl;
using testsite::RequestRecord;
using testsite::TestSite;

class TestRateCap : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void globalRateCapSpacesStartsAcrossHosts() {
        TestSite site;
        QStringList hosts;
        for (const char *address : {"127.0.0.2", "127.0.0.3", "127.0.0.4"}) {
            QString error;
            const QString host = site.addHost(QHostAddress(QLatin1String(address)), 0, &error);
            QVERIFY2(!host.isEmpty(), qPrintable(error));
            hosts << host;
        }
        QByteArray list;
        const int urls = 24;
        for (int i = 0; i < urls; ++i)
            list += site.baseUrl(hosts[i % hosts.size()]).toUtf8() + "/r/" + QByteArray::number(i) + "\n";

        CrawlEngine engine;
        CrawlLimits limits;
        limits.globalInFlight = 32;
        limits.perHostInFlight = 8;
        limits.intervalMs = 0; // only the rate cap paces
        limits.maxRatePerSec = 20;
        engine.setLimits(limits);
        FetchPolicy policy;
        policy.maxRetries = 0;
        engine.setFetchPolicy(policy);
        QSignalSpy finished(&engine, &CrawlEngine::finished);
        QVERIFY(engine.start(InputSource::fromText(list)));
        QVERIFY(finished.wait(20'000));

        QList<RequestRecord> seen = site.requests();
        QCOMPARE(seen.size(), urls);
        std::sort(seen.begin(), seen.end(),
                  [](const auto &a, const auto &b) { return a.startNs < b.startNs; });
        // 20 starts per second overall: no one-second window holds more than 20 (+1 for the window edges),
        // and the whole run cannot be faster than (n-1) x 50 ms. Without the cap it takes a few ms.
        const double spanMs = double(seen.last().startNs - seen.first().startNs) / 1e6;
        QVERIFY2(spanMs >= (urls - 1) * 50.0 * 0.95, qPrintable(QString::number(spanMs)));
        for (int i = 0; i < seen.size(); ++i) {
            int inWindow = 0;
            for (int j = i; j < seen.size() && seen[j].startNs - seen[i].startNs < 1'000'000'000; ++j)
                ++inWindow;
            QVERIFY2(inWindow <= 21, qPrintable(QString::number(inWindow)));
        }
        QSet<QString> hostsSeen;
        for (const RequestRecord &r : seen)
            hostsSeen.insert(r.host);
        QCOMPARE(hostsSeen.size(), hosts.size());
    }

    void customUserAgentReachesTheServer() {
        TestSite site;
        const QString host = site.addHost(QHostAddress(QStringLiteral("127.0.0.2")));
        QVERIFY(!host.isEmpty());
        CrawlEngine engine;
        FetchPolicy policy;
        policy.userAgent = QStringLiteral("QA-Bot/2.0 (+mailto:qa@example.test)");
        policy.headers.append({QByteArray("X-Team"), QByteArray("qa")});
        engine.setFetchPolicy(policy);
        QSignalSpy finished(&engine, &CrawlEngine::finished);
        QVERIFY(engine.start(InputSource::fromText(site.baseUrl(host).toUtf8() + "/ua\n")));
        QVERIFY(finished.wait(10'000));
        const QList<RequestRecord> seen = site.requests(host);
        QCOMPARE(seen.size(), 1);
        QCOMPARE(seen[0].userAgent, QByteArray("QA-Bot/2.0 (+mailto:qa@example.test)"));
    }
};

QTEST_GUILESS_MAIN(TestRateCap)
#include "tst_ratecap.moc"
