#pragma once

#include "policy/acceptancecheck.h"

#include <QByteArray>
#include <QString>

class QIODevice;

namespace crawl {

// How much of a response body the shard keeps while it streams (the rest is counted and dropped): the
// first bytes the acceptance checks and the title scanner read, or a robots.txt up to what RFC 9309 asks
// to parse. Bounded per request, so memory is at most this times the requests in flight.
qsizetype bodyBytesToKeep(const AcceptanceCriteria &criteria, bool robotsFetch, const QString &contentType);

// Reads what `device` has: up to `keep` bytes in all go into `prefix` (read straight into it, no copy of
// the rest), the remainder is skipped. Returns the bytes consumed.
qint64 consumeBody(QIODevice *device, QByteArray &prefix, qsizetype keep);

} // namespace crawl
