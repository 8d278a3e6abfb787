#include "models/resultsorter.h"

#include "models/resultstore.h"

#include <QScopeGuard>

#include <algorithm>

namespace ui {

namespace {

// Signed numbers as unsigned words that compare in the same order.
quint64 orderedBits(qint64 value) {
    return quint64(value) ^ (quint64(1) << 63);
}

// Eight bytes from `from` as one word that compares like the bytes (zero past the end).
quint64 bigEndianWord(QByteArrayView bytes, qsizetype from) {
    quint64 word = 0;
    for (qsizetype i = 0; i < 8; ++i)
        word = (word << 8) | quint64(quint8(from + i < bytes.size() ? bytes[from + i] : 0));
    return word;
}

} // namespace

ResultSorter::ResultSorter(const ResultStore &store, ResultsModel::Column column, Qt::SortOrder order,
                           bool pinTexts)
    : m_store(store)
    , m_column(column)
    , m_descending(order == Qt::DescendingOrder)
    , m_pinsTexts(pinTexts && sortsByText(column)) {
    m_copiesTexts = m_pinsTexts && column != ResultsModel::ErrorColumn && m_store.texts().isSpilling() &&
                    !m_store.texts().isPinned();
    if (m_copiesTexts)
        m_pinsTexts = false;
    if (m_pinsTexts)
        m_store.pinTexts();
}

ResultSorter::~ResultSorter() {
    if (m_pinsTexts)
        m_store.unpinTexts();
}

std::vector<int> ResultSorter::sorted(const std::vector<int> &rows) const {
    // Too many rows to copy their texts: every text in memory for this sort, as the one-off it is.
    const bool pinNow = m_copiesTexts && rows.size() > kMaxCopiedRows;
    if (pinNow)
        m_store.pinTexts();
    else if (m_copiesTexts)
        copyTexts(rows);
    const auto unpin = qScopeGuard([&] {
        if (pinNow)
            m_store.unpinTexts();
    });
    const qsizetype shared = m_column == ResultsModel::UrlColumn ? sharedUrlPrefix(rows) : 0;
    std::vector<Key> keys = makeKeys(rows, shared);
    std::sort(keys.begin(), keys.end(), [this](const Key &x, const Key &y) { return less(x, y); });
    if (m_column == ResultsModel::UrlColumn)
        refineUrlTies(&keys, shared + 16);
    else if (m_column == ResultsModel::ErrorColumn)
        sortErrorTexts(&keys);
    else if (m_column == ResultsModel::TitleColumn)
        refineTitleTies(&keys);
    std::vector<int> result(keys.size());
    for (size_t i = 0; i < keys.size(); ++i)
        result[i] = keys[i].row;
    return result;
}

// The texts of `rows`, in store order (the arena's order), each with one small read when spilled.
void ResultSorter::copyTexts(const std::vector<int> &rows) const {
    std::vector<int> byRow(rows);
    std::sort(byRow.begin(), byRow.end());
    byRow.erase(std::unique(byRow.begin(), byRow.end()), byRow.end());
    m_copied.clear();
    m_copied.reserve(byRow.size());
    m_copiedBytes.clear();
    QByteArray text;
    for (const int row : byRow) {
        if (m_column == ResultsModel::UrlColumn)
            m_store.readUrlUtf8(row, &text);
        else
            m_store.readTitleUtf8(row, &text);
        m_copied.push_back({row, m_copiedBytes.size(), text.size()});
        m_copiedBytes.append(text);
    }
}

QByteArrayView ResultSorter::sortText(int row) const {
    if (!m_copiesTexts)
        return m_column == ResultsModel::UrlColumn ? m_store.urlUtf8(row) : m_store.titleUtf8(row);
    const auto copied = std::lower_bound(m_copied.cbegin(), m_copied.cend(), row,
                                         [](const CopiedText &text, int r) { return text.row < r; });
    if (copied != m_copied.cend() && copied->row == row)
        return QByteArrayView(m_copiedBytes.constData() + copied->from, copied->size);
    QByteArray &read = m_reads[m_nextRead];
    m_nextRead = (m_nextRead + 1) % m_reads.size();
    if (m_column == ResultsModel::UrlColumn)
        m_store.readUrlUtf8(row, &read);
    else
        m_store.readTitleUtf8(row, &read);
    return read;
}

quint64 ResultSorter::columnKey(const ResultStore &store, int column, qsizetype i, const ResultRow &r) {
    switch (ResultsModel::Column(column)) {
    case ResultsModel::LineColumn:
        return orderedBits(store.lineNumber(i, r));
    case ResultsModel::HostColumn:
        return r.hostId;
    case ResultsModel::OutcomeColumn:
        return r.outcome;
    case ResultsModel::StatusColumn:
        return r.status;
    case ResultsModel::AttemptsColumn:
        return r.attempts;
    case ResultsModel::LatencyColumn:
        return orderedBits(r.latencyMs);
    case ResultsModel::BytesColumn:
        return orderedBits(r.bytes);
    case ResultsModel::ContentTypeColumn:
        return r.contentTypeId;
    case ResultsModel::FinishedColumn:
        return orderedBits(r.finishedAtMs);
    case ResultsModel::AcceptedColumn:
        return quint64(ResultStore::accepted(r)); // unknown, yes, no
    case ResultsModel::RejectReasonColumn:
        return r.rejectReasonId;
    case ResultsModel::UrlColumn:
    case ResultsModel::ErrorColumn:
    case ResultsModel::TitleColumn:
    case ResultsModel::ColumnCount:
        break;
    }
    return 0;
}

namespace {

bool isInterned(ResultsModel::Column column) {
    return column == ResultsModel::HostColumn || column == ResultsModel::ContentTypeColumn ||
           column == ResultsModel::RejectReasonColumn;
}

} // namespace

bool ResultSorter::rowLess(int x, int y) const {
    const int c = compareRows(x, y);
    return m_descending ? c > 0 : c < 0;
}

int ResultSorter::compareRows(int x, int y) const {
    auto cmp = [](auto a, auto b) { return a < b ? -1 : (b < a ? 1 : 0); };
    if (sortsByKey(m_column)) {
        // One word per row: held (no row read) or made from the row; interned ids compare as their texts.
        const std::vector<quint64> *keys = heldKeys();
        const quint64 kx = keys ? (*keys)[size_t(x)] : columnKey(m_store, m_column, x, m_store.row(x));
        const quint64 ky = keys ? (*keys)[size_t(y)] : columnKey(m_store, m_column, y, m_store.row(y));
        if (!isInterned(m_column) || kx == ky)
            return cmp(kx, ky);
        return cmp(m_store.string(quint32(kx)), m_store.string(quint32(ky)));
    }
    if (m_column == ResultsModel::UrlColumn || m_column == ResultsModel::TitleColumn) {
        // Byte order of the UTF-8, as the 16-byte keys compare (URLs hold no NUL); no row read.
        return cmp(sortText(x).compare(sortText(y)), 0);
    }
    // The error column: rows without one first, then by the text.
    const ResultStore::Row rx = m_store.row(x);
    const ResultStore::Row ry = m_store.row(y);
    const int hasX = rx.extraIndex >= 0 ? 1 : 0;
    const int hasY = ry.extraIndex >= 0 ? 1 : 0;
    if (hasX != hasY || !hasX)
        return cmp(hasX, hasY);
    return cmp(m_store.error(rx).compare(m_store.error(ry)), 0);
}

bool ResultSorter::less(const Key &x, const Key &y) const {
    if (x.a != y.a)
        return m_descending ? x.a > y.a : x.a < y.a;
    if (x.b != y.b)
        return m_descending ? x.b > y.b : x.b < y.b;
    return x.position < y.position; // stable whatever the direction
}

std::vector<ResultSorter::Key> ResultSorter::makeKeys(const std::vector<int> &rows,
                                                      qsizetype urlPrefix) const {

    // The interned strings' ranks, computed at the first need, and again when a string interned since (a
    // row replaced during a sliced sort) has none yet: every key of one call uses the same ranks, and
    // merges compare the strings themselves.
    if (isInterned(m_column) && m_stringRanks.size() < size_t(m_store.stringCount()))
        m_stringRanks = stringRanks();
    std::vector<Key> keys(rows.size());
    if (sortsByKey(m_column)) {
        // One word per row: the held ones read no row of the store (they may be on disk, given in any order).
        const std::vector<quint64> *held = heldKeys();
        for (size_t i = 0; i < rows.size(); ++i) {
            const quint64 word =
                held ? (*held)[size_t(rows[i])] : columnKey(m_store, m_column, rows[i], m_store.row(rows[i]));
            keys[i] = Key{isInterned(m_column) ? rankOf(quint32(word)) : word, 0, int(i), rows[i]};
        }
        return keys;
    }
    for (size_t i = 0; i < rows.size(); ++i) {
        Key &key = keys[i];
        key.position = int(i);
        key.row = rows[i];
        if (m_column == ResultsModel::UrlColumn) {
            setUrlKey(&key, urlPrefix);
        } else if (m_column == ResultsModel::TitleColumn) {
            const QByteArrayView title = sortText(rows[i]);
            key.a = bigEndianWord(title, 0);
            key.b = bigEndianWord(title, 8);
        } else if (m_column == ResultsModel::ErrorColumn) {
            key.a = m_store.row(rows[i]).extraIndex >= 0 ? 1 : 0; // then the text: sortErrorTexts()
        }
    }
    return keys;
}

void ResultSorter::freezeKeys(const std::vector<int> &rows) {
    if (!sortsByKey(m_column) || rows.empty())
        return;
    if (const std::vector<quint64> *held = m_store.sortKeys(m_column)) {
        m_frozenKeys = *held; // one copy of the words the store keeps
        return;
    }
    m_frozenKeys.assign(size_t(*std::max_element(rows.cbegin(), rows.cend())) + 1, 0);
    for (const int row : rows)
        m_frozenKeys[size_t(row)] = columnKey(m_store, m_column, row, m_store.row(row));
}

const std::vector<quint64> *ResultSorter::heldKeys() const {
    if (!m_frozenKeys.empty())
        return &m_frozenKeys;
    return sortsByKey(m_column) ? m_store.sortKeys(m_column) : nullptr;
}

quint64 ResultSorter::rankOf(quint32 id) const {
    return id < m_stringRanks.size() ? m_stringRanks[id] : id;
}

// Ranks the interned strings, so host and content type sort as integers.
std::vector<quint32> ResultSorter::stringRanks() const {
    std::vector<quint32> ids(size_t(m_store.stringCount()));
    for (size_t i = 0; i < ids.size(); ++i)
        ids[i] = quint32(i);
    std::sort(ids.begin(), ids.end(),
              [this](quint32 x, quint32 y) { return m_store.string(x) < m_store.string(y); });
    std::vector<quint32> ranks(ids.size());
    for (size_t i = 0; i < ids.size(); ++i)
        ranks[ids[i]] = quint32(i);
    return ranks;
}

// URLs of one crawl share a long prefix ("https://"): the key words start after it.
qsizetype ResultSorter::sharedUrlPrefix(const std::vector<int> &rows) const {
    if (rows.empty())
        return 0;
    const QByteArrayView first = sortText(rows.front());
    qsizetype shared = first.size();
    for (const int row : rows) {
        const QByteArrayView url = sortText(row);
        qsizetype n = 0;
        while (n < shared && n < url.size() && url[n] == first[n])
            ++n;
        shared = n;
        if (shared == 0)
            break;
    }
    return shared;
}

void ResultSorter::setUrlKey(Key *key, qsizetype offset) const {
    const QByteArrayView url = sortText(key->row);
    key->a = bigEndianWord(url, offset);
    key->b = bigEndianWord(url, offset + 8);
}

// Runs that tie on 16 bytes are re-keyed with the next 16 and sorted again (a most-significant-digit
// radix refinement): every comparison stays on two integers in contiguous memory.
void ResultSorter::refineUrlTies(std::vector<Key> *keys, qsizetype offset) const {
    struct Run {
        size_t from, to;
        qsizetype offset;
    };
    std::vector<Run> pending{{0, keys->size(), offset}};
    while (!pending.empty()) {
        const Run run = pending.back();
        pending.pop_back();
        for (size_t i = run.from; i < run.to;) {
            size_t j = i + 1;
            while (j < run.to && (*keys)[j].a == (*keys)[i].a && (*keys)[j].b == (*keys)[i].b)
                ++j;
            bool longer = false;
            for (size_t k = i; j - i > 1 && k < j && !longer; ++k)
                longer = sortText((*keys)[k].row).size() > run.offset; // the URL, no row read
            if (longer) {
                for (size_t k = i; k < j; ++k)
                    setUrlKey(&(*keys)[k], run.offset);
                std::sort(keys->begin() + qsizetype(i), keys->begin() + qsizetype(j),
                          [this](const Key &x, const Key &y) { return less(x, y); });
                pending.push_back({i, j, run.offset + 16});
            }
            i = j;
        }
    }
}

// Rows with an error text form one run (key 1): order it by the text.
void ResultSorter::sortErrorTexts(std::vector<Key> *keys) const {
    const auto begin = std::find_if(keys->begin(), keys->end(), [](const Key &k) { return k.a == 1; });
    const auto end = std::find_if(begin, keys->end(), [](const Key &k) { return k.a != 1; });
    std::stable_sort(begin, end, [this](const Key &x, const Key &y) {
        const int c = m_store.error(x.row).compare(m_store.error(y.row));
        return m_descending ? c > 0 : c < 0;
    });
}

// Titles that tie on their first 16 bytes are ordered by the whole title.
void ResultSorter::refineTitleTies(std::vector<Key> *keys) const {
    for (size_t i = 0; i < keys->size();) {
        size_t j = i + 1;
        while (j < keys->size() && (*keys)[j].a == (*keys)[i].a && (*keys)[j].b == (*keys)[i].b)
            ++j;
        if (j - i > 1) {
            std::stable_sort(keys->begin() + qsizetype(i), keys->begin() + qsizetype(j),
                             [this](const Key &x, const Key &y) {
                                 const int c = sortText(x.row).compare(sortText(y.row));
                                 return m_descending ? c > 0 : c < 0;
                             });
        }
        i = j;
    }
}

} // namespace ui
