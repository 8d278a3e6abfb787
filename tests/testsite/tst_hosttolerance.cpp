// The test site's tolerance=K profile (a host that serves K at once and slows as load rises): the pure
// rule, and what raw clients get and what the site records.
#include "hosttolerance.h"
#include "rawhttpclient.h"
#include "responseprofile.h"
#include "testsite.h"

#include <QTest>

#include <algorithm>
#include <memory>
#include <vector>

using rawhttp::Client;
using testsite::HostTolerance;
using testsite::RequestRecord;
using testsite::ResponseProfile;
using testsite::TestSite;

class TestHostTolerance : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void parsesItsParametersAndNothingElse() {
        const ResponseProfile p = ResponseProfile::fromQuery("tolerance=4&tolms=60&tolstep=10&status=201");
        QCOMPARE(p.tolerance.capacity, 4);
        QCOMPARE(p.tolerance.baseMs, 60);
        QCOMPARE(p.tolerance.stepMs, 10);
        QVERIFY(p.tolerance.enabled());
        QCOMPARE(p.status, 201); // the other parameters still apply
        QVERIFY(!ResponseProfile::fromQuery("ms=5").tolerance.enabled());
        const ResponseProfile bad = ResponseProfile::fromQuery("tolerance=-3&tolms=x&tolstep=99999999999");
        QVERIFY(!bad.tolerance.enabled());
        QCOMPARE(bad.tolerance.baseMs, 0);
        QCOMPARE(bad.tolerance.stepMs, HostTolerance::kMaxMs);
    }

    void admitsKAndSlowsWithLoad() {
        HostTolerance t;
        t.capacity = 3;
        t.baseMs = 50;
        t.stepMs = 20;
        QVERIFY(t.admits(0));
        QVERIFY(t.admits(2));
        QVERIFY(!t.admits(3));
        QCOMPARE(t.latencyMs(1), 70);
        QCOMPARE(t.latencyMs(3), 110);
        t.stepMs = HostTolerance::kMaxMs;
        QCOMPARE(t.latencyMs(5), HostTolerance::kMaxMs); // capped, no overflow
    }

    void moreThanKAtOnceGet503AtOnceTheRestSlowDown() {
        TestSite site;
        QString error;
        const QString host = site.addHost(QHostAddress::LocalHost, 0, &error);
        QVERIFY2(!host.isEmpty(), qPrintable(error));
        constexpr int kClients = 5;
        std::vector<std::unique_ptr<Client>> clients;
        for (int i = 0; i < kClients; ++i) {
            clients.push_back(std::make_unique<Client>());
            QVERIFY(clients.back()->connectTo(host));
        }
        for (int i = 0; i < kClients; ++i)
            clients[size_t(i)]->get("/t" + QByteArray::number(i) + "?tolerance=2&tolms=200&tolstep=100");
        for (const auto &c : clients)
            QVERIFY(c->waitResponses(1));

        // The site's records: two served (after 300 and 400 ms: 200 + 100 x load), three refused at once.
        QList<RequestRecord> records = site.requests(host);
        QCOMPARE(records.size(), kClients);
        std::sort(records.begin(), records.end(),
                  [](const RequestRecord &a, const RequestRecord &b) { return a.endNs < b.endNs; });
        int refused = 0;
        QList<double> servedMs;
        for (const RequestRecord &r : records) {
            const double ms = double(r.endNs - r.startNs) / 1e6;
            if (r.status == 503) {
                ++refused;
                QVERIFY2(ms < 150, qPrintable(QString::number(ms)));
            } else {
                QCOMPARE(r.status, 200);
                servedMs << ms;
            }
        }
        QCOMPARE(refused, 3);
        QCOMPARE(servedMs.size(), 2);
        QVERIFY2(servedMs[0] >= 290 && servedMs[1] >= 390 && servedMs[1] > servedMs[0] + 50,
                 qPrintable(QStringLiteral("%1 ms, %2 ms").arg(servedMs[0]).arg(servedMs[1])));
        for (const auto &c : clients) {
            if (c->responses.first().status == 503)
                QVERIFY(!c->responses.first().hasHeader("Retry-After")); // none unless ra= asks
        }

        // The places are free again: the next one alone is served at the unloaded latency.
        site.resetRecords();
        clients.front()->get("/again?tolerance=2&tolms=200&tolstep=100");
        QVERIFY(clients.front()->waitResponses(2));
        QCOMPARE(clients.front()->responses.last().status, 200);
        const RequestRecord again = site.requests(host).first();
        const double ms = double(again.endNs - again.startNs) / 1e6;
        QVERIFY2(ms >= 290 && ms < 390, qPrintable(QString::number(ms)));
    }
};

QTEST_GUILESS_MAIN(TestHostTolerance)
#include "tst_hosttolerance.moc"
