#pragma once

#include "model/crawlresult.h"

#include <QByteArray>
#include <QList>
#include <QMap>
#include <QPair>

namespace crawl {

// A worker's CrawlResult as the fields of its entry in the crawl's results stream, and back: the
// coordinator writes the same CSV row a single-process crawl would. The stream script adds id, url, line,
// attempts and owner itself (the URL's record is the authority for those), so they are not encoded here.
// Pure functions: every field round-trips in tst_clusterresultcodec.
namespace ClusterResultCodec {

QList<QPair<QByteArray, QByteArray>> encode(const CrawlResult &result);
// An entry the worker did not write (a lease that expired too often) still becomes a complete row:
// missing fields take their "nothing happened" values, an unknown outcome becomes network_error.
CrawlResult decode(const QMap<QByteArray, QByteArray> &fields);

} // namespace ClusterResultCodec

} // namespace crawl
