// Which statuses are retried, and the jittered, capped exponential backoff.
#include "policy/retrypolicy.h"

#include <QTest>

using namespace crawl;

class TestRetryPolicy : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void retryableStatuses() {
        for (int status : {408, 429, 500, 502, 503, 504})
            QVERIFY2(isRetryableStatus(status), qPrintable(QString::number(status)));
        for (int status : {200, 301, 400, 401, 403, 404, 410, 501})
            QVERIFY2(!isRetryableStatus(status), qPrintable(QString::number(status)));
    }

    void backoffGrowsJittersAndCaps() {
        QCOMPARE(backoffDelayMs(1, 500, 30'000, 0.0), 250);   // half fixed ...
        QCOMPARE(backoffDelayMs(1, 500, 30'000, 1.0), 500);   // ... half random
        QCOMPARE(backoffDelayMs(3, 500, 30'000, 1.0), 2'000); // base x 2^(3-1)
        QCOMPARE(backoffDelayMs(20, 500, 30'000, 1.0), 30'000);
        QVERIFY(backoffDelayMs(2, 500, 30'000, 0.3) != backoffDelayMs(2, 500, 30'000, 0.7));
    }
};

QTEST_GUILESS_MAIN(TestRetryPolicy)
#include "tst_retrypolicy.moc"
