#include "models/slicedsorter.h"

#include <QElapsedTimer>

#include <algorithm>
#include <bit>

namespace ui {

namespace {

// Rows merged between two looks at the clock: a comparison of two URLs costs well under a microsecond.
constexpr size_t kMergeStride = 4'096;

} // namespace

SlicedSorter::SlicedSorter(const ResultStore &store, ResultsModel::Column column, Qt::SortOrder order,
                           std::vector<int> rows, int chunkRows, size_t copyUrlRows)
    : m_column(column)
    , m_order(order)
    , m_sorter(store, column, order, /*pinTexts=*/false)
    , m_rows(std::move(rows))
    , m_chunkRows(size_t(std::max(2, chunkRows))) {
    if (column == ResultsModel::UrlColumn) {
        m_urls = std::make_unique<SlicedUrlSorter>(store, order, std::move(m_rows), chunkRows, copyUrlRows);
        m_rows.clear();
        m_done = m_urls->isDone();
        return;
    }
    startColumnSort();
}

SlicedSorter::SlicedSorter(const ResultStore &store, ResultsModel::Column column, Qt::SortOrder order,
                           const std::vector<int> *rows)
    : m_column(column)
    , m_order(order)
    , m_sorter(store, column, order, /*pinTexts=*/false)
    , m_chunkRows(16'384) {
    if (column == ResultsModel::UrlColumn) {
        m_urls = std::make_unique<SlicedUrlSorter>(store, order, rows);
        m_done = m_urls->isDone();
        return;
    }
    m_rows = *rows;
    startColumnSort();
}

void SlicedSorter::startColumnSort() {
    // Rows replaced while it runs must not change the order its runs were sorted in (the caller places
    // them again at the end): the words compared are taken now.
    m_sorter.freezeKeys(m_rows);
    const size_t chunks = (m_rows.size() + m_chunkRows - 1) / m_chunkRows;
    // Each row is sorted once within its chunk, then copied once per merge pass.
    const size_t passes = chunks > 1 ? size_t(std::bit_width(chunks - 1)) : 0;
    m_workTotal = m_rows.size() * (1 + passes);
    m_done = m_rows.size() <= 1;
}

bool SlicedSorter::step(qint64 budgetNs) {
    if (m_urls)
        return m_done = m_urls->step(budgetNs);
    QElapsedTimer clock;
    clock.start();
    while (!m_done) {
        if (m_runRows == 0)
            sortNextChunk();
        else
            mergeSome(kMergeStride);
        if (clock.nsecsElapsed() >= budgetNs)
            break;
    }
    return m_done;
}

int SlicedSorter::progressPercent() const {
    if (m_urls)
        return m_urls->progressPercent();
    if (m_done || m_workTotal == 0)
        return 100;
    return int(std::min<size_t>(99, m_workDone * 100 / m_workTotal));
}

std::vector<int> SlicedSorter::take() {
    Q_ASSERT(m_done);
    if (m_urls)
        return m_urls->take();
    return std::move(m_rows);
}

// One chunk through ResultSorter (keys compared as integers: its fast path).
void SlicedSorter::sortNextChunk() {
    const size_t from = m_sortedChunks * m_chunkRows;
    const size_t to = std::min(m_rows.size(), from + m_chunkRows);
    const std::vector<int> chunk(m_rows.begin() + qsizetype(from), m_rows.begin() + qsizetype(to));
    const std::vector<int> sorted = m_sorter.sorted(chunk);
    std::copy(sorted.begin(), sorted.end(), m_rows.begin() + qsizetype(from));
    ++m_sortedChunks;
    m_workDone += to - from;
    if (to < m_rows.size())
        return;
    m_runRows = m_chunkRows;
    if (m_runRows >= m_rows.size())
        m_done = true;
    else
        startMergePass();
}

void SlicedSorter::startMergePass() {
    m_merged.resize(m_rows.size());
    m_pairStart = 0;
    m_left = 0;
    m_right = std::min(m_rows.size(), m_runRows);
    m_out = 0;
}

// Merges up to `maxRows` rows of the current pair of runs; moves to the next pair and pass as they end.
void SlicedSorter::mergeSome(size_t maxRows) {
    const size_t total = m_rows.size();
    const size_t leftEnd = std::min(total, m_pairStart + m_runRows);
    const size_t rightEnd = std::min(total, m_pairStart + 2 * m_runRows);
    size_t budget = maxRows;
    while (budget > 0 && m_out < rightEnd) {
        // The earlier run wins ties: equal rows keep their given order.
        if (m_left < leftEnd && (m_right >= rightEnd || !m_sorter.rowLess(m_rows[m_right], m_rows[m_left])))
            m_merged[m_out++] = m_rows[m_left++];
        else
            m_merged[m_out++] = m_rows[m_right++];
        --budget;
    }
    m_workDone += maxRows - budget;
    if (m_out < rightEnd)
        return;
    // This pair is merged: the next pair, or the next pass with runs twice as long.
    m_pairStart = rightEnd;
    if (m_pairStart < total) {
        m_left = m_pairStart;
        m_right = std::min(total, m_pairStart + m_runRows);
        return;
    }
    m_rows.swap(m_merged);
    m_runRows *= 2;
    if (m_runRows >= total) {
        m_done = true;
        std::vector<int>().swap(m_merged);
        return;
    }
    startMergePass();
}

} // namespace ui
