#pragma once

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QStringList>

namespace crawl {

// Credential headers of a shared crawl (docs/cluster.md): the coordinator stores only their names in Redis
// (anyone who can read Redis could read a value stored there); each worker is given the values on its own
// command line (--header) and merges them over the crawl's stored headers. The names are stored under
// kWithheldHeadersKey (commandline.h), one per line, as a local --store crawl keeps them.
struct ClusterWorkerHeaders {
    QList<QPair<QByteArray, QByteArray>> headers; // what the worker sends: stored ones, then its own
    QStringList missing; // withheld names (as the coordinator stored them) this worker was not given
};

// A header given to the worker replaces every stored header of the same name (case-insensitive): the
// worker's own value is the one the user meant for this machine.
ClusterWorkerHeaders mergeClusterWorkerHeaders(const QList<QPair<QByteArray, QByteArray>> &stored,
                                               const QList<QPair<QByteArray, QByteArray>> &given,
                                               const QStringList &withheldNames);

} // namespace crawl
