#pragma once

#include "testsite.h"

#include <QByteArray>
#include <QStringList>

namespace testsite {

// The built-in demo: about 8 hosts on 127.0.0.x with distinct profiles (fast, slow, flaky 503s,
// rate-limited 429 with Retry-After, some 404s, redirects, one that hangs) and a URL list of a few
// thousand URLs over them, so a newcomer sees a realistic crawl with no network.
// Profile i listens on 127.0.0.(2+i), ephemeral port; if that address cannot bind it falls back to
// 127.0.0.1 on another port. errorString() is set (and isListening() false) only when nothing can listen.
// The list is the same on every run apart from the ports (fixed seed): URLs interleaved across hosts,
// all distinct, plus 4 invalid lines; profiles().urls sums to the number of valid URLs.
class DemoSite {
public:
    struct Profile {
        QString name;        // "fast", "slow", "flaky", ...
        QString host;        // "127.0.0.3:PORT"
        QString description; // one line for the README and the demo banner
        int urls = 0;
    };

    // Starts the hosts. `scale` multiplies the number of URLs (1.0 = a few thousand).
    explicit DemoSite(double scale = 1.0);
    ~DemoSite();

    bool isListening() const;
    QString errorString() const;
    QList<Profile> profiles() const;
    QByteArray urlList() const; // one URL per line, with a comment header and a few invalid lines
    TestSite &site();

private:
    TestSite m_site;
    QList<Profile> m_profiles;
    QByteArray m_list;
    QString m_error;
};

} // namespace testsite
