#pragma once

#include "models/textarena.h"

#include <QByteArray>
#include <QtGlobal>

#include <memory>
#include <utility>
#include <vector>

namespace ui {

class ResultStore;

// ResultSorter's URL order (the UTF-8 bytes; equal URLs in their given order), in bounded steps, without
// the store's texts in memory.
//
// A URL sort compares random rows, so ResultSorter needs every spilled text back (~100 MB at a million
// rows). Here each row gets one 8-byte key: a few bytes of its URL (after the prefix every row shares)
// above the row number, so keys compare as integers by URL bytes, then by row. The texts are read only in
// sweeps in store order, which the text arena serves chunk after chunk from a one-chunk buffer. The keys
// are sorted in place (a sliced heap sort for a large run: no merge buffer); runs of rows whose bytes tie
// are re-keyed with their next bytes in another sweep and sorted again, until no run ties on a URL that
// goes on (an MSD radix refinement, as ResultSorter does in memory). Within a run the rows are in store
// order (the key's last tie-breaker), so a sweep is a k-way merge of the runs: no index by store row. Rows
// of equal URLs end up by row; if the given order is another, each such group is put back into it at the
// end. Memory: the 8-byte keys (8 MB at a million rows; the merge sort before held 12-byte keys, a merge
// buffer of up to half of them and a 4-byte index per store row, 22-26 MB) and 8 bytes per tie run; the
// given rows are borrowed when the caller keeps them.
//
// A few thousand rows (a filter's result) are not worth a sweep of every chunk: their URLs are copied
// with one small read each, a stride per step, and sorted as copies in slices.
//
// Every step() does at most about its time budget of work (one stride at the least). The store must not
// change under a running sort, except for rows appended to it.
class SlicedUrlSorter {
public:
    static constexpr size_t kCopyRows = 32'768; // up to this many rows, their URLs are copied (above)

    // Runs of up to `chunkRows` keys are sorted in one go, longer ones in heap-sort slices; up to
    // `copyRows` rows are sorted as copies of their URLs.
    SlicedUrlSorter(const ResultStore &store, Qt::SortOrder order, std::vector<int> rows,
                    int chunkRows = 16'384, size_t copyRows = kCopyRows);
    // `rows` is borrowed: it must outlive the sorter and its first size() entries must not change until
    // the sort is done (rows appended to it are fine). What a proxy sorting the rows it shows passes.
    SlicedUrlSorter(const ResultStore &store, Qt::SortOrder order, const std::vector<int> *rows,
                    int chunkRows = 16'384, size_t copyRows = kCopyRows);

    SlicedUrlSorter(const SlicedUrlSorter &) = delete; // the given rows may be our own
    SlicedUrlSorter &operator=(const SlicedUrlSorter &) = delete;

    bool step(qint64 budgetNs); // true once sorted
    bool isDone() const { return m_phase == Phase::Done; }
    int progressPercent() const; // 0-99 while sorting (rounds are not known ahead), 100 when done
    std::vector<int> take();     // the sorted rows, once isDone()
    // The bytes its own vectors hold now (not the borrowed rows): what the tests bound.
    size_t heldBytes() const;

private:
    enum class Phase { Index, RowSort, Prefix, Sweep, Sort, Ties, GivenOrder, Copy, CopySort, Done };
    using Range = std::pair<quint32, quint32>; // [from, to) in m_keys

    void start(size_t copyRows);
    void indexSome();
    void rowSortSome();
    void prefixSome();
    void sweepSome();
    void sortSome();
    void tiesSome();
    void givenOrderSome();
    void copySome();
    void copySortSome();
    void startSweep();
    bool startRangeSort(); // the next range of m_runs to sort; false: none left
    quint64 wordOf(int row);
    int rowOf(quint64 key) const { return int(key & m_rowMask); }
    bool urlMayGoOn(quint64 key) const; // the URL has a byte at the key's last byte of text
    bool copiedLess(quint32 x, quint32 y) const;
    const std::vector<int> &given() const { return *m_given; }

    const ResultStore &m_store;
    bool m_descending;
    std::vector<int> m_ownRows;      // the given rows when they are not borrowed
    const std::vector<int> *m_given; // the rows in their given order
    size_t m_count;                  // rows to sort
    bool m_givenAscending = true;    // given in store order: equal URLs by row are in it
    size_t m_chunkRows;
    Phase m_phase = Phase::Index;
    int m_wordBytes = 7; // URL bytes in a key, above the row number
    int m_rowBits = 1;   // the low bits of a key that hold the row
    quint64 m_rowMask = 0;
    std::vector<quint64> m_keys;          // in the given order at first, then sorted
    TextArena::SweepBuffer m_sweepBuffer; // the chunk a sweep reads (the read cache is the views')
    // A sweep's heap of this round's runs (in m_nextRuns) as [next row, end), by their next row.
    struct LaterRow {
        const std::vector<quint64> *keys;
        quint64 mask;
        bool operator()(const Range &x, const Range &y) const {
            return ((*keys)[x.first] & mask) > ((*keys)[y.first] & mask);
        }
    } m_laterRow{&m_keys, 0};
    std::vector<quint64> m_inEqual;   // the given order at the end: a bitmap of the rows in equal groups,
    std::vector<quint64> m_positions; // and their given positions (row << 32 | position), by row
    size_t m_storeRows = 0;    // the store's rows when the sort started (rows appended later are not ours)
    size_t m_cursor = 0;       // sweep: next store row; ties: next key
    qsizetype m_offset = 0;    // where the key bytes start in the URLs
    qsizetype m_shared = -1;   // prefix shared by every URL, while it is measured
    QByteArray m_firstUrl;     // the URL the shared prefix is measured against
    std::vector<Range> m_runs; // ranges of m_keys that this round re-keys and sorts
    std::vector<Range> m_nextRuns; // the ties found after this round's sort
    std::vector<Range> m_equal;    // ranges of equal URLs (by row now), for the given order at the end
    size_t m_run = 0;              // Ties: the run being scanned; Sort: the next run to sort
    size_t m_groupStart = 0;       // Ties: where the current group of equal words began
    bool m_groupGoesOn = false;    // one of its URLs is longer than the key's bytes
    // The sliced heap sort of one large range: a heap of [m_range.first, m_heapEnd) built from m_sift
    // down, then its largest key moved to the end until one is left.
    Range m_range{0, 0};
    size_t m_sift = 0;
    size_t m_heapEnd = 0;
    // Copy mode: the rows' URLs (m_copiedBytes, by given position), read in store order (m_copyOrder at
    // first), then the positions in m_copyOrder sorted by them.
    std::vector<quint32> m_copyOrder;
    std::vector<quint32> m_copiedFrom; // by given position
    std::vector<quint32> m_copiedSize;
    QByteArray m_copiedBytes;
    size_t m_workDone = 0;
};

} // namespace ui
