#pragma once

#include "model/fetchpolicy.h"

#include <QNetworkRequest>

namespace crawl {

// The two requests every fetch starts as a copy of: built once per configuration, because a copy shares
// the attributes and headers where building each request would allocate them again. The fetch shards and
// a cluster worker use the same ones, so both send exactly the same request.
struct RequestTemplates {
    QNetworkRequest request;            // the user's headers included
    QNetworkRequest withoutCredentials; // for a redirect hop to another origin: no credential headers

    static RequestTemplates forPolicy(const FetchPolicy &policy);
};

} // namespace crawl
