#include "models/slicedurlsorter.h"

#include "models/resultstore.h"

#include <QByteArray>
#include <QElapsedTimer>

#include <algorithm>

namespace ui {

namespace {

// Work between two looks at the clock: each is well under a millisecond (a sweep stride reads texts
// from at most a few arena chunks; a merge stride compares integers).
constexpr size_t kStride = 4'096;

bool wordLess(quint64 x, quint64 y) {
    return x < y;
}

} // namespace

SlicedUrlSorter::SlicedUrlSorter(const ResultStore &store, Qt::SortOrder order, std::vector<int> rows,
                                 int chunkRows)
    : m_store(store)
    , m_descending(order == Qt::DescendingOrder)
    , m_chunkRows(size_t(std::max(2, chunkRows)))
    , m_storeRows(size_t(store.size())) {
    m_keys.resize(rows.size());
    for (size_t i = 0; i < rows.size(); ++i)
        m_keys[i].row = rows[i];
    if (m_keys.size() <= 1)
        m_phase = Phase::Done;
}

bool SlicedUrlSorter::step(qint64 budgetNs) {
    QElapsedTimer clock;
    clock.start();
    while (m_phase != Phase::Done) {
        switch (m_phase) {
        case Phase::Index:
            indexSome();
            break;
        case Phase::Prefix:
            prefixSome();
            break;
        case Phase::Sweep:
            sweepSome();
            break;
        case Phase::Sort:
            sortSome();
            break;
        case Phase::Ties:
            tiesSome();
            break;
        case Phase::Done:
            break;
        }
        if (clock.nsecsElapsed() >= budgetNs)
            break;
    }
    return m_phase == Phase::Done;
}

int SlicedUrlSorter::progressPercent() const {
    if (m_phase == Phase::Done)
        return 100;
    // The index, the prefix, the first sweep and sort, and about as much again for the refinements.
    const size_t total = std::max<size_t>(1, 6 * m_keys.size());
    return int(std::min<size_t>(99, m_workDone * 100 / total));
}

std::vector<int> SlicedUrlSorter::take() {
    Q_ASSERT(m_phase == Phase::Done);
    std::vector<int> rows(m_keys.size());
    for (size_t i = 0; i < m_keys.size(); ++i)
        rows[i] = m_keys[i].row;
    std::vector<Key>().swap(m_keys);
    return rows;
}

// Eight bytes of the URL from the current offset as one word that compares like the bytes (zero past the
// end: URLs hold no NUL, so a URL that ends sorts before the longer ones it begins).
quint64 SlicedUrlSorter::wordOf(int row) {
    const QByteArrayView url = m_store.urlUtf8(row, &m_sweepBuffer);
    quint64 word = 0;
    for (qsizetype i = m_offset; i < m_offset + 8; ++i)
        word = (word << 8) | quint64(quint8(i < url.size() ? url[i] : 0));
    return m_descending ? ~word : word;
}

// Where each sorted row stands in m_keys, by store row: the sweeps then walk the store in its own order.
void SlicedUrlSorter::indexSome() {
    if (m_at.empty())
        m_at.assign(m_storeRows, -1);
    const size_t end = std::min(m_keys.size(), m_cursor + 4 * kStride);
    for (size_t i = m_cursor; i < end; ++i)
        m_at[size_t(m_keys[i].row)] = qint32(i);
    m_workDone += end - m_cursor;
    m_cursor = end;
    if (m_cursor < m_keys.size())
        return;
    m_phase = Phase::Prefix;
    m_cursor = 0;
}

// The prefix every URL shares ("https://"): the key words start after it.
void SlicedUrlSorter::prefixSome() {
    const size_t end = std::min(m_storeRows, m_cursor + kStride);
    for (size_t row = m_cursor; row < end; ++row) {
        if (m_at[row] < 0)
            continue;
        const QByteArrayView url = m_store.urlUtf8(qsizetype(row), &m_sweepBuffer);
        ++m_workDone;
        if (m_shared < 0) {
            m_firstUrl = url.toByteArray(); // a view would not outlive the next chunk read
            m_shared = m_firstUrl.size();
            continue;
        }
        qsizetype n = 0;
        while (n < m_shared && n < url.size() && url[n] == m_firstUrl[n])
            ++n;
        m_shared = n;
    }
    m_cursor = end;
    if (m_cursor < m_storeRows && m_shared != 0)
        return;
    m_firstUrl = QByteArray();
    m_offset = std::max<qsizetype>(0, m_shared);
    m_runs = {Range{0, m_keys.size()}};
    startSweep();
}

void SlicedUrlSorter::startSweep() {
    m_phase = Phase::Sweep;
    m_cursor = 0;
}

// Every row of this round's runs gets the word at the current offset, read in store order.
void SlicedUrlSorter::sweepSome() {
    const size_t end = std::min(m_storeRows, m_cursor + kStride);
    for (size_t row = m_cursor; row < end; ++row) {
        const qint32 at = m_at[row];
        if (at >= 0 && m_keys[size_t(at)].row == qint32(row)) {
            m_keys[size_t(at)].word = wordOf(qint32(row));
            ++m_workDone;
        }
    }
    m_cursor = end;
    if (m_cursor < m_storeRows)
        return;
    m_phase = Phase::Sort;
    m_run = 0;
    m_width = 0;
    m_range = {0, 0};
}

// The runs by their words, one at a time: a small one in one go, a large one as a merge sort in strides.
// Both are stable, so rows with equal words keep their order (the given order, in the end).
void SlicedUrlSorter::sortSome() {
    if (m_range.first == m_range.second && !startRangeSort()) {
        m_buffer.reset();
        m_bufferSize = 0;
        m_phase = Phase::Ties;
        m_run = 0;
        m_cursor = m_runs.empty() ? 0 : m_runs.front().first;
        m_nextRuns.clear();
        return;
    }
    if (m_width == 0) {
        const size_t from = m_range.first + m_chunk * m_chunkRows;
        const size_t to = std::min(m_range.second, from + m_chunkRows);
        std::stable_sort(m_keys.begin() + qsizetype(from), m_keys.begin() + qsizetype(to),
                         [](const Key &x, const Key &y) { return wordLess(x.word, y.word); });
        m_workDone += to - from;
        ++m_chunk;
        if (to < m_range.second)
            return;
        if (m_range.second - m_range.first <= m_chunkRows) {
            m_range = {0, 0};
            return;
        }
        m_width = m_chunkRows;
        startPair(m_range.first);
        return;
    }
    mergeSome(kStride);
}

bool SlicedUrlSorter::startRangeSort() {
    while (m_run < m_runs.size()) {
        const Range run = m_runs[m_run++];
        if (run.second - run.first > 1) {
            m_range = run;
            m_chunk = 0;
            m_width = 0;
            return true;
        }
    }
    return false;
}

void SlicedUrlSorter::startPair(size_t pairStart) {
    m_pairStart = m_out = pairStart;
    m_buffered = m_left = 0;
    m_right = std::min(m_range.second, pairStart + m_width);
}

// Up to `maxKeys` keys of the current pair of sorted runs: the left run is copied out first, then merged
// with the right one into place. At the end of a pass the runs are twice as long.
void SlicedUrlSorter::mergeSome(size_t maxKeys) {
    const size_t last = m_range.second;
    const size_t leftSize = std::min(m_width, last - m_pairStart);
    const size_t rightEnd = std::min(last, m_pairStart + 2 * m_width);
    if (m_pairStart + leftSize < rightEnd) { // a pair with a right run (a lone run is in place already)
        if (m_buffered < leftSize) {
            if (m_bufferSize < leftSize) {
                m_buffer = std::make_unique_for_overwrite<Key[]>(leftSize);
                m_bufferSize = leftSize;
            }
            const size_t n = std::min(4 * maxKeys, leftSize - m_buffered);
            std::copy_n(m_keys.begin() + qsizetype(m_pairStart + m_buffered), n, m_buffer.get() + m_buffered);
            m_buffered += n;
            return;
        }
        size_t budget = maxKeys;
        while (budget > 0 && m_left < leftSize) {
            // The left run wins ties: equal words keep their order.
            if (m_right >= rightEnd || !wordLess(m_keys[m_right].word, m_buffer[m_left].word))
                m_keys[m_out++] = m_buffer[m_left++];
            else
                m_keys[m_out++] = m_keys[m_right++];
            --budget;
        }
        m_workDone += maxKeys - budget;
        if (m_left < leftSize)
            return;
    }
    if (rightEnd < last) {
        startPair(rightEnd);
        return;
    }
    m_width *= 2;
    if (m_width >= last - m_range.first) {
        m_range = {0, 0};
        return;
    }
    startPair(m_range.first);
}

// Within this round's runs, rows whose words tie form the next round's runs when one of them goes on
// past the word (otherwise their URLs are equal and keep their order). Each row of a tie is indexed for
// the next sweep; a row alone is taken out of it.
void SlicedUrlSorter::tiesSome() {
    size_t budget = kStride;
    const auto closeGroup = [this](size_t end) {
        if (end - m_groupStart == 1)
            m_at[size_t(m_keys[m_groupStart].row)] = -1;
        else if (m_groupGoesOn)
            m_nextRuns.push_back({m_groupStart, end});
        m_groupStart = end;
        m_groupGoesOn = false;
    };
    while (budget > 0 && m_run < m_runs.size()) {
        const Range run = m_runs[m_run];
        if (m_cursor == run.first) {
            m_groupStart = run.first;
            m_groupGoesOn = false;
        }
        const size_t end = std::min(run.second, m_cursor + budget);
        for (size_t k = m_cursor; k < end; ++k) {
            if (k > m_groupStart && m_keys[k].word != m_keys[k - 1].word)
                closeGroup(k);
            m_at[size_t(m_keys[k].row)] = qint32(k);
            if (m_store.row(m_keys[k].row).urlLength() > quint32(m_offset + 8))
                m_groupGoesOn = true;
        }
        budget -= end - m_cursor;
        m_workDone += end - m_cursor;
        m_cursor = end;
        if (m_cursor < run.second)
            return;
        closeGroup(run.second);
        if (++m_run < m_runs.size())
            m_cursor = m_runs[m_run].first;
    }
    if (m_run < m_runs.size())
        return;
    if (m_nextRuns.empty()) {
        m_sweepBuffer = {};
        std::vector<qint32>().swap(m_at);
        std::vector<Range>().swap(m_runs);
        m_phase = Phase::Done;
        return;
    }
    m_runs.swap(m_nextRuns);
    m_nextRuns.clear();
    m_offset += 8;
    startSweep();
}

} // namespace ui
