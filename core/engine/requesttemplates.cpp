#include "engine/requesttemplates.h"

#include "model/settingranges.h"
#include "policy/redirectsafety.h"

#include <algorithm>

namespace crawl {

namespace {
// Qt keeps an idle connection 120 s; one per finished host exhausts descriptors on a many-host crawl.
constexpr int kIdleConnectionSeconds = 2;
} // namespace

RequestTemplates RequestTemplates::forPolicy(const FetchPolicy &policy) {
    QNetworkRequest request;
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::ManualRedirectPolicy);
    request.setAttribute(QNetworkRequest::CookieLoadControlAttribute, QNetworkRequest::Manual);
    request.setAttribute(QNetworkRequest::CookieSaveControlAttribute, QNetworkRequest::Manual);
    request.setAttribute(QNetworkRequest::ConnectionCacheExpiryTimeoutSecondsAttribute,
                         kIdleConnectionSeconds);
    // Our own limit bounds decoded bodies (Qt's zip-bomb check would end a big one without an error).
    request.setDecompressedSafetyCheckThreshold(-1);
    request.setHeader(QNetworkRequest::UserAgentHeader,
                      policy.userAgent.isEmpty() ? FetchPolicy::defaultUserAgent() : policy.userAgent);
    // QNAM's transfer timeout is an inactivity timeout; safe because nothing ever queues inside QNAM.
    // Clamped to the allowed range: a policy from anywhere cannot overflow the milliseconds.
    request.setTransferTimeout(int(std::clamp<qint64>(policy.idleTimeoutS, settingrange::idleTimeoutS.min,
                                                      settingrange::idleTimeoutS.max) *
                                   1000));
    RequestTemplates templates;
    templates.withoutCredentials = request;
    for (const auto &[name, value] : policy.headers) {
        request.setRawHeader(name, value);
        if (!isCredentialHeader(name))
            templates.withoutCredentials.setRawHeader(name, value);
    }
    templates.request = request;
    return templates;
}

} // namespace crawl
