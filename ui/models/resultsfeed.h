#pragma once

#include "model/crawlresult.h"

#include <QList>
#include <QObject>
#include <QTimer>

namespace ui {

// Hands the engine's results to the views in bounded slices, so no event-loop turn of the window
// inserts more than it can do within a time budget.
//
// Results are coalesced for `coalesceMs` or until a chunk's worth is waiting (the views take them at a
// few hertz: each insert repaints the open table), then released as chunks: each chunk is sized from the
// measured cost per row of the previous ones to take about `budgetMs`, and the next chunk waits for the next
// turn of the event loop, so paints and input run in between. A burst of a million rows becomes a few hundred
// short turns instead of one stall of seconds. Order is kept: chunks are released in arrival order.
class ResultsFeed : public QObject {
    Q_OBJECT
public:
    explicit ResultsFeed(QObject *parent = nullptr);

    void setCoalesceMs(int ms);
    void setBudgetMs(double ms);
    double budgetMs() const { return m_budgetNs / 1e6; }

    void append(const QList<crawl::CrawlResult> &results);
    void append(const crawl::CrawlResult &result);
    // Results that had been waiting already (a crawl file's rows, read page by page as the views take
    // them): released from the next turn on, without waiting for company. Waiting would only leave the
    // views idle: the reader sends the next page once this one is taken.
    void appendNow(const QList<crawl::CrawlResult> &results);
    // Everything pending, now, in one go: for readers that need every result in the views (export,
    // retry, "finished").
    void flushAll();
    void clear(); // drops what is pending (a new crawl)
    qsizetype pendingCount() const { return m_pending.size() - m_next; }
    // Results' worth of memory the backlog's list holds, released ones included (for tests).
    qsizetype heldCapacity() const { return m_pending.capacity(); }

    // The rows the next chunk will take, from the cost measured so far (for tests and the benchmark).
    qsizetype nextChunkRows() const;

Q_SIGNALS:
    // Connected directly: the receiver inserts the chunk into the models. Its run time is measured.
    void chunkReady(const QList<crawl::CrawlResult> &chunk);
    // Everything appended so far is in the views (after the chunk that emptied the backlog).
    void drained();

private:
    void releaseChunk();
    void schedule();
    void release(qsizetype count);

    QList<crawl::CrawlResult> m_pending;
    qsizetype m_next = 0; // first pending result not yet released
    QTimer m_coalesce;    // the first result of a quiet period waits this long for company
    QTimer m_nextTurn;    // 0 ms: the next chunk of a backlog, after the events queued meanwhile
    double m_budgetNs = 12e6;
    double m_nsPerRow = 0; // moving average of the receiver's cost per row; 0 until measured
};

} // namespace ui
