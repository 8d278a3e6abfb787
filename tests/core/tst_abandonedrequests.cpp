// Requests the crawler gives up on still count for the server (issue 9 item 17): a server that keeps
// working after the client timed out must not see more than the per-host limit at once.
#include "crawlfixture.h"
#include "loopbacksite.h"
#include "scriptedserver.h"
#include "testsite.h"

#include <QTest>

using namespace crawl;
using namespace crawl::testing;

namespace {

// The client gives up on a request after 1 s without a byte.
FetchPolicy givingUpAfterOneIdleSecond() {
    FetchPolicy policy = quickPolicy();
    policy.idleTimeoutS = 1;
    return policy;
}

} // namespace

class TestAbandonedRequests : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // The server works 1.6 s on every request and does not notice the client leaving; the client gives
    // up after 1 s of silence. With --per-host 2 the server must never work on more than 2 at once.
    void timedOutRequestsKeepTheirHostSlot() {
        ScriptedServer slow([](const ScriptedRequest &) {
            ScriptedResponse response = okResponse();
            response.delayMs = 1600;
            return response;
        });
        QVERIFY(slow.listening());
        QStringList lines;
        for (int i = 0; i < 4; ++i)
            lines << QString::fromLatin1(slow.base() + "/work" + QByteArray::number(i));
        Crawl crawl(limitsOf(16, 2, 0), givingUpAfterOneIdleSecond());
        START(crawl, lines);
        QVERIFY(crawl.waitFinished(20'000));
        QCOMPARE(crawl.count(Outcome::Timeout), 4);
        QCOMPARE(slow.requests.size(), 4);
        QVERIFY2(slow.peakInFlight <= 2,
                 qPrintable(QStringLiteral("the server worked on %1 requests at once with --per-host 2")
                                .arg(slow.peakInFlight)));
        // The held slot is released again: the later two started after the first two were abandoned.
        const qint64 gapMs = slow.requests[2].startMs - slow.requests[0].startMs;
        QVERIFY2(gapMs >= 1800, qPrintable(QStringLiteral("third request %1 ms after the first").arg(gapMs)));
    }

    // The same at the shared test site, whose work=N profile keeps working after the client left.
    void timedOutRequestsKeepTheirHostSlotAtTheTestSite() {
        MAKE_SITE(site, 1);
        const QStringList lines = site->urls(0, 6, QStringLiteral("/w%1?work=1600"));
        Crawl crawl(limitsOf(16, 2, 0), givingUpAfterOneIdleSecond());
        START(crawl, lines);
        QVERIFY(crawl.waitFinished(30'000));
        QCOMPARE(crawl.count(Outcome::Timeout), 6);
        QCOMPARE(site->requests(0).size(), 6);
        QVERIFY2(site->peak(0) <= 2,
                 qPrintable(QStringLiteral("the test site had %1 requests in flight with --per-host 2")
                                .arg(site->peak(0))));
    }
};

QTEST_GUILESS_MAIN(TestAbandonedRequests)
#include "tst_abandonedrequests.moc"
