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
// rows). Here each row gets an 8-byte key word of its URL (after the prefix every row shares), and the
// texts are read only in sweeps in store order, which the text arena serves chunk after chunk from its
// small read cache. The keys are sorted as integers; runs of rows whose words tie are re-keyed with their
// next 8 bytes in another sweep and sorted again, until no run ties on a URL that goes on (an MSD radix
// refinement, as ResultSorter does in memory). Memory: 12 bytes a row for the keys, at most as much for
// a merge buffer (half of it at a million rows), 4 bytes a store row for the sweeps' index; all of it
// freed once sorted.
//
// Every step() does at most about its time budget of work (one sweep stride, one chunk sort or one merge
// stride at the least). The store must not change under a running sort, except for rows appended to it.
class SlicedUrlSorter {
public:
    SlicedUrlSorter(const ResultStore &store, Qt::SortOrder order, std::vector<int> rows,
                    int chunkRows = 16'384);

    bool step(qint64 budgetNs); // true once sorted
    bool isDone() const { return m_phase == Phase::Done; }
    int progressPercent() const; // 0-99 while sorting (rounds are not known ahead), 100 when done
    std::vector<int> take();     // the sorted rows, once isDone()

private:
#pragma pack(push, 4)
    struct Key {      // 12 bytes; no initializers, so a merge buffer is not written before it is used
        quint64 word; // 8 bytes of the URL from m_offset, inverted when descending
        qint32 row;
    };
#pragma pack(pop)
    enum class Phase { Index, Prefix, Sweep, Sort, Ties, Done };
    using Range = std::pair<size_t, size_t>; // [from, to) in m_keys

    void indexSome();
    void prefixSome();
    void sweepSome();
    void sortSome();
    void tiesSome();
    void startSweep();
    bool startRangeSort(); // the next range of m_runs to sort; false: none left
    void startPair(size_t pairStart);
    void mergeSome(size_t maxKeys);
    quint64 wordOf(int row);

    const ResultStore &m_store;
    bool m_descending;
    size_t m_chunkRows;
    Phase m_phase = Phase::Index;
    std::vector<Key> m_keys;              // in the given order at first, then sorted
    TextArena::SweepBuffer m_sweepBuffer; // the chunk a sweep reads (the read cache is the views')
    std::vector<qint32> m_at;             // store row -> its index in m_keys during a sweep, -1: not swept
    size_t m_storeRows = 0;    // the store's rows when the sort started (rows appended later are not ours)
    size_t m_cursor = 0;       // sweep: next store row; ties: next key
    qsizetype m_offset = 0;    // where the key words start in the URLs
    qsizetype m_shared = -1;   // prefix shared by every URL, while it is measured
    QByteArray m_firstUrl;     // the URL the shared prefix is measured against
    std::vector<Range> m_runs; // ranges of m_keys that this round re-keys and sorts
    std::vector<Range> m_nextRuns; // the ties found after this round's sort
    size_t m_run = 0;              // Ties: the run being scanned; Sort: the next run to sort
    size_t m_groupStart = 0;       // Ties: where the current group of equal words began
    bool m_groupGoesOn = false;    // one of its URLs is longer than the word
    // The sliced merge sort of one large range.
    Range m_range{0, 0};
    size_t m_width = 0; // sorted run length within m_range; 0: its chunks are still being sorted
    size_t m_chunk = 0; // next chunk to sort
    // The pair being merged: its left run is copied out (m_buffered keys so far), then merged with the
    // right run back into place from m_pairStart on (the writes never overtake the right run's reads).
    size_t m_pairStart = 0, m_buffered = 0, m_left = 0, m_right = 0, m_out = 0;
    std::unique_ptr<Key[]> m_buffer;
    size_t m_bufferSize = 0;
    size_t m_workDone = 0;
};

} // namespace ui
