// URL passwords are hidden in everything shown or written, and only the password.
#include "output/urlredaction.h"

#include <QTest>

using namespace crawl;

class TestUrlRedaction : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void redacts_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("shown");
        QTest::newRow("password") << "http://user:secret@host/path"
                                  << "http://user:***@host/path";
        QTest::newRow("port kept") << "https://user:secret@host:8443/?q=1"
                                   << "https://user:***@host:8443/?q=1";
        QTest::newRow("no path") << "http://u:p@h"
                                 << "http://u:***@h";
        QTest::newRow("@ in password") << "http://u:p@ss@h/"
                                       << "http://u:***@h/";
        QTest::newRow("colon in password") << "http://u:a:b@h/"
                                           << "http://u:***@h/";
        QTest::newRow("percent-encoded") << "http://u:s%40cret@h/"
                                         << "http://u:***@h/";
        QTest::newRow("user only") << "http://user@host/"
                                   << "http://user@host/";
        QTest::newRow("empty password") << "http://user:@host/"
                                        << "http://user:@host/";
        QTest::newRow("no userinfo, port") << "http://host:81/a@b"
                                           << "http://host:81/a@b";
        QTest::newRow("@ in the query") << "http://host/?a=b:c@d"
                                        << "http://host/?a=b:c@d";
        QTest::newRow("two URLs in text") << "redirect from http://a:x@h1/ to \"http://b:y@h2/p\""
                                          << "redirect from http://a:***@h1/ to \"http://b:***@h2/p\"";
        QTest::newRow("not a URL") << "user:secret@host"
                                   << "user:secret@host";
        QTest::newRow("empty") << ""
                               << "";
        QTest::newRow("scheme only") << "http://"
                                     << "http://";
    }
    void redacts() {
        QFETCH(QString, text);
        QFETCH(QString, shown);
        QCOMPARE(redactUrlPasswords(text), shown);
        QCOMPARE(redactUrlPasswords(shown), shown); // idempotent
    }
};

QTEST_GUILESS_MAIN(TestUrlRedaction)
#include "tst_urlredaction.moc"
