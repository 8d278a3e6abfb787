#include "models/resultfiltersortmodel.h"

#include "models/resultsmodel.h"
#include "models/resultsorter.h"

#include <QLatin1StringView>

#include <algorithm>

namespace ui {

namespace {

bool isAscii(const QString &text) {
    return std::all_of(text.cbegin(), text.cend(), [](QChar c) { return c.unicode() < 0x80; });
}

inline char asciiLower(char c) {
    return c >= 'A' && c <= 'Z' ? char(c + ('a' - 'A')) : c;
}

// ASCII case-insensitive substring search; `needle` is lower-case and non-empty. Bytes >= 0x80 (UTF-8
// sequences) only ever match themselves, so an ASCII needle finds exactly its ASCII matches.
bool containsFolded(QByteArrayView hay, QByteArrayView needle) {
    const qsizetype n = needle.size();
    const char first = needle[0];
    for (qsizetype i = 0, last = hay.size() - n; i <= last; ++i) {
        if (asciiLower(hay[i]) != first)
            continue;
        qsizetype j = 1;
        while (j < n && asciiLower(hay[i + j]) == needle[j])
            ++j;
        if (j == n)
            return true;
    }
    return false;
}

} // namespace

ResultFilterSortModel::ResultFilterSortModel(QObject *parent)
    : QAbstractProxyModel(parent) {}

void ResultFilterSortModel::setResultsModel(ResultsModel *model) {
    beginResetModel();
    if (m_results)
        disconnect(m_results, nullptr, this, nullptr);
    m_results = model;
    QAbstractProxyModel::setSourceModel(model);
    if (model) {
        connect(model, &QAbstractItemModel::rowsInserted, this, &ResultFilterSortModel::onRowsInserted);
        connect(model, &QAbstractItemModel::dataChanged, this, &ResultFilterSortModel::onDataChanged);
        connect(model, &QAbstractItemModel::modelAboutToBeReset, this, [this] { beginResetModel(); });
        connect(model, &QAbstractItemModel::modelReset, this, [this] {
            m_rows.clear();
            m_proxyRows.clear();
            refilterRows();
            endResetModel();
        });
        // ResultsModel never removes or moves rows; anything else is a programming error caught by
        // the model tester in the tests.
    }
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
    const QString trimmed = text.trimmed();
    if (trimmed == m_text)
        return;
    m_text = trimmed;
    m_textLatin1 = isAscii(m_text) ? m_text.toLatin1().toLower() : QByteArray();
    m_stringMatches.clear();
    refilter();
}

bool ResultFilterSortModel::acceptsSourceRow(int sourceRow) const {
    const ResultStore &store = m_results->store();
    const crawl::Outcome outcome = store.outcome(sourceRow);
    if (!(m_outcomeMask & (1u << unsigned(outcome))))
        return false;
    if (m_failuresOnly && !crawl::isFailure(outcome))
        return false;
    if (m_text.isEmpty())
        return true;
    if (!m_textLatin1.isEmpty()) {
        if (containsFolded(store.urlUtf8(sourceRow), QByteArrayView(m_textLatin1)))
            return true;
    } else if (store.url(sourceRow).contains(m_text, Qt::CaseInsensitive)) {
        return true;
    }
    // Hosts are interned: each distinct host is matched once, not once per row.
    const quint32 hostId = store.row(sourceRow).hostId;
    if (hostId >= m_stringMatches.size())
        m_stringMatches.resize(size_t(store.stringCount()), -1);
    qint8 &hostMatch = m_stringMatches[hostId];
    if (hostMatch < 0)
        hostMatch = store.string(hostId).contains(m_text, Qt::CaseInsensitive) ? 1 : 0;
    if (hostMatch)
        return true;
    return store.row(sourceRow).extraIndex >= 0 &&
           store.error(sourceRow).contains(m_text, Qt::CaseInsensitive);
}

void ResultFilterSortModel::refilterRows() {
    m_rows.clear();
    if (!m_results)
        return;
    const int count = m_results->rowCount();
    m_proxyRows.assign(size_t(count), -1);
    for (int row = 0; row < count; ++row) {
        if (acceptsSourceRow(row)) {
            m_proxyRows[size_t(row)] = int(m_rows.size());
            m_rows.push_back(row);
        }
    }
    m_sortColumn = -1;
}

void ResultFilterSortModel::refilter() {
    beginResetModel();
    refilterRows();
    endResetModel();
    Q_EMIT sortInvalidated();
}

void ResultFilterSortModel::onRowsInserted(const QModelIndex &parent, int first, int last) {
    if (parent.isValid())
        return;
    // Source rows are appended only: extend the reverse map, then insert the accepted ones at the end.
    m_proxyRows.resize(size_t(last) + 1, -1);
    std::vector<int> accepted;
    for (int row = first; row <= last; ++row) {
        if (acceptsSourceRow(row))
            accepted.push_back(row);
    }
    if (accepted.empty())
        return;
    const int proxyFirst = int(m_rows.size());
    beginInsertRows({}, proxyFirst, proxyFirst + int(accepted.size()) - 1);
    for (const int row : accepted) {
        m_proxyRows[size_t(row)] = int(m_rows.size());
        m_rows.push_back(row);
    }
    endInsertRows();
    if (m_sortColumn >= 0) {
        m_sortColumn = -1;
        Q_EMIT sortInvalidated();
    }
}

void ResultFilterSortModel::onDataChanged(const QModelIndex &topLeft, const QModelIndex &bottomRight,
                                          const QList<int> &roles) {
    // Only replacements (retried URLs) change data; they may move a row into or out of the filter.
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
    if (proxyFirst >= 0)
        Q_EMIT dataChanged(index(proxyFirst, topLeft.column()), index(proxyLast, bottomRight.column()),
                           roles);
}

void ResultFilterSortModel::rebuildReverseMap() {
    std::fill(m_proxyRows.begin(), m_proxyRows.end(), -1);
    for (size_t proxy = 0; proxy < m_rows.size(); ++proxy)
        m_proxyRows[size_t(m_rows[proxy])] = int(proxy);
}

void ResultFilterSortModel::sort(int column, Qt::SortOrder order) {
    if (!m_results || column < 0 || column >= ResultsModel::ColumnCount)
        return;
    setRowOrder(ResultSorter(m_results->store(), ResultsModel::Column(column), order).sorted(m_rows));
    m_sortColumn = column;
    m_sortOrder = order;
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
    rebuildReverseMap();
    QModelIndexList moved;
    moved.reserve(persistent.size());
    for (qsizetype i = 0; i < persistent.size(); ++i)
        moved.append(index(m_proxyRows[size_t(persistentSource[size_t(i)])], persistent[i].column()));
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
    if (!sourceIndex.isValid() || size_t(sourceIndex.row()) >= m_proxyRows.size())
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
