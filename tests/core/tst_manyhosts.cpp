// Many distinct hosts in one crawl: the engine keeps only the hosts with work in memory (an idle host is
// dropped, and made again if work for it returns) and still gives every URL exactly one row.
#include "crawlfixture.h"
#include "testsite.h"

#include <QHostAddress>

using namespace crawl;
using namespace crawl::testing;

class TestManyHosts : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void idleHostsLeaveMemory() {
        // One listener on every loopback address: 127.0.A.B are 1,600 distinct hosts to the crawler.
        testsite::TestSite site;
        QString error;
        const QString listening = site.addHost(QHostAddress::AnyIPv4, 0, &error);
        QVERIFY2(!listening.isEmpty(), qPrintable(error));
        const QString port = listening.section(QLatin1Char(':'), -1);
        constexpr int kHosts = 1600;
        QStringList lines;
        for (int i = 0; i < kHosts; ++i)
            lines
                << QStringLiteral("http://127.0.%1.%2:%3/first").arg(2 + i / 200).arg(1 + i % 200).arg(port);
        lines << QStringLiteral("http://127.0.2.1:%1/again").arg(port); // a host with two URLs

        Crawl crawl(limitsOf(32, 2, 0), quickPolicy());
        int mostHostsInASnapshot = 0;
        QObject::connect(
            &crawl.engine, &CrawlEngine::snapshotReady, &crawl.engine, [&](const CrawlSnapshot &snapshot) {
                mostHostsInASnapshot = std::max(mostHostsInASnapshot, int(snapshot.hosts.size()));
            });
        START(crawl, lines);
        QVERIFY(crawl.waitFinished(120'000));
        QCOMPARE(crawl.results.size(), kHosts + 1);
        QCOMPARE(crawl.count(Outcome::Ok), kHosts + 1);
        QSet<quint64> ids;
        for (const CrawlResult &r : std::as_const(crawl.results))
            ids.insert(r.id);
        QCOMPARE(ids.size(), kHosts + 1); // exactly one row per line
        QCOMPARE(site.hostRecord(listening).requests, kHosts + 1);
        // Two shards keep at most 512 idle hosts each, plus the ones with work.
        QVERIFY2(mostHostsInASnapshot < kHosts, qPrintable(QString::number(mostHostsInASnapshot)));
        QCOMPARE(crawl.summary.last.done, kHosts + 1);
    }
};

QTEST_GUILESS_MAIN(TestManyHosts)
#include "tst_manyhosts.moc"
