#include "models/resultstore.h"

#include <algorithm>
#include <limits>

namespace ui {

namespace {

qint64 toMs(const QDateTime &time) {
    return time.isValid() ? time.toMSecsSinceEpoch() : ResultStore::kNoTime;
}

QDateTime fromMs(qint64 ms) {
    return ms == ResultStore::kNoTime ? QDateTime() : QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC);
}

template <typename T> T clampTo(qint64 value) {
    return T(std::clamp<qint64>(value, std::numeric_limits<T>::min(), std::numeric_limits<T>::max()));
}

} // namespace

bool ResultStore::setSpillDirectory(const QString &directory) {
    const bool texts = m_texts.setSpillDirectory(directory);
    const bool rows = m_rows.setSpillDirectory(directory);
    return texts && rows;
}

QString ResultStore::spillError() const {
    const QString texts = m_texts.spillError();
    return texts.isEmpty() ? m_rows.spillError() : texts;
}

void ResultStore::holdSortKeys(int column, SortKeyFunction keyOf) const {
    for (const std::unique_ptr<HeldSortKeys> &held : m_sortKeys) {
        if (held->column == column) {
            ++held->holds;
            return;
        }
    }
    // One sweep in store order, a chunk of rows read at a time (past the read cache, which it would only
    // flush), then kept up to date by append/replace.
    auto held = std::make_unique<HeldSortKeys>(HeldSortKeys{column, 1, keyOf, {}});
    held->keys.resize(size_t(size()));
    std::vector<Row> rows(RowArena::kChunkRows);
    for (qsizetype first = 0; first < size(); first += qsizetype(rows.size())) {
        const qsizetype count = std::min(size() - first, qsizetype(rows.size()));
        m_rows.copyRows(first, count, rows.data());
        for (qsizetype k = 0; k < count; ++k)
            held->keys[size_t(first + k)] = keyOf(*this, column, first + k, rows[size_t(k)]);
    }
    m_sortKeys.push_back(std::move(held));
}

void ResultStore::releaseSortKeys(int column) const {
    for (auto it = m_sortKeys.begin(); it != m_sortKeys.end(); ++it) {
        if ((*it)->column == column) {
            if (--(*it)->holds == 0)
                m_sortKeys.erase(it);
            return;
        }
    }
    Q_ASSERT_X(false, "ResultStore::releaseSortKeys", "not held");
}

const std::vector<quint64> *ResultStore::sortKeys(int column) const {
    for (const std::unique_ptr<HeldSortKeys> &held : m_sortKeys) {
        if (held->column == column)
            return &held->keys;
    }
    return nullptr;
}

void ResultStore::updateSortKeys(qsizetype i, const Row &row) {
    for (const std::unique_ptr<HeldSortKeys> &held : m_sortKeys) {
        if (size_t(i) >= held->keys.size())
            held->keys.resize(size_t(i) + 1);
        held->keys[size_t(i)] = held->keyOf(*this, held->column, i, row);
    }
}

void ResultStore::clear() {
    for (const std::unique_ptr<HeldSortKeys> &held : m_sortKeys) { // still held: for the rows to come
        held->keys.clear();
        held->keys.shrink_to_fit();
    }
    m_rows.clear();
    m_texts.clear();
    m_extras.clear();
    m_strings.assign(1, QString());
    m_stringIds.clear();
    m_wideIds.clear();
    m_wideLines.clear();
}

void ResultStore::reserve(qsizetype rows) {
    m_rows.reserve(rows);
}

quint32 ResultStore::intern(const QString &text) {
    if (text.isEmpty())
        return 0;
    const auto it = m_stringIds.constFind(text);
    if (it != m_stringIds.cend())
        return it.value();
    const auto id = quint32(m_strings.size());
    m_strings.push_back(text);
    m_stringIds.insert(text, id);
    return id;
}

// textRef: TextArena's chunk << 32 | offset, repacked with the URL's length. Offsets in a chunk stay below
// 2^18 (TextArena::kChunkBytes); an oversized chunk holds one text, at offset 0.
static_assert(TextArena::kChunkBytes <= (size_t(1) << 18));

quint64 ResultStore::arenaRef(const Row &row) const {
    return ((row.textRef >> 42) << 32) | ((row.textRef >> 24) & 0x3ffff);
}

ResultStore::Row ResultStore::makeRow(qsizetype i, const crawl::CrawlResult &result) {
    Row row;
    m_wideIds.remove(i);
    m_wideLines.remove(i);
    if (result.id < kWide) {
        row.id32 = quint32(result.id);
    } else {
        row.id32 = kWide;
        m_wideIds.insert(i, result.id);
    }
    if (result.lineNumber >= 0 && result.lineNumber < qint64(kWide)) {
        row.line32 = quint32(result.lineNumber);
    } else {
        row.line32 = kWide;
        m_wideLines.insert(i, result.lineNumber);
    }
    row.bytes = std::clamp<qint64>(result.bytes, -(qint64(1) << 39), (qint64(1) << 39) - 1);
    row.finishedAtMs = toMs(result.finishedAt);
    if (result.startedAt.isValid() && result.finishedAt.isValid()) {
        row.startedBeforeFinishMs =
            clampTo<qint32>(result.finishedAt.toMSecsSinceEpoch() - result.startedAt.toMSecsSinceEpoch());
    } else if (result.startedAt.isValid()) { // no finish time (not expected): keep the start in its place
        row.finishedAtMs = result.startedAt.toMSecsSinceEpoch();
        row.flags |= kStartOnly;
    }
    const QByteArray url = result.url.toUtf8();
    const size_t length = std::min<size_t>(size_t(url.size()), (size_t(1) << 24) - 1);
    const QByteArray title = result.title.toUtf8();
    const size_t titleLength = std::min<size_t>(size_t(title.size()), 0xffff);
    const bool finalIsUrl = !result.finalUrl.isEmpty() && result.finalUrl == result.url;
    const bool finalDiffers = !result.finalUrl.isEmpty() && !finalIsUrl;
    if (finalIsUrl)
        row.flags |= kFinalIsUrl;
    const QByteArray finalUrl = finalDiffers ? result.finalUrl.toUtf8() : QByteArray();
    const QByteArray error = result.error.toUtf8();
    const QByteArray chain = result.redirectChain.join(QLatin1Char('\n')).toUtf8();
    const QByteArray warning = result.warning.toUtf8();
    if (!finalUrl.isEmpty() || !error.isEmpty() || !result.redirectChain.isEmpty() || !warning.isEmpty()) {
        row.extraIndex = qint32(m_extras.size());
        m_extras.push_back({quint32(finalUrl.size()), quint32(error.size()),
                            result.redirectChain.isEmpty() ? 0 : quint32(chain.size()) + 1,
                            quint32(warning.size())});
    }
    if (length + titleLength + size_t(finalUrl.size() + error.size() + chain.size() + warning.size()) > 0) {
        const quint64 ref = m_texts.append({QByteArrayView(url).first(qsizetype(length)),
                                            QByteArrayView(title).first(qsizetype(titleLength)), finalUrl,
                                            error, chain, warning});
        Q_ASSERT((ref & 0xffffffffu) < (quint64(1) << 18) && (ref >> 32) < (quint64(1) << 22));
        row.textRef = ((ref >> 32) << 42) | ((ref & 0x3ffff) << 24) | quint64(length);
    }
    row.titleLength = quint32(titleLength);
    row.flags |= (quint32(result.accepted) & 3) << kAcceptedShift;
    row.rejectReasonId = intern(result.rejectReason);
    row.hostId = intern(result.host);
    row.contentTypeId = intern(result.contentType);
    row.latencyMs = clampTo<qint32>(result.latencyMs);
    row.ttfbMs = clampTo<qint32>(result.ttfbMs);
    row.status = clampTo<quint16>(result.status);
    row.outcome = quint32(result.outcome) & 0xf;
    row.attempts = clampTo<quint8>(result.attempts);
    row.redirects = clampTo<quint8>(result.redirects);
    return row;
}

void ResultStore::append(const crawl::CrawlResult &result) {
    const qsizetype i = m_rows.size();
    const Row row = makeRow(i, result);
    m_rows.append(row);
    if (!m_sortKeys.empty())
        updateSortKeys(i, row);
}

void ResultStore::replace(qsizetype i, const crawl::CrawlResult &result) {
    // The old texts stay in the arena: replacements (retries) are rare.
    const Row row = makeRow(i, result);
    m_rows.replace(i, row);
    if (!m_sortKeys.empty())
        updateSortKeys(i, row);
}

QByteArrayView ResultStore::urlUtf8(const Row &r) const {
    return m_texts.view(arenaRef(r), qsizetype(r.urlLength()));
}

QString ResultStore::url(qsizetype i) const {
    return urlOf(row(i));
}

QString ResultStore::urlOf(const Row &r) const {
    return QString::fromUtf8(urlUtf8(r));
}

QByteArrayView ResultStore::titleUtf8(qsizetype i) const {
    const Row r = row(i);
    return m_texts.view(arenaRef(r) + r.urlLength(), qsizetype(r.titleLength)); // right after the URL
}

QByteArrayView ResultStore::urlUtf8(qsizetype i, TextArena::SweepBuffer *buffer) const {
    const Row r = row(i);
    return m_texts.view(arenaRef(r), qsizetype(r.urlLength()), buffer);
}

bool ResultStore::readUrlUtf8(qsizetype i, QByteArray *into) const {
    const Row r = row(i);
    return m_texts.read(arenaRef(r), qsizetype(r.urlLength()), into);
}

bool ResultStore::readTitleUtf8(qsizetype i, QByteArray *into) const {
    const Row r = row(i);
    return m_texts.read(arenaRef(r) + r.urlLength(), qsizetype(r.titleLength), into);
}

QString ResultStore::title(qsizetype i) const {
    return QString::fromUtf8(titleUtf8(i));
}

QString ResultStore::extraText(const Row &r, ExtraText which) const {
    if (r.extraIndex < 0)
        return {};
    const Extra &extra = m_extras[size_t(r.extraIndex)];
    const quint32 lengths[] = {extra.finalUrlLength, extra.errorLength,
                               extra.chainLength > 0 ? extra.chainLength - 1 : 0, extra.warningLength};
    quint64 at = arenaRef(r) + r.urlLength() + r.titleLength;
    for (int k = 0; k < int(which); ++k)
        at += lengths[k];
    return QString::fromUtf8(m_texts.view(at, qsizetype(lengths[int(which)])));
}

QString ResultStore::warning(qsizetype i) const {
    return extraText(row(i), ExtraText::Warning);
}

QString ResultStore::finalUrl(qsizetype i) const {
    return finalUrlOf(row(i));
}

QString ResultStore::finalUrlOf(const Row &r) const {
    if (r.extraIndex >= 0 && m_extras[size_t(r.extraIndex)].finalUrlLength > 0)
        return extraText(r, ExtraText::FinalUrl);
    return (r.flags & kFinalIsUrl) ? urlOf(r) : QString();
}

QString ResultStore::error(const Row &r) const {
    return extraText(r, ExtraText::Error);
}

QStringList ResultStore::redirectChain(qsizetype i) const {
    return redirectChainOf(row(i));
}

QStringList ResultStore::redirectChainOf(const Row &r) const {
    if (r.extraIndex < 0 || m_extras[size_t(r.extraIndex)].chainLength == 0)
        return {};
    return extraText(r, ExtraText::RedirectChain).split(QLatin1Char('\n'));
}

// The row is read once (from the rows file, maybe): every field comes from that copy.
crawl::CrawlResult ResultStore::result(qsizetype i) const {
    const Row r = row(i);
    crawl::CrawlResult result;
    result.id = r.id32 != kWide ? r.id32 : m_wideIds.value(i);
    result.lineNumber = lineNumber(i, r);
    result.url = urlOf(r);
    result.finalUrl = finalUrlOf(r);
    result.host = m_strings[r.hostId];
    result.status = r.status;
    result.outcome = crawl::Outcome(r.outcome);
    result.attempts = r.attempts;
    result.redirects = r.redirects;
    result.bytes = r.bytes;
    result.contentType = m_strings[r.contentTypeId];
    result.latencyMs = r.latencyMs;
    result.ttfbMs = r.ttfbMs;
    result.error = extraText(r, ExtraText::Error);
    if (r.flags & kStartOnly) {
        result.startedAt = fromMs(r.finishedAtMs);
    } else {
        result.finishedAt = fromMs(r.finishedAtMs);
        if (r.startedBeforeFinishMs != kNoDelta && r.finishedAtMs != kNoTime)
            result.startedAt = fromMs(r.finishedAtMs - r.startedBeforeFinishMs);
    }
    result.redirectChain = redirectChainOf(r);
    result.warning = extraText(r, ExtraText::Warning);
    result.accepted = accepted(r);
    result.rejectReason = m_strings[r.rejectReasonId];
    result.title = QString::fromUtf8(m_texts.view(arenaRef(r) + r.urlLength(), qsizetype(r.titleLength)));
    return result;
}

ResultStore::MemoryUse ResultStore::memoryUse() const {
    MemoryUse use;
    use.rows = m_rows.residentBytes();
    use.texts = m_texts.residentBytes();
    use.spilled = m_texts.spilledBytes() + m_rows.spilledBytes();
    use.extras = qint64(m_extras.capacity() * sizeof(Extra)); // their texts are in the arena
    for (const std::unique_ptr<HeldSortKeys> &held : m_sortKeys)
        use.sortKeys += qint64(held->keys.capacity() * sizeof(quint64));
    for (const QString &s : m_strings)
        use.interned += 2 * s.size() + 24 + 32; // the string and its hash entry
    return use;
}

} // namespace ui
