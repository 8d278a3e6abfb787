#include "model/fetchpolicy.h"

namespace crawl {

QString FetchPolicy::defaultUserAgent() {
    return QStringLiteral("Crawlscope/%1 (+https://crawlscope.invalid; polite crawler)")
        .arg(QLatin1String(CRAWLSCOPE_VERSION));
}

} // namespace crawl
