// The decisions behind the results tables' filters and row actions, as pure values: which statuses and
// hosts a filter shows (also for rows that arrive later), the counts beside the choices, the text a copied
// row becomes, which URLs may reach the browser, and the theme's contrast arithmetic.
#include "model/crawlresult.h"
#include "models/hostfilter.h"
#include "models/resultfacets.h"
#include "models/resultstore.h"
#include "models/rowclipboard.h"
#include "models/statusfilter.h"
#include "settings/windowtheme.h"

#include <QTest>
#include <QUrl>

namespace {

crawl::CrawlResult result(const QString &url, const QString &host, int status, crawl::Outcome outcome) {
    crawl::CrawlResult r;
    r.url = url;
    r.host = host;
    r.status = status;
    r.outcome = outcome;
    return r;
}

} // namespace

class TestResultFilters : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void statusFilter() {
        ui::StatusFilter filter;
        QVERIFY(filter.showsAll());
        filter.setCode(404, false);
        QVERIFY(!filter.accepts(404));
        QVERIFY(filter.accepts(410));
        QCOMPARE(filter.classState(4), ui::StatusFilter::ClassState::Partly);
        // Unticking a class hides its codes, also one no row has had yet (a 418 arriving later).
        filter.setClass(4, false);
        QVERIFY(!filter.accepts(418) && !filter.accepts(499) && filter.accepts(500) && filter.accepts(399));
        QCOMPARE(filter.classState(4), ui::StatusFilter::ClassState::Hidden);
        filter.setClass(ui::StatusFilter::kNoResponseClass, false);
        QVERIFY(!filter.accepts(0) && filter.accepts(200));
        // Odd statuses a server may send still belong somewhere, and never index out of range.
        QCOMPARE(ui::StatusFilter::classOf(99), 1);
        QCOMPARE(ui::StatusFilter::classOf(999), 5);
        QCOMPARE(ui::StatusFilter::classOf(65535), 5);
        filter.setClass(5, false);
        QVERIFY(!filter.accepts(999) && !filter.accepts(65535) && !filter.accepts(-1));
        filter.showAll();
        QVERIFY(filter.showsAll() && filter == ui::StatusFilter{});
        QCOMPARE(ui::StatusFilter::className(0), QStringLiteral("no response"));
        QCOMPARE(ui::StatusFilter::className(3), QStringLiteral("3xx"));
    }

    void hostFilter() {
        ui::HostFilter everyBut;
        everyBut.setShown(QStringLiteral("a:80"), false);
        QVERIFY(!everyBut.accepts(QStringLiteral("a:80")));
        QVERIFY(everyBut.accepts(QStringLiteral("later:80"))); // a host seen later still shows
        everyBut.setShown(QStringLiteral("a:80"), true);
        QVERIFY(everyBut.showsAll());

        ui::HostFilter only;
        only.showOnly({QStringLiteral("a:80")});
        QVERIFY(only.accepts(QStringLiteral("a:80")));
        QVERIFY(!only.accepts(QStringLiteral("later:80"))); // "only a" keeps meaning only a
        only.setShown(QStringLiteral("b:80"), true);
        QVERIFY(only.accepts(QStringLiteral("b:80")));
        QVERIFY(!only.showsAll());
    }

    void facetsCountRowsOnce() {
        ui::ResultStore store;
        store.append(result(QStringLiteral("http://a/1"), QStringLiteral("a:80"), 200, crawl::Outcome::Ok));
        store.append(
            result(QStringLiteral("http://a/2"), QStringLiteral("a:80"), 404, crawl::Outcome::HttpError));
        store.append(
            result(QStringLiteral("http://b/1"), QStringLiteral("b:80"), 404, crawl::Outcome::HttpError));
        store.append(
            result(QStringLiteral("http://b/2"), QStringLiteral("b:80"), 0, crawl::Outcome::Timeout));
        store.append(result(QStringLiteral("http://b/3"), QStringLiteral("b:80"), 200, crawl::Outcome::Ok));
        const ui::ResultFacets all = ui::ResultFacets::count(store, false);
        QCOMPARE(all.rows, 5);
        QCOMPARE(all.statuses.value(200), 2);
        QCOMPARE(all.statuses.value(404), 2);
        QCOMPARE(all.statuses.value(0), 1);
        QCOMPARE(all.hosts.size(), 2);
        QCOMPARE(all.hosts.first(), (QPair<QString, qint64>{QStringLiteral("b:80"), 3})); // busiest first
        const ui::ResultFacets failures = ui::ResultFacets::count(store, true);
        QCOMPARE(failures.rows, 3);
        QVERIFY(!failures.statuses.contains(200));
        QCOMPARE(failures.hosts.first().second, 2);
    }

    void copiedRowsAndBrowsableUrls() {
        QCOMPARE(ui::tsvLine({QStringLiteral("http://a/"), QStringLiteral("line\none\ttab\r")}),
                 QStringLiteral("http://a/\tline one tab "));
        QVERIFY(ui::opensInBrowser(QUrl(QStringLiteral("http://127.0.0.1:8080/x?y=1"))));
        QVERIFY(ui::opensInBrowser(QUrl(QStringLiteral("HTTPS://Example.org/"))));
        for (const char *bad : {"javascript:alert(1)", "file:///etc/passwd", "ftp://example.org/",
                                "http:///nohost", "mailto:a@example.org", "x-custom://open/app", ""})
            QVERIFY2(!ui::opensInBrowser(QUrl(QString::fromLatin1(bad), QUrl::StrictMode)), bad);
    }

    void themes() {
        QCOMPARE(ui::themeFromName(QStringLiteral("dark")), ui::WindowTheme::Dark);
        QCOMPARE(ui::themeFromName(QStringLiteral("solarized")), ui::WindowTheme::System); // unknown: system
        QCOMPARE(ui::themeName(ui::WindowTheme::Light), QStringLiteral("light"));
        QVERIFY(qAbs(ui::contrastRatio(Qt::black, Qt::white) - 21.0) < 0.01);
        QVERIFY(qAbs(ui::contrastRatio(Qt::red, Qt::red) - 1.0) < 0.01);
        QVERIFY(ui::isDarkPalette(ui::darkPalette()));
        QVERIFY(!ui::isDarkPalette(ui::lightPalette()));
        for (const QPalette &p : {ui::darkPalette(), ui::lightPalette()}) {
            QVERIFY(ui::contrastRatio(p.color(QPalette::Text), p.color(QPalette::Base)) >= 7.0);
            QVERIFY(ui::contrastRatio(p.color(QPalette::WindowText), p.color(QPalette::Window)) >= 7.0);
            QVERIFY(ui::contrastRatio(p.color(QPalette::HighlightedText), p.color(QPalette::Highlight)) >=
                    3.0);
        }
    }
};

QTEST_MAIN(TestResultFilters)
#include "tst_resultfilters.moc"
