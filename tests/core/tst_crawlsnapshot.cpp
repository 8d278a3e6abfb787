// The texts and predicates next to CrawlState that the window and the command line share.
#include "model/crawlsnapshot.h"

#include <QTest>

using crawl::CrawlState;

class TestCrawlSnapshot : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void activeStates() {
        // A crawl exists and has not finished: nothing new may start, the window asks before closing.
        QVERIFY(crawl::isActive(CrawlState::Running));
        QVERIFY(crawl::isActive(CrawlState::Paused));
        QVERIFY(crawl::isActive(CrawlState::Stopping));
        QVERIFY(!crawl::isActive(CrawlState::Idle));
        QVERIFY(!crawl::isActive(CrawlState::Finished));
    }

    void durations_data() {
        QTest::addColumn<qint64>("ms");
        QTest::addColumn<QString>("text");
        QTest::newRow("unknown") << qint64(-1) << QStringLiteral("?");
        QTest::newRow("zero") << qint64(0) << QStringLiteral("0s");
        QTest::newRow("under a second") << qint64(999) << QStringLiteral("0s");
        QTest::newRow("seconds") << qint64(59'999) << QStringLiteral("59s");
        QTest::newRow("a minute") << qint64(60'000) << QStringLiteral("1m00s");
        QTest::newRow("minutes") << qint64(187'000) << QStringLiteral("3m07s");
        QTest::newRow("an hour") << qint64(3'600'000) << QStringLiteral("1h00m");
        QTest::newRow("hours") << qint64(3'600'000 * 26 + 5 * 60'000 + 59'000) << QStringLiteral("26h05m");
    }

    void durations() {
        QFETCH(qint64, ms);
        QFETCH(QString, text);
        QCOMPARE(crawl::formatDuration(ms), text);
    }
};

QTEST_GUILESS_MAIN(TestCrawlSnapshot)
#include "tst_crawlsnapshot.moc"
