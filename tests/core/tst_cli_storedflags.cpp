// The flags a crawl file keeps for --resume (cli.arguments) are data that can come from anyone: --resume
// takes back only crawl flags (never an output path), and --store never writes a credential header.
#include "clitestsupport.h"
#include "commandline.h"
#include "store/crawlstore.h"
#include "testsite.h"

#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace clitest;

namespace {

bool setStoredSettings(const QString &path, const QMap<QString, QString> &values) {
    crawl::StoreError error;
    const std::unique_ptr<crawl::CrawlStore> store = crawl::CrawlStore::open(path, &error);
    return store && store->setSettings(values);
}

} // namespace

class TestCliStoredFlags : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void resumeKeepsOnlyCrawlFlags() {
        QStringList ignored;
        const QStringList merged = crawl::resumeArguments(
            {QStringLiteral("crawlscope"), QStringLiteral("--headless"), QStringLiteral("--resume=c")},
            {QStringLiteral("--retries=3"), QStringLiteral("--output=/tmp/victim"),
             QStringLiteral("--summary-json=/tmp/victim"), QStringLiteral("-output=/tmp/victim"),
             QStringLiteral("/tmp/victim"), QStringLiteral("--store=/tmp/victim"),
             QStringLiteral("--no-such-flag=1"), QStringLiteral("--adaptive")},
            &ignored);
        QCOMPARE(merged, QStringList({QStringLiteral("crawlscope"), QStringLiteral("--retries=3"),
                                      QStringLiteral("--adaptive"), QStringLiteral("--headless"),
                                      QStringLiteral("--resume=c")}));
        QCOMPARE(ignored.size(), 6);
        QVERIFY(crawl::isCrawlFlag(QStringLiteral("header")));
        QVERIFY(!crawl::isCrawlFlag(QStringLiteral("output")));
        QVERIFY(!crawl::isCrawlFlag(QStringLiteral("summary-json")));
    }

    void credentialHeadersAreNotStorable() {
        QStringList withheld;
        const QStringList storable = crawl::storableCrawlArguments(
            {QStringLiteral("--header=Authorization: Bearer X"), QStringLiteral("--header=X-Trace: 1"),
             QStringLiteral("--header=Cookie: a=b"), QStringLiteral("--header=authorization: again"),
             QStringLiteral("--retries=2")},
            &withheld);
        QCOMPARE(storable,
                 QStringList({QStringLiteral("--header=X-Trace: 1"), QStringLiteral("--retries=2")}));
        QCOMPARE(withheld, QStringList({QStringLiteral("Authorization"), QStringLiteral("Cookie")}));
    }

    // The real binary: the secret never reaches the crawl file, --resume says to give it again, and a
    // tampered file's --output / --summary-json leave the files they name alone.
    void storeAndResumeWithTamperedFlags() {
        testsite::TestSite site;
        QString error;
        const QString host = site.addHost(QHostAddress::LocalHost, 0, &error);
        QVERIFY2(!host.isEmpty(), qPrintable(error));
        QTemporaryDir dir;
        const QString list = dir.filePath(QStringLiteral("urls.txt"));
        const QString crawlFile = dir.filePath(QStringLiteral("c.crawl"));
        const QString victim = dir.filePath(QStringLiteral("victim.txt"));
        const QString victimJson = dir.filePath(QStringLiteral("victim.json"));
        QVERIFY(writeFile(list, site.urlList(host, 3, QStringLiteral("/v%1"))));
        QVERIFY(writeFile(victim, "precious\n"));
        QVERIFY(writeFile(victimJson, "precious too\n"));

        const Run stored = runCli(
            quickFlags() + QStringList{QStringLiteral("--quiet"), QStringLiteral("--input"), list,
                                       QStringLiteral("--store"), crawlFile, QStringLiteral("--output"),
                                       dir.filePath(QStringLiteral("out.csv")), QStringLiteral("--header"),
                                       QStringLiteral("Authorization: Bearer TOPSECRET"),
                                       QStringLiteral("--header"), QStringLiteral("X-Trace: visible")});
        QVERIFY2(stored.finished && stored.exitCode == 0, stored.err.constData());
        QVERIFY(!QFile::exists(crawlFile + QStringLiteral("-wal")) ||
                !readFile(crawlFile + QStringLiteral("-wal")).contains("TOPSECRET"));
        const QByteArray fileBytes = readFile(crawlFile);
        QVERIFY(!fileBytes.isEmpty());
        QVERIFY2(!fileBytes.contains("TOPSECRET"), "the Authorization header's value is in the crawl file");
        QVERIFY2(fileBytes.contains("X-Trace: visible"), "a harmless header must still be stored");

        QVERIFY(setStoredSettings(
            crawlFile,
            {{QStringLiteral("cli.arguments"),
              QStringLiteral("--robots=ignore\n--output=%1\n--summary-json=%2").arg(victim, victimJson)}}));
        const Run resumed = runCli(
            {QStringLiteral("--headless"), QStringLiteral("--quiet"), QStringLiteral("--resume"), crawlFile});
        QVERIFY2(resumed.finished && resumed.exitCode == 0, resumed.err.constData());
        QCOMPARE(readFile(victim), QByteArray("precious\n"));
        QCOMPARE(readFile(victimJson), QByteArray("precious too\n"));
        QVERIFY2(resumed.err.contains("not a crawl flag"), resumed.err.constData());
        QVERIFY2(resumed.err.contains("Authorization") && resumed.err.contains("--header again"),
                 resumed.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliStoredFlags)
#include "tst_cli_storedflags.moc"
