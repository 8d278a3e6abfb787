// The pure decisions behind a shared crawl's credential headers and its resumed list: which headers a
// worker sends and which withheld ones it lacks; whether a resumed coordinator's list is the crawl's list.
#include "clustercredentials.h"
#include "clusterlistcheck.h"

#include <QTest>

using namespace crawl;

using Headers = QList<QPair<QByteArray, QByteArray>>;

class TestClusterResumeDecisions : public QObject {
    Q_OBJECT

    static InputFingerprint print(qint64 size, char fill) {
        InputFingerprint p;
        p.size = size;
        p.modifiedMs = 1000;
        p.edgesSha256 = QByteArray(64, fill);
        return p;
    }

private Q_SLOTS:
    void givenHeaderReplacesStoredOfSameName() {
        const ClusterWorkerHeaders merged = mergeClusterWorkerHeaders(
            {{"X-Trace", "stored"}, {"Accept-Language", "de"}}, {{"x-trace", "mine"}}, {});
        QCOMPARE(merged.headers, Headers({{"Accept-Language", "de"}, {"x-trace", "mine"}}));
        QVERIFY(merged.missing.isEmpty());
    }

    void withheldNamesNotGivenAreMissing() {
        const ClusterWorkerHeaders merged =
            mergeClusterWorkerHeaders({{"X-Trace", "1"}}, {{"cookie", "a=b"}},
                                      {QStringLiteral("Authorization"), QStringLiteral("Cookie"),
                                       QStringLiteral("authorization"), QStringLiteral(" ")});
        QCOMPARE(merged.missing, QStringList{QStringLiteral("Authorization")});
        QCOMPARE(merged.headers, Headers({{"X-Trace", "1"}, {"cookie", "a=b"}}));
    }

    void fingerprintComparedOnContentNotTime() {
        InputFingerprint then = print(100, 'a');
        InputFingerprint now = then;
        now.modifiedMs = 999'999; // copied to another machine
        QMap<QString, QString> settings{{InputFingerprint::kSettingsKey, then.toString()},
                                        {QStringLiteral("input_bytes"), QStringLiteral("100")}};
        ClusterListCheck check =
            checkClusterResumeList(settings, now, QStringLiteral("l.txt"), QStringLiteral("c"), false);
        QVERIFY(!check.refuse);
        QVERIFY(check.message.isEmpty());

        now.edgesSha256 = QByteArray(64, 'b'); // same size, edited
        check = checkClusterResumeList(settings, now, QStringLiteral("l.txt"), QStringLiteral("c"), false);
        QVERIFY(check.refuse);
        QVERIFY2(check.message.contains(QLatin1String("(content)")) &&
                     check.message.contains(QLatin1String("--input-changed ok")),
                 qPrintable(check.message));
        check = checkClusterResumeList(settings, now, QStringLiteral("l.txt"), QStringLiteral("c"), true);
        QVERIFY(!check.refuse);
        QVERIFY(check.message.contains(QLatin1String("going on")));
    }

    void olderCrawlComparesSizeAndSaysSo() {
        const QMap<QString, QString> settings{{QStringLiteral("input_bytes"), QStringLiteral("100")}};
        ClusterListCheck check = checkClusterResumeList(settings, print(100, 'z'), QStringLiteral("l.txt"),
                                                        QStringLiteral("c"), false);
        QVERIFY(!check.refuse);
        QVERIFY(check.message.contains(QLatin1String("only the size is compared")));
        check = checkClusterResumeList(settings, print(101, 'z'), QStringLiteral("l.txt"),
                                       QStringLiteral("c"), false);
        QVERIFY(check.refuse);
        QVERIFY(check.message.contains(QLatin1String("size 100 -> 101 bytes")));
    }

    void pipesAndUnreadablePrints() {
        // Created from a pipe: nothing to compare, whatever is given now.
        QVERIFY(!checkClusterResumeList({}, print(5, 'a'), QStringLiteral("l"), QStringLiteral("c"), false)
                     .refuse);
        QVERIFY(!checkClusterResumeList({}, std::nullopt, QStringLiteral("-"), QStringLiteral("c"), false)
                     .refuse);
        // Created from a file, resumed from a pipe: the user must say it is the same list.
        const QMap<QString, QString> fromFile{{InputFingerprint::kSettingsKey, print(5, 'a').toString()}};
        QVERIFY(
            checkClusterResumeList(fromFile, std::nullopt, QStringLiteral("-"), QStringLiteral("c"), false)
                .refuse);
        QVERIFY(
            !checkClusterResumeList(fromFile, std::nullopt, QStringLiteral("-"), QStringLiteral("c"), true)
                 .refuse);
        // A fingerprint that does not parse (Redis is written by others) is not taken as a match.
        const QMap<QString, QString> garbled{{InputFingerprint::kSettingsKey, QStringLiteral("size=x")}};
        const ClusterListCheck check =
            checkClusterResumeList(garbled, print(5, 'a'), QStringLiteral("l"), QStringLiteral("c"), false);
        QVERIFY(check.refuse);
        QVERIFY(check.message.contains(QLatin1String("unreadable input fingerprint")));
    }
};

QTEST_GUILESS_MAIN(TestClusterResumeDecisions)
#include "tst_clusterresumedecisions.moc"
