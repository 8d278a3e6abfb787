// What the hosts table says about a host: every state from the snapshot and the crawl's state, never
// contradicting the numbers beside it; the override badge and full host names; and the real window
// showing "crawl paused" for its hosts while the crawl is paused.
#include "engine/crawlengine.h"
#include "freshsettings.h"
#include "mainwindow.h"
#include "models/hostsmodel.h"
#include "models/hoststatus.h"
#include "testsite.h"
#include "widgets/limitspanel.h"
#include "widgets/sliderspinbox.h"

#include <QDateTime>
#include <QFont>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

using crawl::CrawlState;
using crawl::HostSnapshot;
using crawl::HostState;
using Kind = ui::HostStatus::Kind;

namespace {

constexpr qint64 kNow = 1'750'000'000'000;

HostSnapshot host(HostState state, qint64 queued, int inFlight, int maxInFlight = 2, qint64 done = 0) {
    HostSnapshot h;
    h.host = QStringLiteral("127.0.0.1:18291");
    h.state = state;
    h.queued = queued;
    h.inFlight = inFlight;
    h.maxInFlight = maxInFlight;
    h.done = done;
    return h;
}

ui::HostStatus statusOf(const HostSnapshot &h, CrawlState crawl = CrawlState::Running, bool skipped = false) {
    return ui::hostStatus(h, crawl, skipped, kNow);
}

} // namespace

class TestHostStatus : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { uitest::useFreshSettings(); }

    void everyState() {
        QCOMPARE(statusOf(host(HostState::Ready, 0, 0)).kind, Kind::Idle);
        QCOMPARE(statusOf(host(HostState::Ready, 0, 0)).text, QStringLiteral("idle"));
        QCOMPARE(statusOf(host(HostState::Ready, 5, 0)).kind, Kind::Ready);
        QCOMPARE(statusOf(host(HostState::Ready, 5, 1)).kind, Kind::Fetching);
        QCOMPARE(statusOf(host(HostState::Busy, 5, 2)).text, QStringLiteral("busy (at limit)"));
        QCOMPARE(statusOf(host(HostState::Pacing, 5, 0)).text, QStringLiteral("waiting for interval"));
        HostSnapshot backingOff = host(HostState::BackingOff, 5, 0);
        backingOff.stateUntilMs = kNow + 12'345;
        const ui::HostStatus b = statusOf(backingOff);
        QCOMPARE(b.kind, Kind::BackingOff);
        QCOMPARE(b.text, QStringLiteral("backing off 12.3 s"));
        QCOMPARE(b.untilMs, kNow + 12'345);
        QCOMPARE(statusOf(host(HostState::Paused, 5, 0)).text, QStringLiteral("paused"));
        QCOMPARE(statusOf(host(HostState::Paused, 5, 1)).text, QStringLiteral("paused · 1 finishing"));
        QCOMPARE(statusOf(host(HostState::Ready, 0, 0, 2, 7)).kind, Kind::Done);
        QCOMPARE(statusOf(host(HostState::Ready, 3, 1), CrawlState::Running, true).text,
                 QStringLiteral("skipped · 1 finishing"));
        QCOMPARE(statusOf(host(HostState::Ready, 0, 2), CrawlState::Stopping).text,
                 QStringLiteral("stopping · 2 finishing"));
        QCOMPARE(statusOf(host(HostState::Ready, 0, 0, 2, 9), CrawlState::Finished).text,
                 QStringLiteral("done"));
    }

    void trippedHostSaysWhyAndWhenItProbes() {
        HostSnapshot h = host(HostState::Ready, 12, 0);
        h.breakerState = crawl::BreakerState::Open;
        h.breakerReason = QStringLiteral("18 of the last 20 attempts failed: timeouts");
        h.breakerProbeAtMs = kNow + 42'000;
        const ui::HostStatus tripped = statusOf(h);
        QCOMPARE(tripped.kind, Kind::Tripped);
        QCOMPARE(tripped.untilMs, h.breakerProbeAtMs);
        QCOMPARE(
            tripped.text,
            QStringLiteral("tripped: 18 of the last 20 attempts failed: timeouts, probe at %1")
                .arg(QDateTime::fromMSecsSinceEpoch(kNow + 42'000).toString(QStringLiteral("HH:mm:ss"))));
        h.breakerState = crawl::BreakerState::HalfOpen;
        QCOMPARE(statusOf(h).text,
                 QStringLiteral("tripped: 18 of the last 20 attempts failed: timeouts, probing"));
        h.breakerState = crawl::BreakerState::GaveUp;
        QCOMPARE(statusOf(h).kind, Kind::GivenUp);
        // What the user did still comes first.
        h.state = HostState::Paused;
        QCOMPARE(statusOf(h).kind, Kind::Paused);
    }

    void neverContradictsTheNumbers() {
        // "idle" with 1/2 in flight: the engine's state lags the counts; the counts win.
        QCOMPARE(statusOf(host(HostState::Ready, 0, 1)).kind, Kind::Fetching);
        // At the limit whatever the engine's state says.
        QCOMPARE(statusOf(host(HostState::Ready, 4, 2)).kind, Kind::Busy);
        // Every host "ready" during a global pause.
        QCOMPARE(statusOf(host(HostState::Ready, 5, 0), CrawlState::Paused).text,
                 QStringLiteral("crawl paused"));
        QCOMPARE(statusOf(host(HostState::Ready, 5, 1), CrawlState::Paused).text,
                 QStringLiteral("crawl paused · 1 finishing"));
        // "backing off 0.0 s": a back-off that is over (or under 0.1 s) is not shown.
        HostSnapshot over = host(HostState::BackingOff, 5, 0);
        over.stateUntilMs = kNow + 40;
        QCOMPARE(statusOf(over).kind, Kind::Ready);
        over.stateUntilMs = kNow - 500;
        QCOMPARE(statusOf(over).kind, Kind::Ready);
        // A skipped host is not "idle", even with nothing left.
        QCOMPARE(statusOf(host(HostState::Ready, 0, 0), CrawlState::Running, true).kind, Kind::Skipped);
        // Nothing left to do: the host's own pause or pacing no longer matters.
        QCOMPARE(statusOf(host(HostState::Pacing, 0, 0, 2, 3)).kind, Kind::Done);
    }

    void modelShowsBadgeAndWholeName() {
        ui::HostsModel model;
        HostSnapshot own = host(HostState::Ready, 5, 0);
        own.overridden = true;
        own.maxInFlight = 1;
        own.intervalMs = 500;
        HostSnapshot plain = host(HostState::Ready, 5, 0);
        plain.host = QStringLiteral("127.0.0.2:18291");
        model.setCrawlState(CrawlState::Running);
        model.setHosts({own, plain}, kNow);
        const QModelIndex ownHost = model.index(0, ui::HostsModel::HostColumn);
        QCOMPARE(ownHost.data().toString(), QStringLiteral("127.0.0.1:18291  · override"));
        QVERIFY(ownHost.data(Qt::FontRole).value<QFont>().bold());
        QVERIFY(ownHost.data(Qt::ToolTipRole).toString().contains(QStringLiteral("override")));
        QCOMPARE(model.index(1, ui::HostsModel::HostColumn).data().toString(),
                 QStringLiteral("127.0.0.2:18291"));
        QCOMPARE(model.index(1, ui::HostsModel::HostColumn).data(Qt::ToolTipRole).toString(),
                 QStringLiteral("127.0.0.2:18291"));
        model.markSkipped(plain.host);
        QCOMPARE(model.index(1, ui::HostsModel::StateColumn).data().toString(), QStringLiteral("skipped"));
        model.setCrawlState(CrawlState::Paused);
        model.setHosts({own, plain}, kNow);
        QCOMPARE(model.index(0, ui::HostsModel::StateColumn).data().toString(),
                 QStringLiteral("crawl paused"));
    }

    void windowShowsCrawlPaused() {
        testsite::TestSite site;
        const QString a = site.addHost();
        const QString b = site.addHost();
        QVERIFY(!a.isEmpty() && !b.isEmpty());
        QByteArray list;
        for (int i = 0; i < 60; ++i) {
            list += (site.baseUrl(a) + QStringLiteral("/a%1?ms=200\n").arg(i)).toUtf8();
            list += (site.baseUrl(b) + QStringLiteral("/b%1?ms=200\n").arg(i)).toUtf8();
        }
        ui::MainWindow window;
        window.setConfirmationsEnabled(false);
        window.limitsPanel()->perHostInFlight()->setValue(2);
        window.limitsPanel()->interval()->setValue(0);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QCOMPARE(window.hostsView()->textElideMode(), Qt::ElideRight);
        window.loadText(list, QStringLiteral("pause"));
        QSignalSpy finished(window.engine(), &crawl::CrawlEngine::finished);
        window.startCrawl();
        QVERIFY(QTest::qWaitFor([&] { return window.hostsModel()->rowCount() == 2; }, 10'000));
        window.pauseOrResume();
        QCOMPARE(window.engine()->state(), crawl::CrawlState::Paused);
        auto stateShown = [&](int row) {
            return window.hostsModel()->index(row, ui::HostsModel::StateColumn).data().toString();
        };
        QVERIFY2(QTest::qWaitFor(
                     [&] {
                         return stateShown(0) == QStringLiteral("crawl paused") &&
                                stateShown(1) == QStringLiteral("crawl paused");
                     },
                     10'000),
                 qPrintable(stateShown(0) + QStringLiteral(" / ") + stateShown(1)));
        window.stopCrawl();
        QVERIFY(finished.wait(10'000));
    }
};

QTEST_MAIN(TestHostStatus)
#include "tst_hoststatus.moc"
