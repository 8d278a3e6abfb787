#include "models/resultfacets.h"

#include "model/outcome.h"
#include "models/resultstore.h"

#include <algorithm>
#include <vector>

namespace ui {

ResultFacets ResultFacets::count(const ResultStore &store, bool failuresOnly) {
    ResultFacets facets;
    std::vector<qint64> byStatus(1000, 0);
    std::vector<qint64> byHost(size_t(store.stringCount()), 0); // hosts are interned: count by id
    for (qsizetype i = 0; i < store.size(); ++i) {
        const ResultStore::Row row = store.row(i);
        if (failuresOnly && !crawl::isFailure(crawl::Outcome(row.outcome)))
            continue;
        ++facets.rows;
        ++byStatus[std::min<size_t>(row.status, 999)];
        ++byHost[row.hostId];
    }
    for (int status = 0; status < 1000; ++status) {
        if (byStatus[size_t(status)] > 0)
            facets.statuses.insert(status, byStatus[size_t(status)]);
    }
    for (size_t id = 0; id < byHost.size(); ++id) {
        if (byHost[id] > 0)
            facets.hosts.append({store.string(quint32(id)), byHost[id]});
    }
    std::sort(facets.hosts.begin(), facets.hosts.end(), [](const auto &a, const auto &b) {
        return a.second != b.second ? a.second > b.second : a.first < b.first;
    });
    return facets;
}

} // namespace ui
