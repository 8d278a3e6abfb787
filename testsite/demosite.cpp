#include "demosite.h"

#include <QRandomGenerator>
#include <QUrl>

#include <algorithm>
#include <cmath>

namespace testsite {

namespace {

struct Spec {
    const char *name;
    const char *description;
    int urls; // at scale 1.0
};

// Order = address: profile i listens on 127.0.0.(2 + i).
const Spec kSpecs[] = {
    {"fast", "answers in 1-5 ms", 700},
    {"normal", "answers in 20-80 ms", 600},
    {"slow", "answers in 300-1200 ms", 150},
    {"flaky", "a quarter of the URLs answer 503 twice (some with Retry-After: 1), then 200", 400},
    {"rate-limited", "many URLs answer 429 with Retry-After (1-2 s, some as HTTP-dates) first", 300},
    {"gone", "a mix of 200, 404 and 410", 300},
    {"redirects", "302 chains of 1-3 hops; some redirect to the fast host", 250},
    {"tarpit", "mostly normal, but a few URLs hang or trickle, and two bodies are huge (30/50 MB)", 200},
};

int scaled(int n, double scale, int minimum) {
    return std::max(minimum, int(std::lround(n * scale)));
}

} // namespace

DemoSite::DemoSite(double scale) {
    if (!(scale > 0))
        scale = 1.0;
    QString lastError;
    QList<int> specOf; // m_profiles index -> kSpecs index
    for (int i = 0; i < int(std::size(kSpecs)); ++i) {
        QString error;
        const QHostAddress address(QStringLiteral("127.0.0.%1").arg(2 + i));
        QString host = m_site.addHost(address, 0, &error);
        if (host.isEmpty()) // e.g. a system without the 127/8 route: share 127.0.0.1 on another port
            host = m_site.addHost(QHostAddress(QHostAddress::LocalHost), 0, &error);
        if (host.isEmpty()) {
            lastError = error;
            continue;
        }
        Profile p;
        p.name = QString::fromLatin1(kSpecs[i].name);
        p.host = host;
        p.description = QString::fromLatin1(kSpecs[i].description);
        m_profiles.append(p);
        specOf.append(i);
    }
    if (m_profiles.isEmpty()) {
        m_error = lastError.isEmpty() ? QStringLiteral("no demo host could listen") : lastError;
        return;
    }

    // Fixed seed: the same list (ports aside) on every run.
    QRandomGenerator rng(20240611u);
    auto pick = [&rng](int lo, int hi) { return lo + int(rng.bounded(hi - lo + 1)); };
    const QString fastHost = m_profiles.front().host; // "fast" when it could listen, else any
    QList<QByteArray> urls;

    for (qsizetype k = 0; k < m_profiles.size(); ++k) {
        Profile &p = m_profiles[k];
        const int spec = specOf[k];
        const int n = scaled(kSpecs[spec].urls, scale, 4);
        const QByteArray base = "http://" + p.host.toLatin1();
        for (int j = 0; j < n; ++j) {
            QByteArray u;
            switch (spec) {
            case 0:
                u = base + "/products/" + QByteArray::number(1000 + j) + "?ms=1-5";
                break;
            case 1:
                u = base + "/blog/2024/post-" + QByteArray::number(j) + "?ms=20-80";
                break;
            case 2:
                u = base + "/reports/annual-" + QByteArray::number(j) + "?ms=300-1200";
                break;
            case 3:
                u = base + "/api/items/" + QByteArray::number(j) + "?ms=10-60";
                if (j % 4 == 1)
                    u += j % 8 == 1 ? "&fail=2&ra=1" : "&fail=2";
                break;
            case 4: {
                u = base + "/search/term-" + QByteArray::number(j) + "?ms=5-30";
                const int r = j % 10;
                if (r < 3) {
                    u += "&fail=" + QByteArray::number(1 + j % 2) +
                         "&failstatus=429&ra=" + QByteArray::number(pick(1, 2));
                } else if (r == 3) {
                    static const char *const formats[] = {"imf", "rfc850", "asctime"};
                    // Two seconds: an HTTP-date has whole seconds, so 1 could read as "now".
                    u += QByteArray("&fail=1&failstatus=429&radate=2&rafmt=") + formats[(j / 10) % 3];
                }
                break;
            }
            case 5: {
                u = base + "/catalog/page-" + QByteArray::number(j) + "?ms=10-50";
                const int r = j % 10;
                if (r < 2)
                    u += "&status=404";
                else if (r == 2)
                    u += "&status=410";
                break;
            }
            case 6:
                if (j % 10 == 9) {
                    const QByteArray target =
                        "http://" + fastHost.toLatin1() + "/landing/" + QByteArray::number(j) + "?ms=1-5";
                    u = base + "/go/partner-" + QByteArray::number(j) +
                        "?ms=5-30&to=" + QUrl::toPercentEncoding(QString::fromLatin1(target));
                } else {
                    u = base + "/old/path-" + QByteArray::number(j) +
                        "?ms=5-30&redirect=" + QByteArray::number(1 + j % 3);
                }
                break;
            case 7:
                u = base + "/files/doc-" + QByteArray::number(j) + "?ms=20-100";
                break;
            }
            urls.append(u);
        }
        if (spec == 7) {
            // Replace a few URLs with the nasty ones, spread over the host's list.
            const int hangs = std::min(n, scaled(5, scale, 1));
            const QByteArray huge[] = {"/downloads/dataset.bin?size=30000000&type=application/octet-stream",
                                       "/downloads/archive.bin?size=50000000&type=application/octet-stream"};
            const qsizetype first = urls.size() - n;
            for (int h = 0; h < hangs; ++h)
                urls[first + (h * n) / hangs] = base + "/files/stuck-" + QByteArray::number(h) + "?hang=1";
            if (n >= 8) {
                urls[first + 1] = base + huge[0];
                urls[first + 3] = base + huge[1];
                urls[first + 5] = base + "/files/slowpoke-0?trickle=20&every=500";
            }
        }
        p.urls = n;
    }

    std::shuffle(urls.begin(), urls.end(), rng);
    const QByteArray invalid[] = {"ftp://127.0.0.2/pub/readme.txt", "not a url", "http://:80/x",
                                  "http//missing-colon.invalid/page"};
    for (int i = 3; i >= 0; --i) // from the back, so earlier positions stay valid
        urls.insert(urls.size() * (2 * i + 1) / 8, invalid[i]);

    m_list = "# Crawlscope demo: " + QByteArray::number(urls.size() - 4) + " URLs over " +
             QByteArray::number(m_profiles.size()) + " local hosts, plus 4 invalid lines.\n" +
             "# Served by the built-in test site on loopback; the query string picks each URL's behaviour.\n";
    for (const Profile &p : std::as_const(m_profiles)) {
        m_list += "#   " + p.host.toLatin1() + "  " + p.name.toLatin1() + ": " + p.description.toUtf8() +
                  " (" + QByteArray::number(p.urls) + " URLs)\n";
    }
    m_list += '\n';
    for (const QByteArray &u : std::as_const(urls))
        m_list += u + '\n';
}

DemoSite::~DemoSite() = default;

bool DemoSite::isListening() const {
    return !m_profiles.isEmpty();
}

QString DemoSite::errorString() const {
    return m_error;
}

QList<DemoSite::Profile> DemoSite::profiles() const {
    return m_profiles;
}

QByteArray DemoSite::urlList() const {
    return m_list;
}

TestSite &DemoSite::site() {
    return m_site;
}

} // namespace testsite
