// The Request group of the Limits panel as a user fills it in: a user agent and extra headers typed while
// a crawl runs reach the test server on the requests that start afterwards; hostile text (a control
// character, a bad header name) is refused with a message and never sent; the values are remembered.
// The adaptive pace switch reaches the running crawl too.
#include "engine/crawlengine.h"
#include "freshsettings.h"
#include "mainwindow.h"
#include "models/hostsmodel.h"
#include "settings/requestheaders.h"
#include "testsite.h"
#include "widgets/limitspanel.h"
#include "widgets/sliderspinbox.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSettings>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

namespace {

bool showActive(ui::MainWindow &window) {
    window.setConfirmationsEnabled(false);
    window.show();
    window.activateWindow();
    return QTest::qWaitForWindowActive(&window);
}

void typeUserAgent(ui::LimitsPanel *panel, const QString &text) {
    QLineEdit *edit = panel->userAgent();
    edit->setFocus(Qt::MouseFocusReason);
    QTest::keyClick(edit, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClicks(edit, text);
    QTest::keyClick(edit, Qt::Key_Return);
}

void typeHeaders(ui::LimitsPanel *panel, const QString &text) {
    QPlainTextEdit *edit = panel->headers();
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

} // namespace

class TestRequestSettings : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { uitest::useFreshSettings(); }
    void init() { uitest::clearSettings(); }

    void parseHeaderLines() {
        auto parsed =
            ui::parseRequestHeaders(QStringLiteral("Accept-Language: de\r\n# a note\n\nX-Token:  a b \n"));
        QCOMPARE(parsed.error, QString());
        QCOMPARE(parsed.headers.size(), 2);
        QCOMPARE(parsed.headers[0].first, QByteArray("Accept-Language"));
        QCOMPARE(parsed.headers[1].second, QByteArray("a b"));
        // A name with a space, no colon, an empty name, a control character inside a value.
        for (const QString &bad :
             {QStringLiteral("Bad Name: x"), QStringLiteral("no colon"), QStringLiteral(": x"),
              QStringLiteral("X-A: a\rInjected: 1"), QStringLiteral("X-A: a\x01")}) {
            parsed = ui::parseRequestHeaders(QStringLiteral("Ok: 1\n") + bad);
            QVERIFY2(parsed.error.startsWith(QStringLiteral("Line 2")), qPrintable(bad));
            QVERIFY(parsed.headers.isEmpty()); // all or nothing: half a header set is never sent
        }
        QVERIFY(!ui::userAgentError(QStringLiteral("Bot/1\nX-Injected: 1")).isEmpty());
        QVERIFY(ui::userAgentError(QStringLiteral("Crawler/2.0 (+https://example.org)")).isEmpty());
        QCOMPARE(ui::headersText(ui::parseRequestHeaders(QStringLiteral("A: 1\nB: 2")).headers),
                 QStringLiteral("A: 1\nB: 2"));
    }

    void typedUserAgentAndHeadersReachTheRunningCrawl() {
        testsite::TestSite site;
        const QString host = site.addHost();
        QVERIFY(!host.isEmpty());
        ui::MainWindow window;
        QVERIFY(showActive(window));
        ui::LimitsPanel *panel = window.limitsPanel();
        panel->perHostInFlight()->setValue(1);
        panel->interval()->setValue(0);

        typeUserAgent(panel, QStringLiteral("FirstAgent/1.0"));
        QTRY_COMPARE(window.engine()->fetchPolicy().userAgent, QStringLiteral("FirstAgent/1.0"));
        window.loadText(site.urlList(host, 16, QStringLiteral("/p%1?ms=120")), QStringLiteral("ua"));
        QSignalSpy finished(window.engine(), &crawl::CrawlEngine::finished);
        window.startCrawl();
        QVERIFY(QTest::qWaitFor([&] { return site.totalRequests() >= 3; }, 10'000));

        // Mid-crawl: a new agent and two headers, typed.
        typeUserAgent(panel, QStringLiteral("SecondAgent/2.0"));
        typeHeaders(panel, QStringLiteral("X-Crawl-Test: hello there\nAccept-Language: de"));
        QVERIFY(finished.wait(30'000));

        const QList<testsite::RequestRecord> requests = site.requests(host);
        QCOMPARE(requests.size(), 16);
        QCOMPARE(requests.first().userAgent, QByteArray("FirstAgent/1.0"));
        QVERIFY(!requests.first().hasHeader("X-Crawl-Test"));
        QCOMPARE(requests.last().userAgent, QByteArray("SecondAgent/2.0"));
        QCOMPARE(requests.last().header("X-Crawl-Test"), QByteArray("hello there"));
        QCOMPARE(requests.last().header("Accept-Language"), QByteArray("de"));
        for (const testsite::RequestRecord &r : requests)
            QVERIFY(r.userAgent == "FirstAgent/1.0" || r.userAgent == "SecondAgent/2.0");

        // Remembered: a new window starts with them, and its engine sends them.
        QCOMPARE(QSettings().value(QStringLiteral("request/userAgent")).toString(),
                 QStringLiteral("SecondAgent/2.0"));
        ui::MainWindow again;
        QCOMPARE(again.limitsPanel()->userAgent()->text(), QStringLiteral("SecondAgent/2.0"));
        QCOMPARE(again.engine()->fetchPolicy().headers.size(), 2);
        QCOMPARE(again.engine()->fetchPolicy().headers[0].second, QByteArray("hello there"));
    }

    void hostileInputIsRefusedAndNeverSent() {
        testsite::TestSite site;
        const QString host = site.addHost();
        QVERIFY(!host.isEmpty());
        ui::MainWindow window;
        QVERIFY(showActive(window));
        ui::LimitsPanel *panel = window.limitsPanel();
        panel->interval()->setValue(0);
        typeHeaders(panel, QStringLiteral("X-Good: 1"));
        QTRY_COMPARE(window.engine()->fetchPolicy().headers.size(), 1);

        // A header name with a space: refused with the line named; the engine keeps the last valid set.
        typeHeaders(panel, QStringLiteral("X-Good: 1\nBad Name: 2"));
        QTRY_VERIFY(panel->requestError()->isVisible());
        QVERIFY2(panel->requestError()->text().contains(QStringLiteral("Line 2")),
                 qPrintable(panel->requestError()->text()));
        // A control character pasted into a value. (A pasted CR or LF becomes a visible new line in the
        // editor, so it is a second header line the user can see, never one hidden inside a value.)
        typeHeaders(panel, QString());
        QApplication::clipboard()->setText(QStringLiteral("X-Evil: a\x1b[2Jb"));
        QTest::keyClick(panel->headers(), Qt::Key_V, Qt::ControlModifier);
        QTRY_VERIFY(panel->requestError()->isVisible());
        QTest::qWait(700); // longer than the panel's pause before header lines apply
        QCOMPARE(window.engine()->fetchPolicy().headers.size(), 1);
        QCOMPARE(window.engine()->fetchPolicy().headers[0].first, QByteArray("X-Good"));
        // The same through the user agent field.
        QApplication::clipboard()->setText(QStringLiteral("Agent/1\nX-Injected: yes"));
        panel->userAgent()->setFocus(Qt::MouseFocusReason);
        QTest::keyClick(panel->userAgent(), Qt::Key_V, Qt::ControlModifier);
        QTest::keyClick(panel->userAgent(), Qt::Key_Return);

        window.loadText(site.urlList(host, 3, QStringLiteral("/h%1")), QStringLiteral("hostile"));
        QSignalSpy finished(window.engine(), &crawl::CrawlEngine::finished);
        window.startCrawl();
        QVERIFY(finished.wait(20'000));
        const QList<testsite::RequestRecord> requests = site.requests(host);
        QCOMPARE(requests.size(), 3);
        for (const testsite::RequestRecord &r : requests) {
            QVERIFY2(!r.hasHeader("Injected") && !r.hasHeader("X-Injected") && !r.hasHeader("X-Evil"),
                     r.head.constData());
            QCOMPARE(r.header("X-Good"), QByteArray("1"));
            QVERIFY(!r.userAgent.contains("Agent/1"));
        }
    }

    void adaptiveSwitchActsOnTheRunningCrawl() {
        testsite::TestSite site;
        const QString host = site.addHost();
        QVERIFY(!host.isEmpty());
        ui::MainWindow window;
        QVERIFY(showActive(window));
        ui::LimitsPanel *panel = window.limitsPanel();
        panel->perHostInFlight()->setValue(8);
        panel->interval()->setValue(0);
        panel->findChild<ui::SliderSpinBox *>(QStringLiteral("retries"))->setValue(0);
        QVERIFY(!panel->adaptive()->isChecked());
        // Every other URL answers 503: too few failures to trip the breaker, enough for adaptive pace.
        QByteArray list;
        for (int i = 0; i < 300; ++i)
            list += (site.baseUrl(host) +
                     (i % 2 ? QStringLiteral("/busy%1?status=503&ms=40") : QStringLiteral("/fine%1?ms=40"))
                         .arg(i) +
                     QLatin1Char('\n'))
                        .toUtf8();
        window.loadText(list, QStringLiteral("adaptive"));
        QSignalSpy finished(window.engine(), &crawl::CrawlEngine::finished);
        window.startCrawl();
        QVERIFY(QTest::qWaitFor([&] { return site.totalRequests() >= 20; }, 10'000));
        QVERIFY(!window.engine()->limits().adaptive);

        QTest::mouseClick(panel->adaptive(), Qt::LeftButton, Qt::NoModifier,
                          QPoint(8, panel->adaptive()->height() / 2));
        QVERIFY(panel->adaptive()->isChecked());
        QTRY_VERIFY(window.engine()->limits().adaptive);
        QCOMPARE(QSettings().value(QStringLiteral("limits/adaptive")).toBool(), true);
        // The hosts table shows the limit in force below the user's 8.
        ui::HostsModel *hosts = window.hostsModel();
        QTRY_VERIFY_WITH_TIMEOUT(hosts->rowCount() == 1 && hosts->index(0, ui::HostsModel::InFlightColumn)
                                                               .data()
                                                               .toString()
                                                               .contains(QStringLiteral("(of 8)")),
                                 15'000);
        window.stopCrawl();
        QVERIFY(finished.wait(10'000));
    }
};

QTEST_MAIN(TestRequestSettings)
#include "tst_requestsettings.moc"
