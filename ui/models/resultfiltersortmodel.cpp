#include "models/resultfiltersortmodel.h"

#include "models/resultsmodel.h"
#include "models/resultsorter.h"
#include "models/slicedsorter.h"

#include <algorithm>

namespace ui {

namespace {

// Up to this many rows a header click sorts at once (a few milliseconds); more are sorted in slices.
constexpr size_t kSortAtOnceRows = 32'768;
// Up to this many rows are placed into a URL- or title-sorted list with the texts read one by one (a
// binary search reads ~20 of them a row); more pin every text in memory for as long as that sort holds.
constexpr size_t kPlaceUnpinnedRows = 64;

// `ordered` with `added` (already in the same order) placed by binary search, each after the rows it does
// not sort before: a few rows join a long sorted list with log n comparisons each and block copies.
template <typename Before>
std::vector<int> withRowsPlaced(const std::vector<int> &ordered, const std::vector<int> &added,
                                Before before) {
    std::vector<int> rows;
    rows.reserve(ordered.size() + added.size());
    auto from = ordered.cbegin();
    for (const int row : added) {
        const auto at = std::upper_bound(from, ordered.cend(), row, before);
        rows.insert(rows.end(), from, at);
        rows.push_back(row);
        from = at;
    }
    rows.insert(rows.end(), from, ordered.cend());
    return rows;
}

} // namespace

ResultFilterSortModel::ResultFilterSortModel(QObject *parent)
    : QAbstractProxyModel(parent) {
    m_sortTurn.setSingleShot(true);
    m_sortTurn.setInterval(0);
    connect(&m_sortTurn, &QTimer::timeout, this, &ResultFilterSortModel::continueSort);
}

ResultFilterSortModel::~ResultFilterSortModel() {
    if (m_pinnedTexts)
        m_pinnedTexts->store().unpinTexts();
    if (m_pinnedRows)
        m_pinnedRows->store().unpinRows();
    if (m_heldKeys)
        m_heldKeys->store().releaseSortKeys(m_heldKeysColumn);
}

void ResultFilterSortModel::updatePins() {
    // Moves one kind of hold from the model that has it to the one wanted (either may be none).
    const auto moveHold = [](QPointer<ResultsModel> *held, ResultsModel *wanted, auto release, auto take) {
        if (wanted == *held)
            return;
        if (*held)
            release((*held)->store());
        *held = wanted;
        if (wanted)
            take(wanted->store());
    };
    const bool pinTexts = SlicedSorter::needsPinnedTexts(m_sortColumn) ||
                          (m_pinToPlaceRows && ResultSorter::sortsByText(m_sortColumn));
    moveHold(
        &m_pinnedTexts, m_results && pinTexts ? m_results : nullptr,
        [](const ResultStore &store) { store.unpinTexts(); },
        [](const ResultStore &store) { store.pinTexts(); });
    // A held sort compares random rows (its merges, the rows streamed into its order). By a number or an
    // interned text it holds one word of every row (ResultStore::holdSortKeys) while the rows are on disk (in
    // memory they are read as cheaply); by a title or an error, or by URL once the texts are pinned, the rows
    // themselves come back into memory. A URL sort whose texts stay on disk holds neither: SlicedUrlSorter
    // reads rows and texts in sweeps in store order, and a few rows are placed through the rows' read cache.
    const bool holdKeys =
        ResultSorter::sortsByKey(m_sortColumn) && m_results && m_results->store().rows().isSpilling();
    if (m_heldKeys && m_heldKeysColumn != m_sortColumn) {
        m_heldKeys->store().releaseSortKeys(m_heldKeysColumn);
        m_heldKeys = nullptr;
    }
    moveHold(
        &m_heldKeys, holdKeys ? m_results : nullptr,
        [this](const ResultStore &store) { store.releaseSortKeys(m_heldKeysColumn); },
        [this](const ResultStore &store) { store.holdSortKeys(m_sortColumn, &ResultSorter::columnKey); });
    m_heldKeysColumn = m_heldKeys ? m_sortColumn : -1;
    const bool pinRows =
        ResultSorter::sortsByText(m_sortColumn) && (m_sortColumn != ResultsModel::UrlColumn || m_pinnedTexts);
    moveHold(
        &m_pinnedRows, m_results && pinRows ? m_results : nullptr,
        [](const ResultStore &store) { store.unpinRows(); },
        [](const ResultStore &store) { store.pinRows(); });
}

void ResultFilterSortModel::pinTextsToPlace(size_t rows) {
    if (m_pinToPlaceRows || rows <= kPlaceUnpinnedRows || !ResultSorter::sortsByText(m_sortColumn))
        return;
    m_pinToPlaceRows = true;
    updatePins();
}

void ResultFilterSortModel::setResultsModel(ResultsModel *model) {
    cancelPendingSort();
    beginResetModel();
    if (m_results)
        disconnect(m_results, nullptr, this, nullptr);
    m_results = model;
    QAbstractProxyModel::setSourceModel(model);
    if (model) {
        connect(model, &QAbstractItemModel::rowsInserted, this, &ResultFilterSortModel::onRowsInserted);
        connect(model, &QAbstractItemModel::dataChanged, this, &ResultFilterSortModel::onDataChanged);
        connect(model, &QAbstractItemModel::modelAboutToBeReset, this, [this] {
            cancelPendingSort();
            beginResetModel();
        });
        connect(model, &QAbstractItemModel::modelReset, this, [this] {
            m_rows.clear();
            m_proxyRows.clear();
            // A cleared store interns its texts afresh: an id may name another host now.
            m_textMatch.forgetInternedStrings();
            m_hostAccepted.clear();
            m_reasonChecks.clear();
            refilterRows();
            endResetModel();
        });
        // ResultsModel never removes or moves rows; anything else is a programming error caught by
        // the model tester in the tests.
    }
    updatePins();
    m_rows.clear();
    m_proxyRows.clear();
    refilterRows();
    endResetModel();
}

void ResultFilterSortModel::setOutcomeMask(quint32 mask) {
    if (mask == m_outcomeMask)
        return;
    m_outcomeMask = mask;
    refilter();
}

void ResultFilterSortModel::setFailuresOnly(bool on) {
    if (on == m_failuresOnly)
        return;
    m_failuresOnly = on;
    refilter();
}

void ResultFilterSortModel::setTextFilter(const QString &text) {
    if (text.trimmed() == m_textMatch.text())
        return;
    m_textMatch = ResultTextMatch(text);
    refilter();
}

void ResultFilterSortModel::adoptTextFilter(const ResultTextMatch &match, std::vector<int> acceptedRows) {
    Q_ASSERT(m_results && (acceptedRows.empty() || acceptedRows.back() < m_results->rowCount()));
    cancelPendingSort();
    beginResetModel();
    m_textMatch = match;
    m_rows = std::move(acceptedRows);
    if (m_sortColumn >= 0 && !m_rows.empty()) {
        m_rows =
            ResultSorter(m_results->store(), ResultsModel::Column(m_sortColumn), m_sortOrder).sorted(m_rows);
    }
    dropReverseMap();
    endResetModel();
}

void ResultFilterSortModel::adoptSortedTextFilter(const ResultTextMatch &match, std::vector<int> sortedRows,
                                                  int judgedRows) {
    Q_ASSERT(m_results && m_sortColumn >= 0 && judgedRows <= m_results->rowCount());
    const int total = m_results->rowCount();
    cancelPendingSort();
    std::vector<int> late;
    for (int row = judgedRows; row < total; ++row) {
        if (acceptsSourceRow(row, match))
            late.push_back(row);
    }
    beginResetModel();
    m_textMatch = match;
    if (late.empty()) {
        m_rows = std::move(sortedRows);
    } else {
        // Few rows arrive during a sliced sort: order them alone and place each by binary search after
        // the rows it ties with, as a streamed batch is (a full merge would compare every row).
        pinTextsToPlace(late.size());
        const ResultSorter sorter(m_results->store(), ResultsModel::Column(m_sortColumn), m_sortOrder);
        m_rows = withRowsPlaced(sortedRows, sorter.sorted(late),
                                [&sorter](int value, int element) { return sorter.rowLess(value, element); });
    }
    dropReverseMap();
    endResetModel();
}

void ResultFilterSortModel::setStatusFilter(const StatusFilter &filter) {
    if (filter == m_statusFilter)
        return;
    m_statusFilter = filter;
    refilter();
}

void ResultFilterSortModel::setHostFilter(const HostFilter &filter) {
    if (filter == m_hostFilter)
        return;
    m_hostFilter = filter;
    m_hostAccepted.clear();
    refilter();
}

void ResultFilterSortModel::setAcceptanceFilter(const AcceptanceFilter &filter) {
    if (filter == m_acceptanceFilter)
        return;
    m_acceptanceFilter = filter;
    refilter();
}

bool ResultFilterSortModel::acceptsSourceRow(int sourceRow) const {
    return acceptsSourceRow(sourceRow, m_textMatch);
}

bool ResultFilterSortModel::acceptsSourceRow(int sourceRow, const ResultTextMatch &text) const {
    const ResultStore &store = m_results->store();
    const ResultStore::Row row = store.row(sourceRow); // read once: it may come from the rows file
    const auto outcome = crawl::Outcome(row.outcome);
    if (!(m_outcomeMask & (1u << unsigned(outcome))))
        return false;
    if (m_failuresOnly && !crawl::isFailure(outcome))
        return false;
    if (!m_statusFilter.accepts(row.status))
        return false;
    if (!m_hostFilter.showsAll()) {
        // Hosts are interned: each distinct host is judged once, not once per row.
        const quint32 hostId = row.hostId;
        if (hostId >= m_hostAccepted.size())
            m_hostAccepted.resize(size_t(store.stringCount()), -1);
        qint8 &accepted = m_hostAccepted[hostId];
        if (accepted < 0)
            accepted = m_hostFilter.accepts(store.string(hostId)) ? 1 : 0;
        if (!accepted)
            return false;
    }
    if (!m_acceptanceFilter.showsAll()) {
        // Reasons are interned: each distinct reason is parsed once, not once per row.
        const quint32 reasonId = row.rejectReasonId;
        if (reasonId >= m_reasonChecks.size())
            m_reasonChecks.resize(size_t(store.stringCount()), -1);
        qint16 &checks = m_reasonChecks[reasonId];
        if (checks < 0)
            checks = qint16(AcceptanceFilter::checksOf(store.string(reasonId)));
        if (!m_acceptanceFilter.accepts(ResultStore::accepted(row), quint32(checks)))
            return false;
    }
    return text.matches(store, row);
}

void ResultFilterSortModel::refilterRows() {
    m_rows.clear();
    dropReverseMap();
    if (!m_results)
        return;
    const int count = m_results->rowCount();
    for (int row = 0; row < count; ++row) {
        if (acceptsSourceRow(row))
            m_rows.push_back(row);
    }
    // The user's sort outlives a filter change (and a new crawl).
    if (m_sortColumn >= 0 && !m_rows.empty()) {
        m_rows =
            ResultSorter(m_results->store(), ResultsModel::Column(m_sortColumn), m_sortOrder).sorted(m_rows);
    }
}

void ResultFilterSortModel::refilter() {
    cancelPendingSort();
    if (m_sortColumn < 0 || !m_results || m_results->rowCount() <= int(kSortAtOnceRows)) {
        beginResetModel();
        refilterRows();
        endResetModel();
        return;
    }
    // Many rows with a sort held: the rows shown before keep their order, so only rows the new filter
    // lets in need ordering. Narrowing a filter sorts nothing; a few new rows are placed by binary search;
    // many are sorted in slices like a header click (the table says "sorting…" meanwhile).
    const int count = m_results->rowCount();
    std::vector<char> passes(size_t(count), 0);
    for (int row = 0; row < count; ++row)
        passes[size_t(row)] = acceptsSourceRow(row) ? 1 : 0;
    std::vector<int> kept;
    for (const int row : m_rows) {
        if (passes[size_t(row)]) {
            kept.push_back(row);
            passes[size_t(row)] = 2;
        }
    }
    std::vector<int> added; // in arrival order
    for (int row = 0; row < count; ++row) {
        if (passes[size_t(row)] == 1)
            added.push_back(row);
    }
    // Placing rows into a URL order whose texts are on disk reads ~20 texts a row: more than a few rows
    // are sorted in slices with the rest (SlicedUrlSorter), which reads them in sweeps instead.
    const size_t placeAtOnceRows =
        m_sortColumn == ResultsModel::UrlColumn && !m_pinnedTexts ? kPlaceUnpinnedRows : kSortAtOnceRows;
    std::vector<int> all; // every row that passes, in arrival order: what a sliced sort starts from
    if (added.size() > placeAtOnceRows) {
        all.reserve(kept.size() + added.size());
        for (int row = 0; row < count; ++row) {
            if (passes[size_t(row)])
                all.push_back(row);
        }
    }
    beginResetModel();
    if (added.empty()) {
        m_rows = std::move(kept);
    } else if (added.size() <= placeAtOnceRows) {
        // Equal rows in arrival order, as a full sort would leave them.
        const ResultSorter sorter(m_results->store(), ResultsModel::Column(m_sortColumn), m_sortOrder);
        const auto before = [&sorter](int value, int element) {
            return sorter.rowLess(value, element) || (!sorter.rowLess(element, value) && value < element);
        };
        m_rows = withRowsPlaced(kept, sorter.sorted(added), before);
    } else {
        m_rows = std::move(kept);
        m_rows.insert(m_rows.end(), added.cbegin(), added.cend());
    }
    dropReverseMap();
    endResetModel();
    if (!all.empty()) {
        m_pendingSort = std::make_unique<SlicedSorter>(m_results->store(), ResultsModel::Column(m_sortColumn),
                                                       m_sortOrder, std::move(all));
        continueSort();
    }
}

void ResultFilterSortModel::onRowsInserted(const QModelIndex &parent, int first, int last) {
    if (parent.isValid())
        return;
    // Source rows are appended only: extend the reverse map (if it is kept), then insert the accepted ones.
    if (!m_proxyRowsStale)
        m_proxyRows.resize(size_t(last) + 1, -1);
    std::vector<int> accepted;
    for (int row = first; row <= last; ++row) {
        if (acceptsSourceRow(row))
            accepted.push_back(row);
    }
    if (accepted.empty())
        return;
    if (m_sortColumn >= 0 && !m_pendingSort) {
        insertSorted(std::move(accepted));
        return;
    }
    if (m_pendingSort)
        m_rowsDuringSort.insert(m_rowsDuringSort.end(), accepted.cbegin(), accepted.cend());
    const int proxyFirst = int(m_rows.size());
    beginInsertRows({}, proxyFirst, proxyFirst + int(accepted.size()) - 1);
    for (const int row : accepted) {
        if (!m_proxyRowsStale)
            m_proxyRows[size_t(row)] = int(m_rows.size());
        m_rows.push_back(row);
    }
    endInsertRows();
}

// The batch is sorted on its own and each row placed after the last row that does not sort after it
// (equal rows keep arrival order). The view sees an append, then one layout change moving the rows into
// place, which carries its persistent indexes (selection, current row) along arithmetically: nothing
// here walks the whole row set except one block copy of the row vector.
void ResultFilterSortModel::insertSorted(std::vector<int> rows) {
    pinTextsToPlace(rows.size());
    const ResultSorter sorter(m_results->store(), ResultsModel::Column(m_sortColumn), m_sortOrder);
    const std::vector<int> added = sorter.sorted(rows);
    const size_t oldCount = m_rows.size();
    const size_t addedCount = added.size();
    std::vector<size_t> before(addedCount); // added[i] goes before old row before[i]
    auto from = m_rows.cbegin();
    for (size_t i = 0; i < addedCount; ++i) {
        from = std::upper_bound(from, m_rows.cbegin() + qsizetype(oldCount), added[i],
                                [&sorter](int value, int element) { return sorter.rowLess(value, element); });
        before[i] = size_t(from - m_rows.cbegin());
    }

    beginInsertRows({}, int(oldCount), int(oldCount + addedCount) - 1);
    for (size_t i = 0; i < addedCount; ++i) {
        if (!m_proxyRowsStale)
            m_proxyRows[size_t(added[i])] = int(oldCount + i);
        m_rows.push_back(added[i]);
    }
    endInsertRows();

    Q_EMIT layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
    std::vector<int> merged(oldCount + addedCount);
    size_t copied = 0;
    size_t out = 0;
    for (size_t i = 0; i < addedCount; ++i) {
        out = size_t(std::copy(m_rows.cbegin() + qsizetype(copied), m_rows.cbegin() + qsizetype(before[i]),
                               merged.begin() + qsizetype(out)) -
                     merged.begin());
        copied = before[i];
        merged[out++] = added[i];
    }
    std::copy(m_rows.cbegin() + qsizetype(copied), m_rows.cbegin() + qsizetype(oldCount),
              merged.begin() + qsizetype(out));
    auto newPosition = [&](int proxyRow) {
        if (size_t(proxyRow) >= oldCount) {
            const size_t i = size_t(proxyRow) - oldCount;
            return int(before[i] + i);
        }
        return proxyRow +
               int(std::upper_bound(before.cbegin(), before.cend(), size_t(proxyRow)) - before.cbegin());
    };
    const QModelIndexList persistent = persistentIndexList();
    QModelIndexList moved;
    moved.reserve(persistent.size());
    for (const QModelIndex &idx : persistent)
        moved.append(createIndex(newPosition(idx.row()), idx.column()));
    m_rows = std::move(merged);
    dropReverseMap();
    changePersistentIndexList(persistent, moved);
    Q_EMIT layoutChanged({}, QAbstractItemModel::VerticalSortHint);
}

// Replaced rows (retries) move to where their new values sort. All of them are taken out and placed again
// (by binary search among the rest, one merge): judging each by its neighbours alone misses a neighbour that
// changed too (two retried rows side by side).
void ResultFilterSortModel::resortRows(const std::vector<int> &proxyRows) {
    pinTextsToPlace(proxyRows.size());
    const ResultSorter sorter(m_results->store(), ResultsModel::Column(m_sortColumn), m_sortOrder);
    // A row replaced twice while a sort ran is listed twice: it moves once.
    std::vector<char> isMoving(size_t(m_results->rowCount()), 0);
    std::vector<int> moving;
    moving.reserve(proxyRows.size());
    for (const int proxyRow : proxyRows) {
        const int row = m_rows[size_t(proxyRow)];
        if (!isMoving[size_t(row)]) {
            isMoving[size_t(row)] = 1;
            moving.push_back(row);
        }
    }
    if (moving.empty())
        return;
    std::vector<int> rest = m_rows;
    std::erase_if(rest, [&isMoving](int row) { return isMoving[size_t(row)] != 0; });
    std::vector<int> rows = withRowsPlaced(rest, sorter.sorted(moving), [&sorter](int value, int element) {
        return sorter.rowLess(value, element);
    });
    if (rows != m_rows)
        setRowOrder(std::move(rows));
}

void ResultFilterSortModel::onDataChanged(const QModelIndex &topLeft, const QModelIndex &bottomRight,
                                          const QList<int> &roles) {
    // Only replacements (retried URLs) change data; they may move a row into or out of the filter.
    ensureReverseMap();
    int proxyFirst = -1;
    int proxyLast = -1;
    for (int row = topLeft.row(); row <= bottomRight.row(); ++row) {
        const bool was = m_proxyRows[size_t(row)] >= 0;
        if (was != acceptsSourceRow(row)) {
            refilter();
            return;
        }
        if (was) {
            const int proxyRow = m_proxyRows[size_t(row)];
            proxyFirst = proxyFirst < 0 ? proxyRow : std::min(proxyFirst, proxyRow);
            proxyLast = std::max(proxyLast, proxyRow);
        }
    }
    if (proxyFirst < 0)
        return;
    Q_EMIT dataChanged(index(proxyFirst, topLeft.column()), index(proxyLast, bottomRight.column()), roles);
    if (m_pendingSort) {
        for (int row = topLeft.row(); row <= bottomRight.row(); ++row) {
            if (m_proxyRows[size_t(row)] >= 0)
                m_changedDuringSort.push_back(row);
        }
        return;
    }
    if (m_sortColumn >= 0) {
        std::vector<int> changed;
        for (int row = topLeft.row(); row <= bottomRight.row(); ++row) {
            if (m_proxyRows[size_t(row)] >= 0)
                changed.push_back(m_proxyRows[size_t(row)]);
        }
        resortRows(changed);
    }
}

void ResultFilterSortModel::rebuildReverseMap() const {
    m_proxyRows.assign(m_results ? size_t(m_results->rowCount()) : 0, -1);
    for (size_t proxy = 0; proxy < m_rows.size(); ++proxy)
        m_proxyRows[size_t(m_rows[proxy])] = int(proxy);
    m_proxyRowsStale = false;
}

void ResultFilterSortModel::dropReverseMap() {
    std::vector<int>().swap(m_proxyRows);
    m_proxyRowsStale = true;
}

void ResultFilterSortModel::ensureReverseMap() const {
    if (m_proxyRowsStale)
        rebuildReverseMap();
}

void ResultFilterSortModel::sort(int column, Qt::SortOrder order) {
    if (!m_results || column >= ResultsModel::ColumnCount)
        return;
    cancelPendingSort();
    if (column < 0) {
        // No sort (the header's indicator cleared): back to arrival order, and new rows append. Source
        // rows are distinct and bounded: marking them is linear, where sorting a million is not.
        if (m_sortColumn < 0)
            return;
        m_sortColumn = -1;
        m_pinToPlaceRows = false;
        updatePins();
        std::vector<char> shown(size_t(m_results->rowCount()), 0);
        for (const int row : m_rows)
            shown[size_t(row)] = 1;
        std::vector<int> rows;
        rows.reserve(m_rows.size());
        for (size_t row = 0; row < shown.size(); ++row) {
            if (shown[row])
                rows.push_back(int(row));
        }
        setRowOrder(std::move(rows));
        return;
    }
    if (column != m_sortColumn)
        m_pinToPlaceRows = false; // until rows are placed into this sort's order again
    m_sortColumn = column;
    m_sortOrder = order;
    updatePins(); // before the sorter: one read of the texts (title, error) and rows held for the rows to
                  // come
    if (m_rows.size() <= kSortAtOnceRows) {
        setRowOrder(ResultSorter(m_results->store(), ResultsModel::Column(column), order).sorted(m_rows));
        return;
    }
    // A URL sort borrows the rows shown (they stay as they are until it ends; rows arriving are appended)
    // rather than copying them: 4 MB less at a million rows.
    m_pendingSort =
        std::make_unique<SlicedSorter>(m_results->store(), ResultsModel::Column(column), order, &m_rows);
    continueSort();
}

int ResultFilterSortModel::sortProgressPercent() const {
    return m_pendingSort ? m_pendingSort->progressPercent() : 100;
}

void ResultFilterSortModel::continueSort() {
    if (!m_pendingSort)
        return;
    if (!m_pendingSort->step(m_sortBudgetNs)) {
        Q_EMIT sortProgressChanged(m_pendingSort->progressPercent());
        m_sortTurn.start();
        return;
    }
    std::vector<int> rows = m_pendingSort->take();
    m_pendingSort.reset();
    if (!m_changedDuringSort.empty() && ResultSorter::sortsByText(m_sortColumn) &&
        m_sortColumn != ResultsModel::UrlColumn) {
        // A title or error replaced meanwhile was compared both ways by the merges: sort again, from this
        // nearly sorted order, with the rows that streamed in (a URL never changes; numbers were frozen).
        rows.insert(rows.end(), m_rowsDuringSort.cbegin(), m_rowsDuringSort.cend());
        m_rowsDuringSort.clear();
        m_changedDuringSort.clear();
        m_pendingSort = std::make_unique<SlicedSorter>(m_results->store(), ResultsModel::Column(m_sortColumn),
                                                       m_sortOrder, std::move(rows));
        m_sortTurn.start();
        return;
    }
    // Rows that streamed in meanwhile, and rows replaced meanwhile (ordered by their old values), are placed
    // by their values now among the rest, by binary search after the rows they tie with; the rest is in its
    // order whatever changed around it (its values did not).
    std::vector<int> placed = std::move(m_rowsDuringSort);
    m_rowsDuringSort.clear();
    if (!m_changedDuringSort.empty()) {
        std::vector<char> changed(size_t(m_results->rowCount()), 0);
        for (const int row : m_changedDuringSort)
            changed[size_t(row)] = 1;
        m_changedDuringSort.clear();
        std::erase_if(rows, [&](int row) {
            if (!changed[size_t(row)])
                return false;
            changed[size_t(row)] = 0; // once, however often it was replaced
            placed.push_back(row);
            return true;
        });
    }
    if (!placed.empty()) {
        pinTextsToPlace(placed.size());
        const ResultSorter sorter(m_results->store(), ResultsModel::Column(m_sortColumn), m_sortOrder);
        rows = withRowsPlaced(rows, sorter.sorted(placed),
                              [&sorter](int value, int element) { return sorter.rowLess(value, element); });
    }
    setRowOrder(std::move(rows));
    Q_EMIT sortProgressChanged(100);
}

void ResultFilterSortModel::cancelPendingSort() {
    if (!m_pendingSort)
        return;
    m_pendingSort.reset();
    m_sortTurn.stop();
    m_rowsDuringSort.clear();
    m_changedDuringSort.clear();
    Q_EMIT sortProgressChanged(100);
}

// A layout change that keeps the views' persistent indexes (selection, current row) on their rows.
void ResultFilterSortModel::setRowOrder(std::vector<int> rows) {
    Q_EMIT layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
    const QModelIndexList persistent = persistentIndexList();
    std::vector<int> persistentSource;
    persistentSource.reserve(size_t(persistent.size()));
    for (const QModelIndex &idx : persistent)
        persistentSource.push_back(m_rows[size_t(idx.row())]);
    m_rows = std::move(rows);
    QModelIndexList moved;
    if (!persistent.isEmpty()) {
        rebuildReverseMap();
        moved.reserve(persistent.size());
        for (qsizetype i = 0; i < persistent.size(); ++i)
            moved.append(index(m_proxyRows[size_t(persistentSource[size_t(i)])], persistent[i].column()));
    }
    dropReverseMap();
    changePersistentIndexList(persistent, moved);
    Q_EMIT layoutChanged({}, QAbstractItemModel::VerticalSortHint);
}

int ResultFilterSortModel::rowCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : int(m_rows.size());
}

int ResultFilterSortModel::columnCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : ResultsModel::ColumnCount;
}

QModelIndex ResultFilterSortModel::index(int row, int column, const QModelIndex &parent) const {
    if (parent.isValid() || row < 0 || column < 0 || row >= rowCount() || column >= columnCount())
        return {};
    return createIndex(row, column);
}

QModelIndex ResultFilterSortModel::parent(const QModelIndex &) const {
    return {};
}

QModelIndex ResultFilterSortModel::sibling(int row, int column, const QModelIndex &) const {
    return index(row, column);
}

bool ResultFilterSortModel::hasChildren(const QModelIndex &parent) const {
    return !parent.isValid() && !m_rows.empty();
}

QModelIndex ResultFilterSortModel::mapToSource(const QModelIndex &proxyIndex) const {
    if (!m_results || !proxyIndex.isValid() || proxyIndex.model() != this)
        return {};
    return m_results->index(m_rows[size_t(proxyIndex.row())], proxyIndex.column());
}

QModelIndex ResultFilterSortModel::mapFromSource(const QModelIndex &sourceIndex) const {
    if (!sourceIndex.isValid() || sourceIndex.model() != m_results)
        return {};
    ensureReverseMap();
    if (size_t(sourceIndex.row()) >= m_proxyRows.size())
        return {};
    const int proxyRow = m_proxyRows[size_t(sourceIndex.row())];
    return proxyRow < 0 ? QModelIndex() : index(proxyRow, sourceIndex.column());
}

QVariant ResultFilterSortModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation == Qt::Horizontal && m_results)
        return m_results->headerData(section, orientation, role);
    return QAbstractProxyModel::headerData(section, orientation, role);
}

} // namespace ui
