#include "models/resultsfeed.h"

#include <QElapsedTimer>

#include <algorithm>
#include <iterator>

namespace ui {

namespace {
// Before anything is measured: about 4 ms at the cost seen for a million rows (~4 us a row with both
// tables, the charts and the filter counts).
constexpr qsizetype kFirstChunkRows = 1000;
constexpr qsizetype kMinChunkRows = 64;     // below this the fixed cost per insert dominates
constexpr qsizetype kMaxChunkRows = 50'000; // a chunk's own copy stays a few MB
// Released results leave the front of the list once this many have gone (and at least half of it): a
// backlog that never empties (a crawl file read page by page just ahead of the views) otherwise grows the
// list to this size before it is compacted, and it keeps that block (33 MB at 65,536, measured while a
// 1,000,000-row crawl file opened).
constexpr qsizetype kCompactAfter = 4'096;
// An emptied list larger than this gives its block back rather than keep it for a burst that may not come.
constexpr qsizetype kKeepCapacity = 2 * kCompactAfter;
} // namespace

ResultsFeed::ResultsFeed(QObject *parent)
    : QObject(parent) {
    m_coalesce.setSingleShot(true);
    m_coalesce.setInterval(250);
    connect(&m_coalesce, &QTimer::timeout, this, &ResultsFeed::releaseChunk);
    m_nextTurn.setSingleShot(true);
    m_nextTurn.setInterval(0);
    connect(&m_nextTurn, &QTimer::timeout, this, &ResultsFeed::releaseChunk);
}

void ResultsFeed::setCoalesceMs(int ms) {
    m_coalesce.setInterval(std::max(0, ms));
}

void ResultsFeed::setBudgetMs(double ms) {
    m_budgetNs = std::max(0.5, ms) * 1e6;
}

void ResultsFeed::append(const QList<crawl::CrawlResult> &results) {
    if (results.isEmpty())
        return;
    m_pending.append(results);
    schedule();
}

void ResultsFeed::appendNow(const QList<crawl::CrawlResult> &results) {
    if (results.isEmpty())
        return;
    m_pending.append(results);
    m_coalesce.stop();
    if (!m_nextTurn.isActive())
        m_nextTurn.start();
}

void ResultsFeed::append(const crawl::CrawlResult &result) {
    m_pending.append(result);
    schedule();
}

// A backlog being worked off takes new results on its next turn; otherwise they wait for company, but
// never for more than a chunk's worth: a fast burst would otherwise pile up (memory the allocator keeps
// afterwards) only to be worked off later.
void ResultsFeed::schedule() {
    if (m_nextTurn.isActive())
        return;
    if (pendingCount() >= nextChunkRows()) {
        m_coalesce.stop();
        m_nextTurn.start();
    } else if (!m_coalesce.isActive()) {
        m_coalesce.start();
    }
}

qsizetype ResultsFeed::nextChunkRows() const {
    if (m_nsPerRow <= 0)
        return kFirstChunkRows;
    return std::clamp(qsizetype(m_budgetNs / m_nsPerRow), kMinChunkRows, kMaxChunkRows);
}

void ResultsFeed::releaseChunk() {
    release(nextChunkRows());
    if (pendingCount() > 0)
        m_nextTurn.start();
}

void ResultsFeed::flushAll() {
    m_coalesce.stop();
    m_nextTurn.stop();
    release(pendingCount());
}

void ResultsFeed::clear() {
    m_coalesce.stop();
    m_nextTurn.stop();
    m_pending.clear();
    m_next = 0;
}

void ResultsFeed::release(qsizetype count) {
    count = std::min(count, pendingCount());
    if (count <= 0)
        return;
    QList<crawl::CrawlResult> chunk;
    chunk.reserve(count);
    for (qsizetype i = m_next; i < m_next + count; ++i)
        chunk.append(std::move(m_pending[i]));
    m_next += count;
    if (m_next == m_pending.size()) {
        if (m_pending.capacity() > kKeepCapacity)
            m_pending = {};
        else
            m_pending.clear(); // keeps its block
        m_next = 0;
    } else if (m_next >= kCompactAfter && m_next * 2 >= m_pending.size()) {
        // Into a list of their own: QList::remove() at the front only moves the start within the old block.
        QList<crawl::CrawlResult> rest;
        rest.reserve(pendingCount());
        std::move(m_pending.begin() + m_next, m_pending.end(), std::back_inserter(rest));
        m_pending = std::move(rest);
        m_next = 0;
    }

    QElapsedTimer clock;
    clock.start();
    Q_EMIT chunkReady(chunk);
    // A receiver preempted mid-chunk looks slower than it is: the next chunk is smaller, never larger
    // than the budget allows. Small chunks are dominated by fixed costs and would overstate the rate.
    if (count >= kMinChunkRows) {
        const double nsPerRow = double(clock.nsecsElapsed()) / double(count);
        m_nsPerRow = m_nsPerRow <= 0 ? nsPerRow : 0.6 * m_nsPerRow + 0.4 * nsPerRow;
    }
    if (pendingCount() == 0)
        Q_EMIT drained();
}

} // namespace ui
