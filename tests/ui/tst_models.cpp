// The window's models on small hand-made data, each under QAbstractItemModelTester.
#include "models/hostsmodel.h"
#include "models/resultfiltersortmodel.h"
#include "models/resultsmodel.h"
#include "models/resultstore.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

using crawl::CrawlResult;
using crawl::Outcome;

namespace {

CrawlResult makeResult(quint64 id, const QString &url, Outcome outcome, int status = 200) {
    CrawlResult r;
    r.id = id;
    r.lineNumber = qint64(id) + 1;
    r.url = url;
    r.host = outcome == Outcome::InvalidUrl ? QString() : QStringLiteral("127.0.0.1:8080");
    r.finalUrl = status ? url : QString();
    r.status = status;
    r.outcome = outcome;
    r.attempts = outcome == Outcome::InvalidUrl ? 0 : 1;
    r.bytes = 1234;
    r.contentType = QStringLiteral("text/html");
    r.latencyMs = 42;
    r.ttfbMs = 10;
    if (outcome != Outcome::Ok)
        r.error = QStringLiteral("reason for %1").arg(id);
    r.startedAt = QDateTime::fromMSecsSinceEpoch(1'700'000'000'000 + qint64(id), Qt::UTC);
    r.finishedAt = r.startedAt.addMSecs(42);
    return r;
}

crawl::HostSnapshot makeHost(const QString &host, int inFlight, int maxInFlight) {
    crawl::HostSnapshot h;
    h.host = host;
    h.inFlight = inFlight;
    h.maxInFlight = maxInFlight;
    h.queued = 10;
    h.done = 5;
    h.ok = 4;
    h.failed = 1;
    h.p50Ms = 12;
    h.p95Ms = 40;
    h.lastStatus = 200;
    return h;
}

} // namespace

class TestModels : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void storeRoundTrip() {
        ui::ResultStore store;
        CrawlResult a = makeResult(7, QStringLiteral("http://127.0.0.1:8080/ä?x=1"), Outcome::HttpError, 404);
        a.finalUrl = QStringLiteral("http://127.0.0.1:8080/elsewhere");
        a.redirectChain = {a.url, a.finalUrl};
        a.redirects = 1;
        CrawlResult b = makeResult(8, QStringLiteral("http://127.0.0.1:8080/ok"), Outcome::Ok);
        CrawlResult c = makeResult(9, QStringLiteral("ftp://nope"), Outcome::InvalidUrl, 0);
        c.startedAt = QDateTime();
        c.latencyMs = -1;
        c.ttfbMs = -1;
        store.append(a);
        store.append(b);
        store.append(c);
        QCOMPARE(store.size(), 3);
        for (int i = 0; i < 3; ++i) {
            const CrawlResult &want = i == 0 ? a : i == 1 ? b : c;
            const CrawlResult got = store.result(i);
            QCOMPARE(got.id, want.id);
            QCOMPARE(got.url, want.url);
            QCOMPARE(got.finalUrl, want.finalUrl);
            QCOMPARE(got.host, want.host);
            QCOMPARE(got.status, want.status);
            QCOMPARE(got.outcome, want.outcome);
            QCOMPARE(got.error, want.error);
            QCOMPARE(got.latencyMs, want.latencyMs);
            QCOMPARE(got.startedAt, want.startedAt);
            QCOMPARE(got.finishedAt, want.finishedAt);
            QCOMPARE(got.redirectChain, want.redirectChain);
            QCOMPARE(got.contentType, want.contentType);
        }
        QCOMPARE(store.row(1).extraIndex, -1); // an ok result without redirects stores no extra texts
    }

    void resultsModel() {
        ui::ResultsModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        model.addResults({makeResult(0, QStringLiteral("http://a/0"), Outcome::Ok),
                          makeResult(1, QStringLiteral("http://a/1"), Outcome::Timeout, 0),
                          makeResult(2, QStringLiteral("http://a/2"), Outcome::HttpError, 404)});
        QCOMPARE(inserted.size(), 1); // one insert per batch
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.failureCount(), 2);
        QCOMPARE(model.index(2, ui::ResultsModel::StatusColumn).data().toInt(), 404);
        QCOMPARE(model.index(1, ui::ResultsModel::OutcomeColumn).data().toString(),
                 QStringLiteral("timeout"));
        QCOMPARE(model.index(1, ui::ResultsModel::ErrorColumn).data().toString(),
                 QStringLiteral("reason for 1"));

        // A retried URL comes back with the same id: its row is replaced, nothing is appended.
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        model.addResults({makeResult(1, QStringLiteral("http://a/1"), Outcome::Ok),
                          makeResult(3, QStringLiteral("http://a/3"), Outcome::Ok)});
        QCOMPARE(model.rowCount(), 4);
        QCOMPARE(changed.size(), 1);
        QCOMPARE(model.index(1, ui::ResultsModel::OutcomeColumn).data().toString(), QStringLiteral("ok"));
        QCOMPARE(model.failureCount(), 1);
        QCOMPARE(model.rowForId(3), 3);
        model.clear();
        QCOMPARE(model.rowCount(), 0);
    }

    void filterModel() {
        ui::ResultsModel model;
        ui::ResultFilterSortModel failures;
        failures.setResultsModel(&model);
        failures.setFailuresOnly(true);
        ui::ResultFilterSortModel all;
        all.setResultsModel(&model);
        QAbstractItemModelTester t1(&failures, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester t2(&all, QAbstractItemModelTester::FailureReportingMode::QtTest);

        model.addResults({makeResult(0, QStringLiteral("http://a/zero"), Outcome::Ok),
                          makeResult(1, QStringLiteral("http://a/one"), Outcome::Timeout, 0),
                          makeResult(2, QStringLiteral("http://a/two"), Outcome::HttpError, 404)});
        QCOMPARE(all.rowCount(), 3);
        QCOMPARE(failures.rowCount(), 2);
        QCOMPARE(failures.index(0, ui::ResultsModel::UrlColumn).data().toString(),
                 QStringLiteral("http://a/one"));

        all.setTextFilter(QStringLiteral("TWO"));
        QCOMPARE(all.rowCount(), 1);
        all.setTextFilter(QStringLiteral("reason for 1")); // matches the error text
        QCOMPARE(all.rowCount(), 1);
        all.setTextFilter({});
        all.setOutcomeMask(1u << unsigned(Outcome::HttpError));
        QCOMPARE(all.rowCount(), 1);
        all.setOutcomeMask(~0u);

        // Live inserts go through the filter; a retried failure that now succeeds leaves the failures.
        model.addResults({makeResult(3, QStringLiteral("http://a/three"), Outcome::NetworkError, 0)});
        QCOMPARE(failures.rowCount(), 3);
        model.addResults({makeResult(1, QStringLiteral("http://a/one"), Outcome::Ok)});
        QCOMPARE(failures.rowCount(), 2);
        QCOMPARE(all.rowCount(), 4);
        // Per-outcome counts (the outcome filter's menu) follow replacements.
        QCOMPARE(model.outcomeCount(Outcome::Ok), 2);
        QCOMPARE(model.outcomeCount(Outcome::Timeout), 0);
        QCOMPARE(model.outcomeCount(Outcome::HttpError), 1);
        QCOMPARE(model.outcomeCount(Outcome::NetworkError), 1);

        // Sort on demand, then map back to the source.
        all.sort(ui::ResultsModel::UrlColumn, Qt::AscendingOrder);
        QCOMPARE(all.index(0, ui::ResultsModel::UrlColumn).data().toString(), QStringLiteral("http://a/one"));
        QCOMPARE(all.mapToSource(all.index(0, 0)).row(), 1);
        QCOMPARE(all.mapFromSource(model.index(1, 0)).row(), 0);
        all.sort(ui::ResultsModel::LineColumn, Qt::DescendingOrder);
        QCOMPARE(all.mapToSource(all.index(0, 0)).row(), 3);
        // The sort holds for rows that arrive later: line 5 goes to the top of a descending line sort.
        model.addResults({makeResult(4, QStringLiteral("http://a/four"), Outcome::Ok)});
        QCOMPARE(all.rowCount(), 5);
        QCOMPARE(all.mapToSource(all.index(0, 0)).row(), 4);
        QCOMPARE(all.mapFromSource(model.index(4, 0)).row(), 0);
        // No sort again: arrival order, and later rows append.
        all.sort(-1);
        for (int row = 0; row < all.rowCount(); ++row)
            QCOMPARE(all.sourceRow(row), row);
        model.clear();
        QCOMPARE(all.rowCount(), 0);
        QCOMPARE(failures.rowCount(), 0);
    }

    void sortHoldsForStreamedRows() {
        // Batches arriving after a sort land in sorted position (equal rows in arrival order) and the
        // persistent indexes (a view's selection) stay on their rows.
        ui::ResultsModel model;
        ui::ResultFilterSortModel proxy;
        proxy.setResultsModel(&model);
        QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        quint32 seed = 7;
        auto next = [&seed] { return seed = seed * 1103515245u + 12345u; };
        auto batch = [&](quint64 from, int count) {
            QList<CrawlResult> results;
            for (int i = 0; i < count; ++i) {
                CrawlResult r = makeResult(from + quint64(i),
                                           QStringLiteral("http://a/%1").arg(from + quint64(i)), Outcome::Ok);
                r.latencyMs = qint64(next() % 20);
                results.append(r);
            }
            model.addResults(results);
        };
        batch(0, 30);
        proxy.sort(ui::ResultsModel::LatencyColumn, Qt::DescendingOrder);
        const QPersistentModelIndex held(proxy.index(5, ui::ResultsModel::UrlColumn));
        const QString heldUrl = held.data().toString();
        for (int round = 0; round < 6; ++round) {
            batch(quint64(30 + round * 7), 7);
            QCOMPARE(held.data().toString(), heldUrl);
            for (int row = 1; row < proxy.rowCount(); ++row) {
                const auto at = [&](int r) {
                    return std::pair(proxy.index(r, ui::ResultsModel::LatencyColumn)
                                         .data(ui::ResultsModel::SortRole)
                                         .toInt(),
                                     proxy.mapToSource(proxy.index(r, 0)).row());
                };
                // Descending latency; ties in arrival (source) order.
                QVERIFY(at(row).first < at(row - 1).first ||
                        (at(row).first == at(row - 1).first && at(row).second > at(row - 1).second));
                QCOMPARE(proxy.mapFromSource(proxy.mapToSource(proxy.index(row, 0))).row(), row);
            }
        }
        QCOMPARE(proxy.rowCount(), 72);
    }

    void sortKeepsPersistentIndexes() {
        // The order itself is ResultSorter's (tst_resultsorter); the proxy must move the views' persistent
        // indexes (selection, current row) along with their rows.
        ui::ResultsModel model;
        model.addResults({makeResult(0, QStringLiteral("http://a/c"), Outcome::Ok),
                          makeResult(1, QStringLiteral("http://a/a"), Outcome::Timeout, 0),
                          makeResult(2, QStringLiteral("http://a/b"), Outcome::HttpError, 404)});
        ui::ResultFilterSortModel proxy;
        proxy.setResultsModel(&model);
        QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        const QPersistentModelIndex first(proxy.index(0, ui::ResultsModel::UrlColumn));
        const QPersistentModelIndex last(proxy.index(2, ui::ResultsModel::StatusColumn));
        QSignalSpy layout(&proxy, &QAbstractItemModel::layoutChanged);
        proxy.sort(ui::ResultsModel::UrlColumn, Qt::AscendingOrder);
        QCOMPARE(layout.size(), 1);
        QCOMPARE(first.row(), 2);
        QCOMPARE(first.data().toString(), QStringLiteral("http://a/c"));
        QCOMPARE(last.row(), 1);
        QCOMPARE(last.column(), int(ui::ResultsModel::StatusColumn));
        QCOMPARE(last.data().toInt(), 404);
        QCOMPARE(proxy.mapFromSource(model.index(1, 0)).row(), 0);
    }

    void hostsModel() {
        ui::HostsModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setHosts({makeHost(QStringLiteral("a:80"), 1, 2)}, 0);
        QCOMPARE(model.rowCount(), 1);
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        model.setHosts({makeHost(QStringLiteral("a:80"), 2, 2), makeHost(QStringLiteral("b:80"), 0, 2)}, 0);
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(inserted.size(), 1);
        QCOMPARE(changed.size(), 1);
        QCOMPARE(reset.size(), 0);
        QCOMPARE(model.index(0, ui::HostsModel::InFlightColumn).data(ui::HostsModel::InFlightRole).toInt(),
                 2);
        QCOMPARE(model.index(0, ui::HostsModel::InFlightColumn).data().toString(), QStringLiteral("2 / 2"));
        QCOMPARE(model.rowForHost(QStringLiteral("b:80")), 1);

        crawl::HostSnapshot backing = makeHost(QStringLiteral("c:80"), 0, 2);
        backing.state = crawl::HostState::BackingOff;
        backing.stateUntilMs = 10'000;
        backing.queued = 3;
        model.setCrawlState(crawl::CrawlState::Running);
        // A snapshot without a/b and with a new host: a/b keep their rows, c is appended, nothing resets.
        model.setHosts({backing}, 7'500);
        QCOMPARE(reset.size(), 0);
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.rowForHost(QStringLiteral("c:80")), 2);
        QCOMPARE(model.index(2, ui::HostsModel::StateColumn).data().toString(),
                 QStringLiteral("backing off 2.5 s"));
        QCOMPARE(model.index(0, ui::HostsModel::InFlightColumn).data(ui::HostsModel::InFlightRole).toInt(),
                 2);
        model.clear();
        QCOMPARE(model.rowCount(), 0);
    }

    // robots.txt's Crawl-delay stretches a host's interval: the interval shown is the one in force.
    void hostsModelShowsCrawlDelay() {
        ui::HostsModel model;
        crawl::HostSnapshot host = makeHost(QStringLiteral("a:80"), 0, 2);
        host.intervalMs = 500;
        host.effectiveIntervalMs = 2000;
        host.intervalReason = QStringLiteral("Crawl-delay 2 s (robots.txt)");
        crawl::HostSnapshot plain = makeHost(QStringLiteral("b:80"), 0, 2);
        plain.intervalMs = 500;
        model.setHosts({host, plain}, 0);
        const QModelIndex interval = model.index(0, ui::HostsModel::IntervalColumn);
        QCOMPARE(interval.data().toString(), QStringLiteral("2000 ms (robots.txt)"));
        QVERIFY2(interval.data(Qt::ToolTipRole).toString().contains(QLatin1String("Crawl-delay 2 s")),
                 qPrintable(interval.data(Qt::ToolTipRole).toString()));
        QCOMPARE(model.index(1, ui::HostsModel::IntervalColumn).data().toString(), QStringLiteral("500 ms"));
    }
};

QTEST_MAIN(TestModels)
#include "tst_models.moc"
