#include "models/resultfiltermodel.h"

#include "models/resultsmodel.h"

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

// Sort keys: two 64-bit words compared first (numbers, string ranks, or 16 bytes of text after the
// prefix every row shares), then the row's position before the sort (a stable sort).
struct SortKey {
    quint64 a = 0;
    quint64 b = 0;
    int position = 0;
    int row = 0;
};

quint64 orderedBits(qint64 value) {
    return quint64(value) ^ (quint64(1) << 63);
}

quint64 bigEndianWord(QByteArrayView bytes, qsizetype from) {
    quint64 word = 0;
    for (qsizetype i = 0; i < 8; ++i)
        word = (word << 8) | quint64(quint8(from + i < bytes.size() ? bytes[from + i] : 0));
    return word;
}

} // namespace

ResultFilterModel::ResultFilterModel(QObject *parent)
    : QAbstractProxyModel(parent) {}

void ResultFilterModel::setResultsModel(ResultsModel *model) {
    beginResetModel();
    if (m_results)
        disconnect(m_results, nullptr, this, nullptr);
    m_results = model;
    QAbstractProxyModel::setSourceModel(model);
    if (model) {
        connect(model, &QAbstractItemModel::rowsInserted, this, &ResultFilterModel::onRowsInserted);
        connect(model, &QAbstractItemModel::dataChanged, this, &ResultFilterModel::onDataChanged);
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

void ResultFilterModel::setOutcomeMask(quint32 mask) {
    if (mask == m_outcomeMask)
        return;
    m_outcomeMask = mask;
    refilter();
}

void ResultFilterModel::setFailuresOnly(bool on) {
    if (on == m_failuresOnly)
        return;
    m_failuresOnly = on;
    refilter();
}

void ResultFilterModel::setTextFilter(const QString &text) {
    const QString trimmed = text.trimmed();
    if (trimmed == m_text)
        return;
    m_text = trimmed;
    m_textLatin1 = isAscii(m_text) ? m_text.toLatin1().toLower() : QByteArray();
    m_stringMatches.clear();
    refilter();
}

bool ResultFilterModel::acceptsSourceRow(int sourceRow) const {
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

void ResultFilterModel::refilterRows() {
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

void ResultFilterModel::refilter() {
    beginResetModel();
    refilterRows();
    endResetModel();
    Q_EMIT sortInvalidated();
}

void ResultFilterModel::onRowsInserted(const QModelIndex &parent, int first, int last) {
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

void ResultFilterModel::onDataChanged(const QModelIndex &topLeft, const QModelIndex &bottomRight,
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

void ResultFilterModel::rebuildReverseMap() {
    std::fill(m_proxyRows.begin(), m_proxyRows.end(), -1);
    for (size_t proxy = 0; proxy < m_rows.size(); ++proxy)
        m_proxyRows[size_t(m_rows[proxy])] = int(proxy);
}

void ResultFilterModel::sort(int column, Qt::SortOrder order) {
    if (!m_results || column < 0 || column >= ResultsModel::ColumnCount)
        return;
    const ResultStore &store = m_results->store();
    const auto col = ResultsModel::Column(column);

    // Rank the interned strings once, so host and content type sort as integers.
    std::vector<quint32> ranks;
    if (col == ResultsModel::HostColumn || col == ResultsModel::ContentTypeColumn) {
        std::vector<quint32> ids(size_t(store.stringCount()));
        for (size_t i = 0; i < ids.size(); ++i)
            ids[i] = quint32(i);
        std::sort(ids.begin(), ids.end(),
                  [&store](quint32 x, quint32 y) { return store.string(x) < store.string(y); });
        ranks.resize(ids.size());
        for (size_t i = 0; i < ids.size(); ++i)
            ranks[ids[i]] = quint32(i);
    }
    // URLs of one crawl share a long prefix ("https://"): the key words start after it.
    qsizetype shared = 0;
    if (col == ResultsModel::UrlColumn && !m_rows.empty()) {
        const QByteArrayView first = store.urlUtf8(m_rows.front());
        shared = first.size();
        for (const int row : m_rows) {
            const QByteArrayView url = store.urlUtf8(row);
            qsizetype n = 0;
            while (n < shared && n < url.size() && url[n] == first[n])
                ++n;
            shared = n;
            if (shared == 0)
                break;
        }
    }

    std::vector<SortKey> keys(m_rows.size());
    for (size_t i = 0; i < m_rows.size(); ++i) {
        const int row = m_rows[i];
        const ResultStore::Row &r = store.row(row);
        SortKey &key = keys[i];
        key.position = int(i);
        key.row = row;
        switch (col) {
        case ResultsModel::LineColumn:
            key.a = orderedBits(r.lineNumber);
            break;
        case ResultsModel::UrlColumn: {
            const QByteArrayView url = store.urlUtf8(row);
            key.a = bigEndianWord(url, shared);
            key.b = bigEndianWord(url, shared + 8);
            break;
        }
        case ResultsModel::HostColumn:
            key.a = ranks[r.hostId];
            break;
        case ResultsModel::OutcomeColumn:
            key.a = r.outcome;
            break;
        case ResultsModel::StatusColumn:
            key.a = r.status;
            break;
        case ResultsModel::AttemptsColumn:
            key.a = r.attempts;
            break;
        case ResultsModel::LatencyColumn:
            key.a = orderedBits(r.latencyMs);
            break;
        case ResultsModel::BytesColumn:
            key.a = orderedBits(r.bytes);
            break;
        case ResultsModel::ContentTypeColumn:
            key.a = ranks[r.contentTypeId];
            break;
        case ResultsModel::ErrorColumn:
            key.a = r.extraIndex >= 0 ? 1 : 0;
            break; // then the text, below
        case ResultsModel::FinishedColumn:
            key.a = orderedBits(r.finishedAtMs);
            break;
        case ResultsModel::ColumnCount:
            break;
        }
    }
    const bool descending = order == Qt::DescendingOrder;
    auto less = [descending](const SortKey &x, const SortKey &y) {
        if (x.a != y.a)
            return descending ? x.a > y.a : x.a < y.a;
        if (x.b != y.b)
            return descending ? x.b > y.b : x.b < y.b;
        return x.position < y.position; // stable whatever the direction
    };
    std::sort(keys.begin(), keys.end(), less);

    if (col == ResultsModel::UrlColumn) {
        // Runs that tie on 16 bytes are re-keyed with the next 16 and sorted again (a most-significant-
        // digit radix refinement): every comparison stays on two integers in contiguous memory.
        struct Run {
            size_t from, to;
            qsizetype offset;
        };
        std::vector<Run> pending{{0, keys.size(), shared + 16}};
        while (!pending.empty()) {
            const Run run = pending.back();
            pending.pop_back();
            for (size_t i = run.from; i < run.to;) {
                size_t j = i + 1;
                while (j < run.to && keys[j].a == keys[i].a && keys[j].b == keys[i].b)
                    ++j;
                bool longer = false;
                for (size_t k = i; j - i > 1 && k < j && !longer; ++k)
                    longer = store.urlUtf8(keys[k].row).size() > run.offset;
                if (longer) {
                    for (size_t k = i; k < j; ++k) {
                        const QByteArrayView url = store.urlUtf8(keys[k].row);
                        keys[k].a = bigEndianWord(url, run.offset);
                        keys[k].b = bigEndianWord(url, run.offset + 8);
                    }
                    std::sort(keys.begin() + qsizetype(i), keys.begin() + qsizetype(j), less);
                    pending.push_back({i, j, run.offset + 16});
                }
                i = j;
            }
        }
    } else if (col == ResultsModel::ErrorColumn) {
        // Rows with an error text form one run (key 1): order it by the text.
        const auto begin = std::find_if(keys.begin(), keys.end(), [](const SortKey &k) { return k.a == 1; });
        const auto end = std::find_if(begin, keys.end(), [](const SortKey &k) { return k.a != 1; });
        std::stable_sort(begin, end, [&store, descending](const SortKey &x, const SortKey &y) {
            const int c = store.error(x.row).compare(store.error(y.row));
            return descending ? c > 0 : c < 0;
        });
    }

    Q_EMIT layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
    const QModelIndexList persistent = persistentIndexList();
    std::vector<int> persistentSource;
    persistentSource.reserve(size_t(persistent.size()));
    for (const QModelIndex &idx : persistent)
        persistentSource.push_back(m_rows[size_t(idx.row())]);
    for (size_t i = 0; i < keys.size(); ++i)
        m_rows[i] = keys[i].row;
    rebuildReverseMap();
    QModelIndexList moved;
    moved.reserve(persistent.size());
    for (qsizetype i = 0; i < persistent.size(); ++i)
        moved.append(index(m_proxyRows[size_t(persistentSource[size_t(i)])], persistent[i].column()));
    changePersistentIndexList(persistent, moved);
    m_sortColumn = column;
    m_sortOrder = order;
    Q_EMIT layoutChanged({}, QAbstractItemModel::VerticalSortHint);
}

int ResultFilterModel::rowCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : int(m_rows.size());
}

int ResultFilterModel::columnCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : ResultsModel::ColumnCount;
}

QModelIndex ResultFilterModel::index(int row, int column, const QModelIndex &parent) const {
    if (parent.isValid() || row < 0 || column < 0 || row >= rowCount() || column >= columnCount())
        return {};
    return createIndex(row, column);
}

QModelIndex ResultFilterModel::parent(const QModelIndex &) const {
    return {};
}

QModelIndex ResultFilterModel::sibling(int row, int column, const QModelIndex &) const {
    return index(row, column);
}

bool ResultFilterModel::hasChildren(const QModelIndex &parent) const {
    return !parent.isValid() && !m_rows.empty();
}

QModelIndex ResultFilterModel::mapToSource(const QModelIndex &proxyIndex) const {
    if (!m_results || !proxyIndex.isValid() || proxyIndex.model() != this)
        return {};
    return m_results->index(m_rows[size_t(proxyIndex.row())], proxyIndex.column());
}

QModelIndex ResultFilterModel::mapFromSource(const QModelIndex &sourceIndex) const {
    if (!sourceIndex.isValid() || size_t(sourceIndex.row()) >= m_proxyRows.size())
        return {};
    const int proxyRow = m_proxyRows[size_t(sourceIndex.row())];
    return proxyRow < 0 ? QModelIndex() : index(proxyRow, sourceIndex.column());
}

QVariant ResultFilterModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation == Qt::Horizontal && m_results)
        return m_results->headerData(section, orientation, role);
    return QAbstractProxyModel::headerData(section, orientation, role);
}

} // namespace ui
