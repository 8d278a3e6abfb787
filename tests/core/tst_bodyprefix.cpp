// What the shard keeps of a streaming body: a bounded prefix for the acceptance checks and robots.txt,
// the rest counted and dropped.
#include "engine/bodyprefix.h"
#include "robots/robotsrules.h"

#include <QBuffer>
#include <QTest>

using namespace crawl;

class TestBodyPrefix : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void keepsOnlyThePrefixAndCountsEverything() {
        QByteArray body(100, 'x');
        body[0] = 'a';
        body[9] = 'b';
        QBuffer device(&body);
        QVERIFY(device.open(QIODevice::ReadOnly));
        QByteArray prefix;
        QCOMPARE(consumeBody(&device, prefix, 10), qint64(100));
        QCOMPARE(prefix.size(), 10);
        QVERIFY(prefix.startsWith('a') && prefix.endsWith('b'));
        QCOMPARE(device.bytesAvailable(), 0);
    }

    void fillsAcrossChunks() {
        QByteArray prefix;
        for (const QByteArray &chunk : {QByteArray("abc"), QByteArray("defg"), QByteArray("hij")}) {
            QByteArray data = chunk;
            QBuffer device(&data);
            QVERIFY(device.open(QIODevice::ReadOnly));
            QCOMPARE(consumeBody(&device, prefix, 5), qint64(chunk.size()));
        }
        QCOMPARE(prefix, QByteArray("abcde"));
    }

    void howMuchIsKept() {
        AcceptanceCriteria criteria;
        criteria.bodyPrefixBytes = 4096;
        QCOMPARE(bodyBytesToKeep(criteria, false, QStringLiteral("text/html; charset=utf-8")), 4096);
        QCOMPARE(bodyBytesToKeep(criteria, false, QStringLiteral("image/png")), 0); // no title, no search
        QCOMPARE(bodyBytesToKeep(criteria, true, QStringLiteral("text/plain")), RobotsRules::maxParsedBytes);
        criteria.expectedText = QStringLiteral("needle");
        QCOMPARE(bodyBytesToKeep(criteria, false, QStringLiteral("application/json")), 4096);
    }
};

QTEST_GUILESS_MAIN(TestBodyPrefix)
#include "tst_bodyprefix.moc"
