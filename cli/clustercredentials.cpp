#include "clustercredentials.h"

namespace crawl {

ClusterWorkerHeaders mergeClusterWorkerHeaders(const QList<QPair<QByteArray, QByteArray>> &stored,
                                               const QList<QPair<QByteArray, QByteArray>> &given,
                                               const QStringList &withheldNames) {
    const auto givenHas = [&](const QByteArray &name) {
        for (const auto &header : given) {
            if (header.first.compare(name, Qt::CaseInsensitive) == 0)
                return true;
        }
        return false;
    };
    ClusterWorkerHeaders merged;
    for (const auto &header : stored) {
        if (!givenHas(header.first))
            merged.headers.append(header);
    }
    merged.headers.append(given);
    for (const QString &name : withheldNames) {
        const QString trimmed = name.trimmed();
        if (!trimmed.isEmpty() && !givenHas(trimmed.toLatin1()) &&
            !merged.missing.contains(trimmed, Qt::CaseInsensitive))
            merged.missing << trimmed;
    }
    return merged;
}

} // namespace crawl
