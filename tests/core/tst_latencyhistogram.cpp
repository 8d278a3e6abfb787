// Bounded latency histograms: percentiles without keeping samples, merging.
#include "stats/latencyhistogram.h"

#include <QTest>

using namespace crawl;

class TestLatencyHistogram : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void histogramPercentiles() {
        LatencyHistogram h;
        QCOMPARE(h.percentileMs(0.5), -1);
        for (int ms = 1; ms <= 100; ++ms)
            h.add(qint64(ms) * 1000);
        const auto near = [](int got, int want) { return std::abs(got - want) <= std::max(1, want / 10); };
        QVERIFY2(near(h.percentileMs(0.50), 50), qPrintable(QString::number(h.percentileMs(0.50))));
        QVERIFY2(near(h.percentileMs(0.95), 95), qPrintable(QString::number(h.percentileMs(0.95))));
        QVERIFY2(near(h.percentileMs(0.99), 99), qPrintable(QString::number(h.percentileMs(0.99))));
        LatencyHistogram other;
        for (int i = 0; i < 900; ++i)
            other.add(2'000'000); // 2 s
        h.merge(other);
        QCOMPARE(h.count(), quint64(1000));
        QVERIFY(near(h.percentileMs(0.5), 2000));
    }
};

QTEST_GUILESS_MAIN(TestLatencyHistogram)
#include "tst_latencyhistogram.moc"
