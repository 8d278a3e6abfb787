// The HTML title and first heading from a body prefix: comments, scripts and svg skipped, entities,
// missing closing tags, case, attributes, and the charset from the BOM, Content-Type or <meta>.
#include "policy/htmlpagefacts.h"

#include <QTest>

using namespace crawl;

class TestHtmlPageFacts : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void titles_data() {
        QTest::addColumn<QByteArray>("html");
        QTest::addColumn<QString>("title");
        QTest::newRow("plain") << QByteArray("<html><head><title>Hello</title></head></html>") << u"Hello"_qs;
        QTest::newRow("upper case") << QByteArray("<HTML><HEAD><TITLE>Shouting</TITLE>") << u"Shouting"_qs;
        QTest::newRow("attributes") << QByteArray("<title id=\"t\" data-x='a>b' lang=en>With attrs</title>")
                                    << u"With attrs"_qs;
        QTest::newRow("whitespace") << QByteArray("<title>\n   Two\t\tlines\n   here  </title>")
                                    << u"Two lines here"_qs;
        QTest::newRow("entities") << QByteArray(
                                         "<title>Tom &amp; Jerry&#39;s &#x27;caf&eacute;&#x27; &lt;3 &mdash; "
                                         "&unknown; &amp</title>")
                                  << QString::fromUtf8(
                                         "Tom & Jerry's 'caf\xC3\xA9' <3 \xE2\x80\x94 &unknown; &");
        QTest::newRow("legacy entities without semicolon")
            << QByteArray("<title>&ampersand &lt &copy 2026 &nbs; R&D;</title>")
            << QString::fromUtf8("&ersand < \xC2\xA9 2026 &nbs; R&D;");
        QTest::newRow("bad numeric refs")
            << QByteArray("<title>&#0;&#xD800;&#1114112;&#146;</title>")
            << QString::fromUtf8("\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\xE2\x80\x99");
        QTest::newRow("in comment") << QByteArray("<!-- <title>Old</title> --><title>New</title>")
                                    << u"New"_qs;
        QTest::newRow("in script")
            << QByteArray("<script>var s = '<title>Fake</title>';</script><title>Real</title>") << u"Real"_qs;
        QTest::newRow("in SCRIPT with attrs")
            << QByteArray("<SCRIPT type=\"text/template\"><title>Fake</title></SCRIPT ><title>Real</title>")
            << u"Real"_qs;
        QTest::newRow("in style") << QByteArray("<style>/* <title>x</title> */</style><title>Real</title>")
                                  << u"Real"_qs;
        QTest::newRow("in svg") << QByteArray("<body><svg><title>Icon</title></svg><title>Late</title>")
                                << u"Late"_qs;
        QTest::newRow("titlebar is not title")
            << QByteArray("<titlebar>No</titlebar><title>Yes</title>") << u"Yes"_qs;
        QTest::newRow("tags inside are text")
            << QByteArray("<title>A <b>bold</b> title</title>") << u"A <b>bold</b> title"_qs;
        QTest::newRow("missing close tag")
            << QByteArray("<title>Unclosed\n<meta name=x><body>text") << u"Unclosed"_qs;
        QTest::newRow("missing close at end")
            << QByteArray("<title>Cut off by the pref") << u"Cut off by the pref"_qs;
        QTest::newRow("first title wins") << QByteArray("<title>One</title><title>Two</title>") << u"One"_qs;
        QTest::newRow("doctype and pi")
            << QByteArray("<?xml version=\"1.0\"?><!DOCTYPE html><title>X</title>") << u"X"_qs;
        QTest::newRow("unclosed comment") << QByteArray("<!-- <title>Never</title>") << QString();
        QTest::newRow("none") << QByteArray("<html><body><p>no title</p></body></html>") << QString();
        QTest::newRow("garbage") << QByteArray("<<<>>> <title") << QString();
        QTest::newRow("empty") << QByteArray() << QString();
    }
    void titles() {
        QFETCH(QByteArray, html);
        QFETCH(QString, title);
        QCOMPARE(extractHtmlPageFacts(html, "text/html").title, title);
    }

    void hasTitleEvenWhenEmpty() {
        const HtmlPageFacts empty = extractHtmlPageFacts("<title>  </title>", "text/html");
        QVERIFY(empty.hasTitle);
        QVERIFY(empty.title.isEmpty());
        QVERIFY(!extractHtmlPageFacts("<p>x</p>", "text/html").hasTitle);
    }

    void firstHeading() {
        const HtmlPageFacts facts =
            extractHtmlPageFacts("<title>Shop</title><body><h2>Sub</h2>"
                                 "<H1 class=\"big\">Page <em>not</em>\nfound</H1><h1>Two</h1>",
                                 "text/html");
        QCOMPARE(facts.firstHeading, u"Page not found"_qs);
        QCOMPARE(facts.title, u"Shop"_qs);
        QCOMPARE(extractHtmlPageFacts("<h1>No end", "text/html").firstHeading, u"No end"_qs);
    }

    void charsets_data() {
        QTest::addColumn<QByteArray>("html");
        QTest::addColumn<QByteArray>("contentType");
        QTest::addColumn<QByteArray>("charset");
        QTest::addColumn<QString>("title");
        const QString cafe = QString::fromUtf8("Caf\xC3\xA9");
        QTest::newRow("utf-8 default") << QByteArray("<title>Caf\xC3\xA9</title>") << QByteArray("text/html")
                                       << QByteArray("utf-8") << cafe;
        QTest::newRow("latin-1 sniffed") << QByteArray("<title>Caf\xE9</title>") << QByteArray("text/html")
                                         << QByteArray("windows-1252") << cafe;
        QTest::newRow("header latin-1")
            << QByteArray("<title>Caf\xE9</title>") << QByteArray("text/html; Charset=\"ISO-8859-1\"")
            << QByteArray("windows-1252") << cafe;
        QTest::newRow("meta charset") << QByteArray("<meta charset=\"windows-1252\"><title>Caf\xE9</title>")
                                      << QByteArray("text/html") << QByteArray("windows-1252") << cafe;
        QTest::newRow("meta after title") << QByteArray("<title>Caf\xE9</title><meta charset=latin1>")
                                          << QByteArray("text/html") << QByteArray("windows-1252") << cafe;
        QTest::newRow("meta http-equiv")
            << QByteArray("<META HTTP-EQUIV=\"Content-Type\" CONTENT=\"text/html; charset=iso-8859-1\">"
                          "<title>Caf\xE9</title>")
            << QByteArray("text/html") << QByteArray("windows-1252") << cafe;
        QTest::newRow("header beats meta")
            << QByteArray("<meta charset=iso-8859-1><title>Caf\xC3\xA9</title>")
            << QByteArray("text/html;charset=utf-8") << QByteArray("utf-8") << cafe;
        QTest::newRow("bom beats header")
            << QByteArray("\xEF\xBB\xBF<title>Caf\xC3\xA9</title>")
            << QByteArray("text/html; charset=iso-8859-1") << QByteArray("utf-8") << cafe;
        QTest::newRow("utf-8 cut mid-character is still utf-8")
            << QByteArray("<title>Caf\xC3\xA9</title><p>\xE2\x82") << QByteArray("text/html")
            << QByteArray("utf-8") << cafe;
    }
    void charsets() {
        QFETCH(QByteArray, html);
        QFETCH(QByteArray, contentType);
        QFETCH(QByteArray, charset);
        QFETCH(QString, title);
        const HtmlPageFacts facts = extractHtmlPageFacts(html, contentType);
        QCOMPARE(facts.charset, charset);
        QCOMPARE(facts.title, title);
    }

    void longTitlesAreCut() {
        const QByteArray html = "<title>" + QByteArray(100'000, 'x') + "</title>";
        QCOMPARE(extractHtmlPageFacts(html, "text/html").title.size(), HtmlPageFacts::maxTextChars);
        // The cut neither splits a surrogate pair (U+1F600 is two UTF-16 units) nor leaves a space.
        const QByteArray emoji =
            "<title>" + QByteArray(HtmlPageFacts::maxTextChars - 1, 'x') + "\xF0\x9F\x98\x80</title>";
        const QString cut = extractHtmlPageFacts(emoji, "text/html").title;
        QCOMPARE(cut.size(), HtmlPageFacts::maxTextChars - 1);
        QVERIFY(QStringView(cut).isValidUtf16());
        const QByteArray spaced = "<title>" + QByteArray(HtmlPageFacts::maxTextChars - 1, 'x') + " y</title>";
        QCOMPARE(extractHtmlPageFacts(spaced, "text/html").title,
                 QString(HtmlPageFacts::maxTextChars - 1, u'x'));
    }

    void controlCharactersAreReplaced() {
        const QString title = extractHtmlPageFacts("<title>a\x01"
                                                   "b&#1;c&#x7F;d\te</title>",
                                                   "text/html")
                                  .title;
        QCOMPARE(title, QStringLiteral("a\uFFFDb\uFFFDc\uFFFDd e"));
    }

    void charsetFromContentTypeParameter() {
        QCOMPARE(charsetFromContentType("text/html; charset=UTF-8"), QByteArray("utf-8"));
        QCOMPARE(charsetFromContentType("text/html;foo=bar; charset=\"latin1\""), QByteArray("latin1"));
        QVERIFY(charsetFromContentType("text/html").isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestHtmlPageFacts)
#include "tst_htmlpagefacts.moc"
