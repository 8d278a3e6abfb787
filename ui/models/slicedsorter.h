#pragma once

#include "models/resultsmodel.h"
#include "models/resultsorter.h"
#include "models/slicedurlsorter.h"

#include <memory>
#include <vector>

namespace ui {

class ResultStore;

// ResultSorter's order, computed in bounded steps so a million rows sort without stalling the window.
//
// The rows are cut into chunks that ResultSorter orders one at a time, then the sorted runs are merged
// pairwise; every call to step() does at most about its time budget of that work and can be resumed on
// the next turn of the event loop. Merges take the earlier run's row on ties, so the result is exactly
// ResultSorter::sorted(rows): the same order, equal rows in their given order.
//
// The URL column is ordered by SlicedUrlSorter instead, which reads the texts in store order and needs
// none of them pinned.
//
// Rows appended to the store meanwhile are fine (they are not part of `rows`). A row replaced meanwhile: by
// a number or an interned text the sort orders the words taken when it started (ResultSorter::freezeKeys),
// so the result is in that order and the caller places the replaced rows again; by title or error its
// merges compare the new text with runs sorted by the old one, so the caller sorts again. The store must
// not be cleared under it. For the title and error columns the caller keeps the store's texts pinned
// (ResultFilterSortModel does while it sorts by one); needsPinnedTexts() says which. Nothing here touches
// the store outside its constructor and step(), so a sorter may outlive it unused.
class SlicedSorter {
public:
    SlicedSorter(const ResultStore &store, ResultsModel::Column column, Qt::SortOrder order,
                 std::vector<int> rows, int chunkRows = 16'384,
                 size_t copyUrlRows = SlicedUrlSorter::kCopyRows);
    // `rows` borrowed for the URL column (see SlicedUrlSorter), copied for the others.
    SlicedSorter(const ResultStore &store, ResultsModel::Column column, Qt::SortOrder order,
                 const std::vector<int> *rows);

    // Whether a sliced sort by `column` compares random rows' texts (which must then be pinned in memory).
    static bool needsPinnedTexts(int column) {
        return ResultSorter::sortsByText(column) && column != ResultsModel::UrlColumn;
    }

    ResultsModel::Column column() const { return m_column; }
    Qt::SortOrder order() const { return m_order; }
    // Does work for about `budgetNs` (at least one chunk or one merge stride); true once sorted.
    bool step(qint64 budgetNs);
    bool isDone() const { return m_done; }
    int progressPercent() const; // 0-100
    std::vector<int> take();     // the sorted rows, once isDone()

private:
    void sortNextChunk();
    void mergeSome(size_t maxRows);
    void startMergePass();
    void startColumnSort();

    ResultsModel::Column m_column;
    Qt::SortOrder m_order;
    ResultSorter m_sorter; // one for the whole sort: the ranks of interned strings are computed once
    std::unique_ptr<SlicedUrlSorter> m_urls; // the URL column's sort, which does all the work then
    std::vector<int> m_rows;                 // sorted runs of m_runRows (the last may be shorter)
    std::vector<int> m_merged;               // the pass being written
    size_t m_chunkRows;
    size_t m_sortedChunks = 0; // chunks of m_rows already sorted
    size_t m_runRows = 0;      // length of the sorted runs once every chunk is sorted
    // Merge state within a pass: the pair of runs at m_pairStart, read positions and the write position.
    size_t m_pairStart = 0;
    size_t m_left = 0;
    size_t m_right = 0;
    size_t m_out = 0;
    size_t m_workDone = 0; // rows sorted or merged so far, for the progress
    size_t m_workTotal = 0;
    bool m_done = false;
};

} // namespace ui
