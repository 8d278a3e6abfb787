// View > Theme > System while the desktop changes its colour scheme with the window open: Qt 6.4 tells
// a running application by a new application palette (ApplicationPaletteChange) or by ThemeChange; the
// charts and the results table follow either way, and a theme the user chose stays.
#include "charts/chartspanel.h"
#include "charts/timeserieschart.h"
#include "freshsettings.h"
#include "mainwindow.h"
#include "model/crawlresult.h"
#include "models/resultsmodel.h"
#include "pages/thememenu.h"
#include "settings/windowtheme.h"

#include <QApplication>
#include <QChart>
#include <QTableView>
#include <QTest>
#include <QWindow>

namespace {

crawl::CrawlResult makeResult(quint64 id, crawl::Outcome outcome) {
    crawl::CrawlResult r;
    r.id = id;
    r.lineNumber = qint64(id) + 1;
    r.url = QStringLiteral("http://127.0.0.1:8080/p%1").arg(id);
    r.host = QStringLiteral("127.0.0.1:8080");
    r.outcome = outcome;
    r.status = outcome == crawl::Outcome::Ok ? 200 : 404;
    r.attempts = 1;
    return r;
}

// The Outcome cell's text colour of `row` as the table paints it, against the table's own base.
double outcomeContrast(const ui::MainWindow &window, int row) {
    QTableView *view = window.resultsView();
    const QModelIndex index = view->model()->index(row, ui::ResultsModel::OutcomeColumn);
    const QColor text = index.data(Qt::ForegroundRole).value<QBrush>().color();
    return ui::contrastRatio(text, view->palette().color(QPalette::Base));
}

QColor chartBackground(const ui::MainWindow &window) {
    return window.chartsPanel()->latencyChart()->chart()->backgroundBrush().color();
}

} // namespace

class TestSystemTheme : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { uitest::useFreshSettings(); }

    void outcomeColoursReadableOnBothPalettes() {
        for (const QPalette &palette : {ui::lightPalette(), ui::darkPalette()}) {
            for (int o = 0; o < crawl::kOutcomeCount; ++o) {
                const QColor c = ui::outcomeColor(crawl::Outcome(o), palette);
                QVERIFY2(ui::contrastRatio(c, palette.color(QPalette::Base)) >= 4.5,
                         qPrintable(QStringLiteral("outcome %1 on %2").arg(o).arg(c.name())));
            }
        }
        QVERIFY(ui::outcomeColor(crawl::Outcome::Ok, ui::lightPalette()) !=
                ui::outcomeColor(crawl::Outcome::Ok, ui::darkPalette()));
    }

    void systemFollowsTheDesktop() {
        const QPalette desktop = QApplication::palette(); // the platform's own (light on offscreen)
        QVERIFY(!ui::isDarkPalette(desktop));
        ui::MainWindow window;
        window.setConfirmationsEnabled(false);
        window.resize(1200, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.themeMenu()->actionFor(ui::WindowTheme::System)->isChecked());
        window.resultsModel()->addResults({makeResult(0, crawl::Outcome::Ok),
                                           makeResult(1, crawl::Outcome::HttpError),
                                           makeResult(2, crawl::Outcome::Cancelled)});
        QTRY_VERIFY(chartBackground(window).lightnessF() > 0.8);
        for (int row = 0; row < 3; ++row)
            QVERIFY(outcomeContrast(window, row) >= 4.5);
        const QColor lightOk = window.resultsView()
                                   ->model()
                                   ->index(0, ui::ResultsModel::OutcomeColumn)
                                   .data(Qt::ForegroundRole)
                                   .value<QBrush>()
                                   .color();

        // The desktop turns dark and Qt hands the application its new palette: every widget gets
        // ApplicationPaletteChange. The charts and the table's outcome colours follow.
        QApplication::setPalette(ui::darkPalette());
        QTRY_VERIFY(chartBackground(window).lightnessF() < 0.3);
        QVERIFY(ui::isDarkPalette(window.resultsView()->palette()));
        for (int row = 0; row < 3; ++row)
            QVERIFY(outcomeContrast(window, row) >= 4.5);
        QVERIFY(window.resultsView()
                    ->model()
                    ->index(0, ui::ResultsModel::OutcomeColumn)
                    .data(Qt::ForegroundRole)
                    .value<QBrush>()
                    .color() != lightOk);
        QVERIFY(window.themeMenu()->actionFor(ui::WindowTheme::System)->isChecked());

        // The desktop changes back and Qt says so with ThemeChange to the window: in System the window
        // takes the desktop's palette again, and the charts and the table follow.
        QEvent themeChange(QEvent::ThemeChange);
        QCoreApplication::sendEvent(window.windowHandle(), &themeChange);
        QTRY_COMPARE(QApplication::palette().color(QPalette::Base), desktop.color(QPalette::Base));
        QTRY_VERIFY(chartBackground(window).lightnessF() > 0.8);
        QVERIFY(!ui::isDarkPalette(window.resultsView()->palette()));
        for (int row = 0; row < 3; ++row)
            QVERIFY(outcomeContrast(window, row) >= 4.5);

        // A theme the user chose is theirs: a desktop change leaves Dark alone.
        window.themeMenu()->setTheme(ui::WindowTheme::Dark);
        QTRY_VERIFY(chartBackground(window).lightnessF() < 0.3);
        QCoreApplication::sendEvent(window.windowHandle(), &themeChange);
        for (int turn = 0; turn < 5; ++turn) // the turns a re-read would have come on
            QCoreApplication::processEvents();
        QVERIFY(ui::isDarkPalette(QApplication::palette()));
        QVERIFY(chartBackground(window).lightnessF() < 0.3);

        window.themeMenu()->setTheme(ui::WindowTheme::System);
        QCOMPARE(QApplication::palette().color(QPalette::Base), desktop.color(QPalette::Base));
    }
};

QTEST_MAIN(TestSystemTheme)
#include "tst_systemtheme.moc"
