// The status bar's arithmetic on its own: the smoothed URLs/s, the ETA with its host floors and waiting
// states, and the window title's progress.
#include "status/etaestimate.h"
#include "status/exportfilename.h"
#include "status/throughputmeter.h"
#include "status/windowtitle.h"

#include <QDateTime>
#include <QTest>

using crawl::CrawlSnapshot;
using crawl::CrawlState;
using crawl::HostSnapshot;
using crawl::HostState;

namespace {

HostSnapshot host(const QString &name, qint64 queued, int inFlight, int maxInFlight, int intervalMs,
                  HostState state = HostState::Ready) {
    HostSnapshot h;
    h.host = name;
    h.queued = queued;
    h.inFlight = inFlight;
    h.maxInFlight = maxInFlight;
    h.intervalMs = intervalMs;
    h.state = state;
    return h;
}

CrawlSnapshot running(qint64 total, qint64 done, QList<HostSnapshot> hosts) {
    CrawlSnapshot s;
    s.state = CrawlState::Running;
    s.total = total;
    s.done = done;
    for (const HostSnapshot &h : hosts) {
        s.queued += h.queued;
        s.inFlight += h.inFlight;
    }
    s.hosts = std::move(hosts);
    return s;
}

constexpr qint64 kNow = 1'750'000'000'000;

} // namespace

class TestStatus : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void steadyCrawlReadsSteady() {
        // 32 URLs/s arrive as a batch of 3 or 4 every 100 ms; snapshots every 250 ms, out of step with
        // the batches. The per-snapshot rate swings between 0 and 64; the meter stays near 32.
        ui::ThroughputMeter meter;
        QCOMPARE(meter.perSecond(), -1.0);
        qint64 done = 0;
        double lo = 1e9, hi = -1;
        for (qint64 t = 0; t <= 20'000; t += 10) {
            if (t % 100 == 30)
                done = t * 32 / 1000; // a batch lands
            if (t % 250 == 0) {
                meter.add(kNow + t, done);
                const double rate = meter.perSecond();
                if (t >= 5'000) {
                    lo = std::min(lo, rate);
                    hi = std::max(hi, rate);
                }
            }
        }
        QVERIFY2(lo > 30 && hi < 34, qPrintable(QStringLiteral("%1..%2").arg(lo).arg(hi)));

        // Nothing finishes any more (a pause): within the window the rate falls to 0.
        for (qint64 t = 20'250; t <= 26'000; t += 250)
            meter.add(kNow + t, done);
        QCOMPARE(meter.perSecond(), 0.0);

        // A new crawl (the count goes back) starts over instead of reading negative.
        meter.add(kNow + 26'250, 0);
        QCOMPARE(meter.perSecond(), -1.0);
    }

    void etaIsTheOverallRate() {
        const CrawlSnapshot s = running(1000, 400, {host(QStringLiteral("a:1"), 590, 10, 10, 0)});
        const ui::EtaEstimate eta = ui::estimateEta(s, 60.0, kNow);
        QCOMPARE(eta.kind, ui::EtaEstimate::Kind::Estimate);
        QCOMPARE(eta.etaMs, 10'000);
        QCOMPARE(ui::etaText(eta, CrawlState::Running), QStringLiteral("ETA 10s"));
    }

    void pacedHostSetsTheFloor() {
        // 133 URLs wait behind a host paced at 1/s: the crawl cannot end in 5 s, whatever the rate says.
        const CrawlSnapshot s =
            running(1000, 800,
                    {host(QStringLiteral("fast:1"), 60, 6, 6, 0),
                     host(QStringLiteral("slow:1"), 133, 1, 2, 1'000, HostState::Pacing)});
        const ui::EtaEstimate eta = ui::estimateEta(s, 40.0, kNow); // 200 remaining / 40 = 5 s
        QCOMPARE(eta.kind, ui::EtaEstimate::Kind::Estimate);
        QVERIFY2(eta.etaMs >= 133'000, qPrintable(QString::number(eta.etaMs)));
        // Latency and the in-flight limit bound a host too: 100 queued, 500 ms each, 2 at a time.
        HostSnapshot slowServer = host(QStringLiteral("s:1"), 100, 2, 2, 0, HostState::Busy);
        slowServer.p50Ms = 500;
        QCOMPARE(ui::estimateEta(running(102, 0, {slowServer}), 1000.0, kNow).etaMs, 25'000);
        // And the global rate cap.
        CrawlSnapshot capped = running(1000, 0, {host(QStringLiteral("a:1"), 1000, 0, 4, 0)});
        capped.limits.maxRatePerSec = 10;
        QCOMPARE(ui::estimateEta(capped, 100.0, kNow).etaMs, 100'000);
    }

    void backingOffHostAddsItsWait() {
        HostSnapshot waiting = host(QStringLiteral("b:1"), 10, 0, 2, 100, HostState::BackingOff);
        waiting.stateUntilMs = kNow + 30'000;
        const CrawlSnapshot s = running(100, 50, {host(QStringLiteral("a:1"), 39, 1, 2, 0), waiting});
        const ui::EtaEstimate eta = ui::estimateEta(s, 50.0, kNow);
        QCOMPARE(eta.kind, ui::EtaEstimate::Kind::Estimate);
        QCOMPARE(eta.etaMs, 31'000); // 30 s of Retry-After, then 10 × 100 ms
    }

    void onlyWaitingHostsLeft() {
        HostSnapshot waiting = host(QStringLiteral("b:1"), 10, 0, 2, 0, HostState::BackingOff);
        const QDateTime until = QDateTime(QDate(2026, 11, 30), QTime(12, 4, 31));
        waiting.stateUntilMs = until.toMSecsSinceEpoch();
        const qint64 now = waiting.stateUntilMs - 20'000;
        const CrawlSnapshot s = running(100, 90, {host(QStringLiteral("a:1"), 0, 0, 2, 0), waiting});
        const ui::EtaEstimate eta = ui::estimateEta(s, 12.0, now);
        QCOMPARE(eta.kind, ui::EtaEstimate::Kind::WaitingUntil);
        QCOMPARE(eta.waitingHosts, 1);
        QCOMPARE(ui::etaText(eta, CrawlState::Running), QStringLiteral("waiting on 1 host until 12:04:31"));
    }

    void pausedHostsAreCountedApart() {
        const CrawlSnapshot mixed = running(300, 100,
                                            {host(QStringLiteral("a:1"), 100, 0, 2, 0),
                                             host(QStringLiteral("p:1"), 100, 0, 2, 0, HostState::Paused)});
        const ui::EtaEstimate eta = ui::estimateEta(mixed, 10.0, kNow);
        QCOMPARE(eta.kind, ui::EtaEstimate::Kind::Estimate);
        QCOMPARE(eta.etaMs, 10'000); // the paused host's 100 are not counted
        QCOMPARE(eta.pausedHosts, 1);
        QCOMPARE(ui::etaText(eta, CrawlState::Running), QStringLiteral("ETA 10s + 1 paused host"));

        const CrawlSnapshot onlyPaused =
            running(300, 200, {host(QStringLiteral("p:1"), 100, 0, 2, 0, HostState::Paused)});
        const ui::EtaEstimate stuck = ui::estimateEta(onlyPaused, 10.0, kNow);
        QCOMPARE(stuck.kind, ui::EtaEstimate::Kind::WaitingPaused);
        QCOMPARE(ui::etaText(stuck, CrawlState::Running), QStringLiteral("waiting on 1 paused host"));
    }

    void notRunning() {
        CrawlSnapshot s = running(100, 10, {host(QStringLiteral("a:1"), 90, 0, 2, 0)});
        s.state = CrawlState::Paused;
        const ui::EtaEstimate eta = ui::estimateEta(s, 10.0, kNow);
        QCOMPARE(eta.kind, ui::EtaEstimate::Kind::Unknown);
        QCOMPARE(ui::etaText(eta, CrawlState::Paused), QStringLiteral("ETA – (paused)"));
        QCOMPARE(ui::etaText(ui::EtaEstimate{}, CrawlState::Finished), QStringLiteral("ETA –"));
        // Running but no rate and no host floor yet: unknown, not "0s".
        QCOMPARE(ui::estimateEta(running(100, 0, {host(QStringLiteral("a:1"), 100, 0, 2, 0)}), -1, kNow).kind,
                 ui::EtaEstimate::Kind::Unknown);
    }

    void exportNamedAfterListAndDate() {
        const QDate day(2026, 11, 30);
        QCOMPARE(ui::exportFileName(QStringLiteral("shop urls.txt"), QStringLiteral("failures"), day),
                 QStringLiteral("shop-urls-2026-11-30-failures.csv"));
        QCOMPARE(ui::exportFileName(QStringLiteral("list.tar.csv"), QStringLiteral("results"), day),
                 QStringLiteral("list.tar-2026-11-30-results.csv"));
        QCOMPARE(ui::exportFileName(QStringLiteral("pasted URLs"), QStringLiteral("results-view"), day),
                 QStringLiteral("pasted-URLs-2026-11-30-results-view.csv"));
        QCOMPARE(ui::exportFileName(QStringLiteral("a:b*?.txt"), QStringLiteral("results"), day),
                 QStringLiteral("a-b-2026-11-30-results.csv"));
        QCOMPARE(ui::exportFileName({}, QStringLiteral("results"), day),
                 QStringLiteral("crawl-2026-11-30-results.csv"));
        QCOMPARE(ui::exportFileName(QStringLiteral("..."), QStringLiteral("results"), day),
                 QStringLiteral("crawl-2026-11-30-results.csv"));
    }

    void titleShowsProgress() {
        CrawlSnapshot s = running(200, 84, {});
        QCOMPARE(ui::crawlWindowTitle(QStringLiteral("list.txt"), s),
                 QStringLiteral("42% — list.txt — Crawlscope"));
        s.done = 199;
        QCOMPARE(ui::crawlWindowTitle(QStringLiteral("list.txt"), s),
                 QStringLiteral("99% — list.txt — Crawlscope"));
        s.state = CrawlState::Paused;
        QCOMPARE(ui::crawlWindowTitle(QStringLiteral("list.txt"), s),
                 QStringLiteral("(paused) 99% — list.txt — Crawlscope"));
        s.state = CrawlState::Finished;
        QCOMPARE(ui::crawlWindowTitle(QStringLiteral("list.txt"), s),
                 QStringLiteral("list.txt — Crawlscope"));
        s.state = CrawlState::Running;
        s.total = -1; // still reading the list
        QCOMPARE(ui::crawlWindowTitle(QStringLiteral("list.txt"), s),
                 QStringLiteral("list.txt — Crawlscope"));
        QCOMPARE(ui::crawlWindowTitle({}, CrawlSnapshot{}), QStringLiteral("Crawlscope"));
    }
};

QTEST_MAIN(TestStatus)
#include "tst_status.moc"
