// Acceptance checks apart from the transport outcome: status list, content types, expected text and regex
// in the decoded prefix, a non-empty title, a minimum size, soft 404s (reported or rejected), combined.
#include "policy/acceptancecheck.h"

#include <QTest>

using namespace crawl;
using Accepted = AcceptanceVerdict::Accepted;

namespace {

AcceptanceFacts htmlResponse(int status, const QByteArray &body,
                             const QByteArray &type = "text/html; charset=utf-8") {
    AcceptanceFacts facts;
    facts.status = status;
    facts.contentType = type;
    facts.bodyPrefix = body;
    facts.totalBytes = body.size();
    facts.page = extractHtmlPageFacts(body, type);
    return facts;
}

const QByteArray goodPage = "<html><head><title>Product 42</title></head><body><h1>Product 42</h1>"
                            "<div class=\"price\">12,00 \xE2\x82\xAC</div></body></html>";

} // namespace

class TestAcceptanceCheck : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void defaultsAcceptAny2xx() {
        const AcceptanceCriteria criteria;
        QCOMPARE(checkAcceptance(criteria, htmlResponse(200, goodPage)).accepted, Accepted::Yes);
        QCOMPARE(checkAcceptance(criteria, htmlResponse(204, {})).accepted, Accepted::Yes);
        const AcceptanceVerdict notFound = checkAcceptance(criteria, htmlResponse(404, goodPage));
        QCOMPARE(notFound.accepted, Accepted::No);
        QCOMPARE(notFound.reason, u"status 404 not in 200-299"_qs);
        QCOMPARE(acceptedCell(notFound.accepted), u"no"_qs);
    }

    void noResponseIsNotApplicable() {
        const AcceptanceVerdict verdict = checkAcceptance(AcceptanceCriteria{}, AcceptanceFacts{});
        QCOMPARE(verdict.accepted, Accepted::NotApplicable);
        QVERIFY(verdict.reason.isEmpty());
        QCOMPARE(acceptedCell(verdict.accepted), QString());
        QCOMPARE(acceptedCell(Accepted::Yes), u"yes"_qs);
    }

    void statusList() {
        QString error;
        const auto list = parseStatusList(u"200-299, 304,410"_qs, &error);
        QVERIFY2(list.has_value(), qPrintable(error));
        QCOMPARE(*list, (QList<StatusRange>{{200, 299}, {304, 304}, {410, 410}}));
        QCOMPARE(statusListText(*list), u"200-299,304,410"_qs);
        AcceptanceCriteria criteria;
        criteria.statuses = *list;
        QCOMPARE(checkAcceptance(criteria, htmlResponse(304, {})).accepted, Accepted::Yes);
        QCOMPARE(checkAcceptance(criteria, htmlResponse(410, {})).accepted, Accepted::Yes);
        QCOMPARE(checkAcceptance(criteria, htmlResponse(301, {})).reason,
                 u"status 301 not in 200-299,304,410"_qs);
        for (const QString &bad : {u"2x0"_qs, u"299-200"_qs, u"99"_qs, u"600"_qs, u""_qs, u"200,"_qs,
                                   u"200-"_qs, u"1-2-3"_qs, u"+200"_qs, u"0200"_qs}) {
            QVERIFY2(!parseStatusList(bad, &error).has_value(), qPrintable(bad));
            QVERIFY(error.contains(u"is not an HTTP status"_qs));
        }
        parseStatusList(u"200,2x0"_qs, &error);
        QCOMPARE(error, u"\"2x0\" is not an HTTP status (100-599) or a range like 200-299"_qs);
    }

    void contentTypes() {
        QString error;
        const auto types =
            parseContentTypeList(u"Text/HTML; charset=utf-8, application/json ,image/*"_qs, &error);
        QVERIFY2(types.has_value(), qPrintable(error));
        QCOMPARE(*types, (QList<QByteArray>{"text/html", "application/json", "image/*"}));
        AcceptanceCriteria criteria;
        criteria.contentTypes = *types;
        QCOMPARE(checkAcceptance(criteria, htmlResponse(200, goodPage, "TEXT/HTML;charset=UTF-8")).accepted,
                 Accepted::Yes);
        QCOMPARE(checkAcceptance(criteria, htmlResponse(200, "{}", "application/json")).accepted,
                 Accepted::Yes);
        QCOMPARE(checkAcceptance(criteria, htmlResponse(200, "x", "image/png")).accepted, Accepted::Yes);
        QCOMPARE(checkAcceptance(criteria, htmlResponse(200, "x", "text/plain")).reason,
                 u"content type \"text/plain\" not in text/html,application/json,image/*"_qs);
        QCOMPARE(checkAcceptance(criteria, htmlResponse(200, "x", "")).reason,
                 u"no content type (expected text/html,application/json,image/*)"_qs);
        for (const QString &bad : {u"html"_qs, u"text/"_qs, u"*/*"_qs, u"text/html,"_qs, u"te xt/html"_qs})
            QVERIFY2(!parseContentTypeList(bad, &error).has_value(), qPrintable(bad));
    }

    void expectedTextAndRegex() {
        AcceptanceCriteria criteria;
        criteria.expectedText = QString::fromUtf8("12,00 \xE2\x82\xAC");
        criteria.expectedRegex = QRegularExpression(u"class=\"price\">\\d+"_qs);
        QCOMPARE(checkAcceptance(criteria, htmlResponse(200, goodPage)).accepted, Accepted::Yes);
        const AcceptanceVerdict verdict = checkAcceptance(criteria, htmlResponse(200, "<title>Oops</title>"));
        QCOMPARE(verdict.accepted, Accepted::No);
        QCOMPARE(verdict.reason,
                 QString::fromUtf8("text \"12,00 \xE2\x82\xAC\" not in the first 256 KiB; regex "
                                   "\"class=\"price\">\\d+\" matched nothing in the first 256 KiB"));
    }

    void textIsSearchedInThePrefixOnly() {
        AcceptanceCriteria criteria;
        criteria.expectedText = u"MARKER"_qs;
        criteria.bodyPrefixBytes = 1024;
        const QByteArray early = "MARKER" + QByteArray(5000, ' ');
        const QByteArray late = QByteArray(1020, ' ') + "MARKER";
        QCOMPARE(checkAcceptance(criteria, htmlResponse(200, early)).accepted, Accepted::Yes);
        const AcceptanceVerdict verdict = checkAcceptance(criteria, htmlResponse(200, late));
        QCOMPARE(verdict.reason, u"text \"MARKER\" not in the first 1 KiB"_qs);
    }

    void textInLatin1Body() {
        AcceptanceCriteria criteria;
        criteria.expectedText = QString::fromUtf8("Caf\xC3\xA9");
        const QByteArray body = "<meta charset=iso-8859-1><p>Caf\xE9</p>";
        QCOMPARE(checkAcceptance(criteria, htmlResponse(200, body, "text/html")).accepted, Accepted::Yes);
        AcceptanceFacts plain; // not HTML: the Content-Type's charset decides
        plain.status = 200;
        plain.contentType = "text/plain; charset=ISO-8859-1";
        plain.bodyPrefix = "Caf\xE9";
        QCOMPARE(checkAcceptance(criteria, plain).accepted, Accepted::Yes);
    }

    void titleAndMinimumSize() {
        AcceptanceCriteria criteria;
        criteria.expectTitle = true;
        criteria.minBytes = 50;
        QCOMPARE(checkAcceptance(criteria, htmlResponse(200, goodPage)).accepted, Accepted::Yes);
        QCOMPARE(
            checkAcceptance(criteria, htmlResponse(200, "<title> </title>" + QByteArray(60, ' '))).reason,
            u"empty HTML title"_qs);
        QCOMPARE(checkAcceptance(criteria, htmlResponse(200, "<p>short</p>")).reason,
                 u"12 bytes, fewer than the minimum 50; no HTML title"_qs);
    }

    void soft404IsReportedByDefault_data() {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("evidence");
        QTest::newRow("title") << QByteArray("<title>Page Not Found - Shop</title>")
                               << u"title \"Page Not Found - Shop\""_qs;
        QTest::newRow("404 in title") << QByteArray("<title>404</title>") << u"title \"404\""_qs;
        QTest::newRow("error") << QByteArray("<title>Error | Example</title>")
                               << u"title \"Error | Example\""_qs;
        QTest::newRow("heading") << QByteArray(
                                        "<title>Example</title><h1>Sorry, this page does not exist</h1>")
                                 << u"heading \"Sorry, this page does not exist\""_qs;
        QTest::newRow("fine page") << goodPage << QString();
        QTest::newRow("words inside words")
            << QByteArray("<title>Errors-free terrorism studies 14040</title>") << QString();
    }
    void soft404IsReportedByDefault() {
        QFETCH(QByteArray, body);
        QFETCH(QString, evidence);
        const AcceptanceVerdict verdict = checkAcceptance(AcceptanceCriteria{}, htmlResponse(200, body));
        QCOMPARE(verdict.accepted, Accepted::Yes); // report-only
        QVERIFY(verdict.reason.isEmpty());
        QCOMPARE(verdict.soft404, !evidence.isEmpty());
        QCOMPARE(verdict.soft404Evidence, evidence);
    }

    void soft404ModesAndStatus() {
        AcceptanceCriteria criteria;
        criteria.soft404 = Soft404Mode::Reject;
        const QByteArray page = "<title>Page not found</title>";
        const AcceptanceVerdict rejected = checkAcceptance(criteria, htmlResponse(200, page));
        QCOMPARE(rejected.accepted, Accepted::No);
        QCOMPARE(rejected.reason, u"soft 404: title \"Page not found\""_qs);
        // A real 404 is not a soft one.
        criteria.statuses = {{200, 299}, {404, 404}};
        QVERIFY(!checkAcceptance(criteria, htmlResponse(404, page)).soft404);
        criteria.soft404 = Soft404Mode::Off;
        QVERIFY(!checkAcceptance(criteria, htmlResponse(200, page)).soft404);
        // Tunable: a site's own wording.
        criteria.soft404 = Soft404Mode::Reject;
        criteria.soft404Pattern = QRegularExpression(u"Hoppla"_qs);
        QCOMPARE(checkAcceptance(criteria, htmlResponse(200, "<h1>Hoppla!</h1>")).accepted, Accepted::No);
        QCOMPARE(checkAcceptance(criteria, htmlResponse(200, page)).accepted, Accepted::Yes);
    }

    void everyFailureIsNamed() {
        AcceptanceCriteria criteria;
        criteria.contentTypes = {"application/json"};
        criteria.expectTitle = true;
        criteria.minBytes = 1000;
        criteria.expectedText = u"\"items\""_qs;
        criteria.soft404 = Soft404Mode::Reject;
        const AcceptanceVerdict verdict =
            checkAcceptance(criteria, htmlResponse(500, "<title>Internal Server Error</title>"));
        QCOMPARE(verdict.accepted, Accepted::No);
        QCOMPARE(verdict.reason,
                 u"status 500 not in 200-299; content type \"text/html\" not in application/json; "
                 "36 bytes, fewer than the minimum 1000; text \"\"items\"\" not in the first 256 KiB"_qs);
    }
};

QTEST_GUILESS_MAIN(TestAcceptanceCheck)
#include "tst_acceptancecheck.moc"
