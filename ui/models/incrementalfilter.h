#pragma once

#include "models/resulttextmatch.h"

#include <QObject>
#include <QTimer>

#include <memory>
#include <vector>

namespace ui {

class ResultFilterSortModel;
class SlicedSorter;

// Applies a new text filter to a results table without stalling the window: the rows are evaluated in
// time-budgeted slices, one per turn of the event loop (like ResultsFeed), while the table keeps showing
// the old filter; the result replaces it in one reset at the end. A new text cancels the running pass.
// With a sort held, the rows that pass are then put in its order the same way (SlicedSorter), so the
// reset at the end does no sorting of its own.
//
// Rows that arrive during a pass are evaluated too (the pass runs to the model's row count at its end).
// A pass starts over when the other filters change or the rows it has already judged are replaced or
// cleared (both reset the table or change rows behind it).
class IncrementalFilter : public QObject {
    Q_OBJECT
public:
    explicit IncrementalFilter(ResultFilterSortModel *model, QObject *parent = nullptr);
    ~IncrementalFilter() override;

    void setBudgetMs(double ms) { m_budgetNs = qint64(ms * 1e6); }
    // Filters by `text` (trimmed). The first slice runs now: a small table is filtered before this returns.
    void setText(const QString &text);
    void cancel(); // the table keeps the filter it shows
    bool isRunning() const { return m_running; }
    int progressPercent() const; // of the running pass, 0-99

Q_SIGNALS:
    void progressChanged(int percent);
    void finished(); // the pass ended: its result is in the table, or it was cancelled

private:
    void runSlice();
    bool sortSlice(qint64 budgetNs); // true once the sorted rows are in the table
    void adopt();
    void restart();

    ResultFilterSortModel *m_model;
    ResultTextMatch m_match;     // the text being evaluated
    std::vector<int> m_accepted; // source rows below m_nextRow that pass, ascending
    int m_nextRow = 0;
    std::unique_ptr<SlicedSorter> m_sorting; // after every row is judged, with a sort held
    bool m_running = false;
    bool m_adopting = false; // our own reset of the table, not a reason to start over
    qint64 m_budgetNs = 8'000'000;
    QTimer m_nextTurn;
};

} // namespace ui
