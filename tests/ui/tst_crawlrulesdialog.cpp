// Crawl > Crawl Rules as a user drives it: a robots mode, an exclude expression and an acceptance check
// typed into the dialog (a bad expression first: an inline error and no OK), then a crawl of the test
// site. The server saw robots.txt once and never the disallowed or excluded paths; the rows say
// blocked_robots / excluded with the rule, the soft 404 is accepted=no with its reason; the window's
// CSV carries the new columns; the acceptance filter shows one reject reason's rows; the hosts table
// shows the host's robots.txt status and yield; the throughput chart has its raw and accepted lines.
#include "charts/chartspanel.h"
#include "charts/timeserieschart.h"
#include "dialogs/crawlrulesdialog.h"
#include "engine/crawlengine.h"
#include "freshsettings.h"
#include "mainwindow.h"
#include "models/hostsmodel.h"
#include "models/resultsmodel.h"
#include "output/csvwriter.h"
#include "pages/crawlruleseditor.h"
#include "pages/resultspage.h"
#include "runwindow.h"
#include "testsite.h"
#include "widgets/limitspanel.h"
#include "widgets/sliderspinbox.h"

#include <QAction>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

namespace {

// RFC 4180 as the writer produces it: quoted fields may hold commas, quotes and line breaks.
QList<QStringList> parseCsv(const QString &text) {
    QList<QStringList> rows;
    QStringList row;
    QString field;
    bool quoted = false;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (quoted) {
            if (c == QLatin1Char('"') && i + 1 < text.size() && text[i + 1] == QLatin1Char('"')) {
                field += c;
                ++i;
            } else if (c == QLatin1Char('"')) {
                quoted = false;
            } else {
                field += c;
            }
        } else if (c == QLatin1Char('"')) {
            quoted = true;
        } else if (c == QLatin1Char(',')) {
            row.append(field);
            field.clear();
        } else if (c == QLatin1Char('\n')) {
            row.append(field);
            field.clear();
            rows.append(row);
            row.clear();
        } else if (c != QLatin1Char('\r')) {
            field += c;
        }
    }
    return rows;
}

int rowEndingWith(const QAbstractItemModel *model, const QString &suffix) {
    for (int row = 0; row < model->rowCount(); ++row) {
        if (model->index(row, ui::ResultsModel::UrlColumn).data().toString().endsWith(suffix))
            return row;
    }
    return -1;
}

QString cell(const QAbstractItemModel *model, int row, int column) {
    return model->index(row, column).data().toString();
}

void typeInto(QPlainTextEdit *edit, const QString &text) {
    edit->setFocus(Qt::MouseFocusReason);
    QTest::keyClick(edit, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClick(edit, Qt::Key_Delete);
    const QStringList lines = text.split(QLatin1Char('\n'));
    for (qsizetype i = 0; i < lines.size(); ++i) {
        if (i > 0)
            QTest::keyClick(edit, Qt::Key_Return);
        QTest::keyClicks(edit, lines[i]);
    }
}

void typeInto(QLineEdit *edit, const QString &text) {
    edit->setFocus(Qt::MouseFocusReason);
    QTest::keyClick(edit, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClicks(edit, text);
}

} // namespace

class TestCrawlRulesDialog : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { uitest::useFreshSettings(); }

    void rulesTypedInTheDialogGovernTheCrawl() {
        testsite::TestSite site;
        const QString host = site.addHost();
        QVERIFY(!host.isEmpty());
        QVERIFY(site.setRobotsTxt(host, testsite::RobotsTxt::text("User-agent: *\nDisallow: /private\n")));
        const QString base = site.baseUrl(host);
        QByteArray list;
        for (const char *path :
             {"/page1", "/private/secret", "/files/doc.pdf", "/missing?soft404=1", "/page2"})
            list += (base + QLatin1String(path) + QLatin1Char('\n')).toUtf8();

        ui::MainWindow window;
        window.setConfirmationsEnabled(false);
        window.limitsPanel()->findChild<ui::SliderSpinBox *>(QStringLiteral("retries"))->setValue(0);
        window.limitsPanel()->interval()->setValue(0);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));

        // Crawl > Crawl Rules… opens the dialog with the saved rules (the fixture's: robots.txt ignored).
        auto *open = window.findChild<QAction *>(QStringLiteral("crawlRules"));
        QVERIFY(open);
        QVERIFY2(!open->associatedObjects().isEmpty(), "the action is in a menu");
        open->trigger();
        ui::CrawlRulesDialog *dialog = window.crawlRules()->dialog();
        QVERIFY(dialog);
        QVERIFY(QTest::qWaitForWindowExposed(dialog));
        auto *robots = dialog->findChild<QComboBox *>(QStringLiteral("robotsMode"));
        auto *exclude = dialog->findChild<QPlainTextEdit *>(QStringLiteral("excludePatterns"));
        auto *expectText = dialog->findChild<QLineEdit *>(QStringLiteral("expectText"));
        auto *soft404 = dialog->findChild<QComboBox *>(QStringLiteral("soft404Mode"));
        auto *error = dialog->findChild<QLabel *>(QStringLiteral("crawlRulesError"));
        QPushButton *ok = dialog->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok);
        QVERIFY(robots && exclude && expectText && soft404 && error && ok);
        QCOMPARE(robots->currentText(), QStringLiteral("ignore"));

        robots->setFocus(Qt::TabFocusReason);
        QTest::keyClick(robots, Qt::Key_Home); // the first mode: obey
        QCOMPARE(robots->currentText(), QStringLiteral("obey"));
        // A bad expression is a clear inline error, and OK stays disabled: nothing is dropped silently.
        typeInto(exclude, QStringLiteral("\\.pdf$\n[docs"));
        QVERIFY2(error->isVisible() && error->text().contains(QStringLiteral("Exclude, line 2")),
                 qPrintable(error->text()));
        QVERIFY(!ok->isEnabled());
        typeInto(exclude, QStringLiteral("\\.pdf$"));
        QCOMPARE(error->text(), QString());
        QVERIFY(ok->isEnabled());
        // An acceptance check: every good page of the test site says this; its error template does not.
        typeInto(expectText, QStringLiteral("Crawlscope test page"));
        soft404->setFocus(Qt::TabFocusReason);
        QTest::keyClick(soft404, Qt::Key_End); // reject
        QCOMPARE(soft404->currentText(), QStringLiteral("reject"));
        QTest::mouseClick(ok, Qt::LeftButton);
        QTRY_VERIFY(!window.crawlRules()->dialog());
        // Remembered: the settings hold what was typed.
        QCOMPARE(QSettings().value(QStringLiteral("crawlRules/robots")).toString(), QStringLiteral("obey"));
        QCOMPARE(QSettings().value(QStringLiteral("crawlRules/exclude")).toString(),
                 QStringLiteral("\\.pdf$"));

        window.loadText(list, QStringLiteral("rules"));
        QSignalSpy finished(window.engine(), &crawl::CrawlEngine::finished);
        window.startCrawl();
        QVERIFY(finished.wait(30'000));
        QCOMPARE(window.resultsModel()->rowCount(), 5);

        // What the server saw: robots.txt once, then only the allowed, in-scope pages.
        QStringList targets;
        for (const testsite::RequestRecord &r : site.requests(host))
            targets.append(r.target);
        QCOMPARE(int(targets.count(QStringLiteral("/robots.txt"))), 1);
        QCOMPARE(int(targets.count(QStringLiteral("/private/secret"))), 0);
        QCOMPARE(int(targets.count(QStringLiteral("/files/doc.pdf"))), 0);
        QCOMPARE(int(targets.size()), 4); // robots.txt, page1, the soft 404, page2
        QCOMPARE(targets.first(), QStringLiteral("/robots.txt"));

        const ui::ResultsModel *model = window.resultsModel();
        const int blocked = rowEndingWith(model, QStringLiteral("/private/secret"));
        const int excluded = rowEndingWith(model, QStringLiteral("/files/doc.pdf"));
        const int softRow = rowEndingWith(model, QStringLiteral("/missing?soft404=1"));
        const int page = rowEndingWith(model, QStringLiteral("/page1"));
        QVERIFY(blocked >= 0 && excluded >= 0 && softRow >= 0 && page >= 0);
        QCOMPARE(cell(model, blocked, ui::ResultsModel::OutcomeColumn), QStringLiteral("blocked_robots"));
        QCOMPARE(cell(model, blocked, ui::ResultsModel::ErrorColumn),
                 QStringLiteral("Disallow: /private (robots.txt line 2)"));
        QCOMPARE(cell(model, excluded, ui::ResultsModel::OutcomeColumn), QStringLiteral("excluded"));
        QVERIFY2(cell(model, excluded, ui::ResultsModel::ErrorColumn).contains(QStringLiteral("\\.pdf$")),
                 qPrintable(cell(model, excluded, ui::ResultsModel::ErrorColumn)));
        // The soft 404 is a 200 (the outcome stays ok) that the checks rejected, with the reasons.
        QCOMPARE(cell(model, softRow, ui::ResultsModel::OutcomeColumn), QStringLiteral("ok"));
        QCOMPARE(cell(model, softRow, ui::ResultsModel::AcceptedColumn), QStringLiteral("no"));
        const QString reason = cell(model, softRow, ui::ResultsModel::RejectReasonColumn);
        QVERIFY2(reason.contains(QStringLiteral("soft 404")) &&
                     reason.contains(QStringLiteral("\"Crawlscope test page\"")),
                 qPrintable(reason));
        QCOMPARE(cell(model, softRow, ui::ResultsModel::TitleColumn), QStringLiteral("Page not found"));
        QCOMPARE(cell(model, page, ui::ResultsModel::AcceptedColumn), QStringLiteral("yes"));
        QCOMPARE(cell(model, page, ui::ResultsModel::TitleColumn),
                 QStringLiteral("Crawlscope test page /page1"));

        // The hosts table: the robots.txt status, the yield (2 of 3 ok pages accepted), the 429 rate.
        ui::HostsModel *hosts = window.hostsModel();
        const int hostRow = hosts->rowForHost(host);
        QVERIFY(hostRow >= 0);
        QVERIFY2(!hosts->index(hostRow, ui::HostsModel::RobotsColumn).data().toString().isEmpty(),
                 "the robots.txt status is shown");
        QCOMPARE(hosts->index(hostRow, ui::HostsModel::YieldColumn).data().toString(),
                 QStringLiteral("67 %"));
        QCOMPARE(hosts->index(hostRow, ui::HostsModel::Rate429Column).data().toString(),
                 QStringLiteral("0 %"));
        QCOMPARE(hosts->host(hostRow).responses,
                 qint64(4)); // as many as the server answered, robots.txt included

        // The throughput chart's legend names the raw and the accepted line.
        ui::TimeSeriesChart *throughput = window.chartsPanel()->throughputChart();
        QCOMPARE(throughput->seriesCount(), 4);
        window.chartsPanel()->flush();
        QCOMPARE(throughput->lineName(2), QStringLiteral("raw ok/s"));
        QCOMPARE(throughput->lineName(3), QStringLiteral("accepted/s"));

        // The window's CSV: the command line's columns, the acceptance ones last.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("all.csv"));
        QSignalSpy exported(&window, &ui::MainWindow::exportFinished);
        QVERIFY(window.exportCsv(path, false));
        QVERIFY(exported.wait(10'000));
        QVERIFY(exported.first().at(0).toBool());
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QList<QStringList> csv = parseCsv(QString::fromUtf8(file.readAll()));
        QCOMPARE(int(csv.size()), 6);
        QCOMPARE(csv.first(), crawl::resultCsvColumns());
        const QStringList header = csv.first();
        const qsizetype accepted = header.indexOf(QStringLiteral("accepted"));
        QCOMPARE(header.mid(accepted),
                 (QStringList{QStringLiteral("accepted"), QStringLiteral("reject_reason"),
                              QStringLiteral("title")}));
        bool sawSoft = false;
        for (const QStringList &row : csv.mid(1)) {
            if (!row.first().endsWith(QStringLiteral("/missing?soft404=1")))
                continue;
            sawSoft = true;
            QCOMPARE(row.at(accepted), QStringLiteral("no"));
            QCOMPARE(row.at(accepted + 1), reason);
            QCOMPARE(row.at(accepted + 2), QStringLiteral("Page not found"));
        }
        QVERIFY(sawSoft);

        // The Results tab's acceptance filter: only the rows the soft-404 check rejected.
        window.tabs()->setCurrentWidget(window.resultsPage());
        auto *button = window.findChild<QToolButton *>(QStringLiteral("resultsAcceptance"));
        QVERIFY(button && button->menu());
        QMenu *menu = button->menu();
        menu->popup(button->mapToGlobal(QPoint(0, button->height())));
        QTRY_VERIFY(menu->isVisible());
        QAction *softOnly = nullptr;
        QAction *rejected = nullptr;
        const QList<QAction *> actions = menu->actions();
        for (QAction *a : actions) {
            if (a->text().startsWith(QStringLiteral("soft 404 ")))
                softOnly = a;
            if (a->text().startsWith(QStringLiteral("rejected ")))
                rejected = a;
        }
        QVERIFY(softOnly && rejected);
        QCOMPARE(softOnly->text(), QStringLiteral("soft 404 (1)"));
        QCOMPARE(rejected->text(), QStringLiteral("rejected (1)"));
        QTest::mouseClick(menu, Qt::LeftButton, Qt::NoModifier, menu->actionGeometry(softOnly).center());
        QAbstractItemModel *view = window.resultsView()->model();
        QCOMPARE(view->rowCount(), 1);
        QVERIFY(cell(view, 0, ui::ResultsModel::UrlColumn).endsWith(QStringLiteral("/missing?soft404=1")));
        QVERIFY2(button->text().contains(QStringLiteral("soft 404")), qPrintable(button->text()));
    }

    // `crawlscope urls.txt --robots ignore --exclude /skip`: this session crawls with the command line's
    // rules over the saved ones (which obey robots.txt); OK in the dialog hands the crawl back to them.
    void commandLineRulesApplyForTheSession() {
        uitest::clearSettings();
        QSettings().setValue(QStringLiteral("crawlRules/robots"), QStringLiteral("obey"));
        testsite::TestSite site;
        const QString host = site.addHost();
        QVERIFY(!host.isEmpty());
        const QString base = site.baseUrl(host);
        const QByteArray list = (base + QStringLiteral("/a\n") + base + QStringLiteral("/skip/b\n")).toUtf8();

        ui::MainWindow window;
        window.setConfirmationsEnabled(false);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        ui::WindowStart start;
        crawl::CrawlQuality given;
        given.robots = crawl::RobotsMode::Ignore;
        QCOMPARE(given.scope.addExclude(QStringLiteral("/skip")), QString());
        start.quality = given;
        ui::applyWindowStart(window, start);
        QVERIFY(window.crawlRules()->hasSessionQuality());

        QSignalSpy finished(window.engine(), &crawl::CrawlEngine::finished);
        window.loadText(list, QStringLiteral("session"));
        window.startCrawl();
        QVERIFY(finished.wait(20'000));
        QStringList targets;
        for (const testsite::RequestRecord &r : site.requests(host))
            targets.append(r.target);
        QCOMPARE(targets, QStringList{QStringLiteral("/a")}); // no robots.txt, /skip/b excluded
        const int skipped = rowEndingWith(window.resultsModel(), QStringLiteral("/skip/b"));
        QCOMPARE(cell(window.resultsModel(), skipped, ui::ResultsModel::OutcomeColumn),
                 QStringLiteral("excluded"));
        // Not saved: the settings still hold the user's rules.
        QCOMPARE(QSettings().value(QStringLiteral("crawlRules/robots")).toString(), QStringLiteral("obey"));

        // The dialog says so; OK hands the crawl back to the rules it shows (robots.txt obeyed).
        window.crawlRules()->action()->trigger();
        ui::CrawlRulesDialog *dialog = window.crawlRules()->dialog();
        QVERIFY(dialog);
        QVERIFY(dialog->findChild<QLabel *>(QStringLiteral("crawlRulesNote"))->isVisibleTo(dialog));
        QTest::mouseClick(dialog->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok),
                          Qt::LeftButton);
        QTRY_VERIFY(!window.crawlRules()->dialog());
        QVERIFY(!window.crawlRules()->hasSessionQuality());
        site.resetRecords();
        finished.clear();
        window.startCrawl();
        QVERIFY(finished.wait(20'000));
        targets.clear();
        for (const testsite::RequestRecord &r : site.requests(host))
            targets.append(r.target);
        QCOMPARE(int(targets.count(QStringLiteral("/robots.txt"))), 1);
        QCOMPARE(int(targets.count(QStringLiteral("/skip/b"))), 1);
        uitest::clearSettings();
    }

    // Rules that no longer parse (a settings file edited by hand) stop the start with the reason: a crawl
    // never runs with a rule silently left out.
    void badSavedRulesRefuseToStart() {
        uitest::clearSettings();
        QSettings().setValue(QStringLiteral("crawlRules/exclude"), QStringLiteral("[broken"));
        testsite::TestSite site;
        const QString host = site.addHost();
        QVERIFY(!host.isEmpty());
        ui::MainWindow window;
        window.setConfirmationsEnabled(false);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.loadText((site.baseUrl(host) + QStringLiteral("/a\n")).toUtf8(), QStringLiteral("bad rules"));
        window.startCrawl();
        QCOMPARE(window.engine()->state(), crawl::CrawlState::Idle);
        QVERIFY2(
            window.statusBar()->currentMessage().contains(QStringLiteral("Crawl rules: Exclude, line 1")),
            qPrintable(window.statusBar()->currentMessage()));
        QCOMPARE(int(site.requests(host).size()), 0);
        uitest::clearSettings();
    }
};

QTEST_MAIN(TestCrawlRulesDialog)
#include "tst_crawlrulesdialog.moc"
