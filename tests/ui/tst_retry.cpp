// Retry from the window: a retry that is stopped keeps each row's diagnosis, the default retry leaves
// permanent answers (403/404/410, redirect limits) alone, and the user can retry all or only the selected
// rows. Asserted at the test server (which targets it saw again) and in the results model.
#include "engine/crawlengine.h"
#include "freshsettings.h"
#include "mainwindow.h"
#include "models/resultfiltersortmodel.h"
#include "models/resultsmodel.h"
#include "models/retryselection.h"
#include "testsite.h"
#include "widgets/limitspanel.h"
#include "widgets/sliderspinbox.h"

#include <QAction>
#include <QItemSelectionModel>
#include <QSet>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

namespace {

struct Diagnosis {
    crawl::Outcome outcome;
    int status;
    QString error;
    int attempts;
    bool operator==(const Diagnosis &) const = default;
};

QHash<QString, Diagnosis> diagnoses(ui::MainWindow &window) {
    QHash<QString, Diagnosis> out;
    const ui::ResultsModel *model = window.resultsModel();
    for (int row = 0; row < model->rowCount(); ++row) {
        const crawl::CrawlResult r = model->result(row);
        out.insert(r.url, {r.outcome, r.status, r.error, r.attempts});
    }
    return out;
}

QSet<QString> pathsSeen(const testsite::TestSite &site, const QString &host) {
    QSet<QString> paths;
    const QList<testsite::RequestRecord> requests = site.requests(host);
    for (const testsite::RequestRecord &r : requests)
        paths.insert(r.target.section(QLatin1Char('?'), 0, 0));
    return paths;
}

QAction *action(ui::MainWindow &window, const QString &name) {
    return window.findChild<QAction *>(name);
}

} // namespace

class TestRetry : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { uitest::useFreshSettings(); }

    void transientByDefault() {
        using crawl::Outcome;
        QVERIFY(ui::isTransientFailure(Outcome::Timeout, 0));
        QVERIFY(ui::isTransientFailure(Outcome::NetworkError, 0));
        QVERIFY(ui::isTransientFailure(Outcome::Cancelled, 0));
        for (const int status : {408, 429, 500, 502, 503, 504, 599})
            QVERIFY2(ui::isTransientFailure(Outcome::HttpError, status), qPrintable(QString::number(status)));
        for (const int status : {302, 400, 401, 403, 404, 410, 451})
            QVERIFY2(!ui::isTransientFailure(Outcome::HttpError, status),
                     qPrintable(QString::number(status)));
        QVERIFY(!ui::isTransientFailure(Outcome::TooLarge, 200));
        QVERIFY(!ui::isTransientFailure(Outcome::Ok, 200));
        QVERIFY(!ui::wantsRetry(ui::RetryScope::Transient, Outcome::HttpError, 410));
        QVERIFY(ui::wantsRetry(ui::RetryScope::AllFailures, Outcome::HttpError, 410));
        QVERIFY(ui::wantsRetry(ui::RetryScope::Selected, Outcome::HttpError, 410));
        for (const auto scope :
             {ui::RetryScope::Transient, ui::RetryScope::AllFailures, ui::RetryScope::Selected}) {
            QVERIFY(!ui::wantsRetry(scope, Outcome::Ok, 200));
            QVERIFY(!ui::wantsRetry(scope, Outcome::InvalidUrl, 0));
        }
    }

    void stopKeepsDiagnosisAndUserChoosesWhatToRetry() {
        testsite::TestSite site;
        const QString host = site.addHost();
        QVERIFY(!host.isEmpty());
        const QString base = site.baseUrl(host);
        QByteArray list;
        for (const char *path :
             {"/gone?status=410", "/missing?status=404", "/forbidden?status=403", "/loop?loop=1",
              "/busy?status=503", "/throttled?status=429", "/stuck?hang=1", "/fine"})
            list += (base + QLatin1String(path) + QLatin1Char('\n')).toUtf8();

        ui::MainWindow window;
        window.setConfirmationsEnabled(false);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        ui::LimitsPanel *panel = window.limitsPanel();
        panel->findChild<ui::SliderSpinBox *>(QStringLiteral("retries"))->setValue(0);
        panel->timeout()->setValue(1);
        panel->interval()->setValue(0);
        panel->perHostInFlight()->setValue(8);
        window.loadText(list, QStringLiteral("retry"));
        QSignalSpy finished(window.engine(), &crawl::CrawlEngine::finished);
        window.startCrawl();
        QVERIFY(finished.wait(20'000));
        const QHash<QString, Diagnosis> first = diagnoses(window);
        QCOMPARE(first.size(), 8);
        QCOMPARE(first[base + QStringLiteral("/gone?status=410")].status, 410);
        QCOMPARE(first[base + QStringLiteral("/stuck?hang=1")].outcome, crawl::Outcome::Timeout);
        QCOMPARE(first[base + QStringLiteral("/loop?loop=1")].outcome, crawl::Outcome::HttpError);
        QVERIFY(!first[base + QStringLiteral("/loop?loop=1")].error.isEmpty());

        // Retry everything, slowly, and stop at once: no row loses what it said.
        panel->perHostInFlight()->setValue(1);
        panel->interval()->setValue(5'000);
        QAction *retryAll = action(window, QStringLiteral("retryAll"));
        QVERIFY(retryAll);
        QVERIFY(retryAll->isEnabled());
        finished.clear();
        retryAll->trigger();
        QVERIFY(
            QTest::qWaitFor([&] { return window.engine()->state() == crawl::CrawlState::Running; }, 5'000));
        window.stopCrawl();
        QVERIFY(finished.wait(20'000));
        QTest::qWait(300); // any late batch of results would land now
        const QHash<QString, Diagnosis> afterStop = diagnoses(window);
        for (auto it = first.cbegin(); it != first.cend(); ++it) {
            const Diagnosis &now = afterStop.value(it.key());
            QVERIFY2(now == it.value(),
                     qPrintable(QStringLiteral("%1 is now %2 · %3 · attempts %4")
                                    .arg(it.key(), crawl::outcomeName(now.outcome), now.error)
                                    .arg(now.attempts)));
        }

        // The default retry (the toolbar button, Ctrl+R): transient failures only.
        panel->perHostInFlight()->setValue(8);
        panel->interval()->setValue(0);
        site.resetRecords();
        finished.clear();
        QAction *retryTransient = action(window, QStringLiteral("retryTransient"));
        QVERIFY(retryTransient);
        QCOMPARE(retryTransient->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_R));
        retryTransient->trigger();
        QVERIFY(finished.wait(20'000));
        QCOMPARE(pathsSeen(site, host), (QSet<QString>{QStringLiteral("/busy"), QStringLiteral("/throttled"),
                                                       QStringLiteral("/stuck")}));

        // Retry the selected row only, a permanent one: the user asked for it.
        QTableView *failures = window.failuresView();
        QAbstractItemModel *model = failures->model();
        int goneRow = -1;
        for (int row = 0; row < model->rowCount(); ++row) {
            if (model->index(row, ui::ResultsModel::UrlColumn)
                    .data()
                    .toString()
                    .endsWith(QStringLiteral("/gone?status=410")))
                goneRow = row;
        }
        QVERIFY(goneRow >= 0);
        failures->selectionModel()->select(model->index(goneRow, 0),
                                           QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        site.resetRecords();
        finished.clear();
        QAction *retrySelected = action(window, QStringLiteral("retrySelected"));
        QVERIFY(retrySelected);
        retrySelected->trigger();
        QVERIFY(finished.wait(20'000));
        QCOMPARE(pathsSeen(site, host), QSet<QString>{QStringLiteral("/gone")});
        QCOMPARE(diagnoses(window).value(base + QStringLiteral("/gone?status=410")).status, 410);
    }
};

QTEST_MAIN(TestRetry)
#include "tst_retry.moc"
