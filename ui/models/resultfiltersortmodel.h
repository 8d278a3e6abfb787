#pragma once

#include "models/acceptancefilter.h"
#include "models/hostfilter.h"
#include "models/resulttextmatch.h"
#include "models/statusfilter.h"

#include <QAbstractProxyModel>
#include <QByteArray>
#include <QPointer>
#include <QString>
#include <QTimer>

#include <memory>
#include <vector>

namespace ui {

class ResultsModel;
class SlicedSorter;

// A filtering, sort-on-demand view of a ResultsModel that stays cheap at a million rows (the order
// itself comes from ResultSorter).
//
// QSortFilterProxyModel keeps two mappings per row and re-sorts on every insert when dynamic sorting is
// on; here the proxy is one vector of source rows. New source rows that pass the filter arrive in one
// insert per batch. Without a sort they are appended; once sort() has ordered the rows, each batch is
// sorted on its own and placed by binary search (batch log n comparisons plus one block copy of the row
// vector), so the user's sort holds while a crawl streams rows in.
//
// A sort of many rows (a header click on a million) runs in slices across turns of the event loop
// (SlicedSorter): the table keeps its order, rows that arrive meanwhile are appended, and one layout
// change puts everything in the new order at the end.
class ResultFilterSortModel : public QAbstractProxyModel {
    Q_OBJECT
public:
    explicit ResultFilterSortModel(QObject *parent = nullptr);
    ~ResultFilterSortModel() override;

    void setResultsModel(ResultsModel *model);
    ResultsModel *resultsModel() const { return m_results; }

    // Bit i set = outcome i shown. failuresOnly() hides ok rows whatever the mask.
    void setOutcomeMask(quint32 mask);
    quint32 outcomeMask() const { return m_outcomeMask; }
    void setFailuresOnly(bool on);
    bool failuresOnly() const { return m_failuresOnly; }
    // Case-insensitive substring of the URL, host or error.
    void setTextFilter(const QString &text);
    QString textFilter() const { return m_textMatch.text(); }
    // Shows `acceptedRows` (ascending source rows that pass the other filters and `match`, evaluated over
    // every source row) as the result of the text filter `match`, in one reset: IncrementalFilter's end.
    void adoptTextFilter(const ResultTextMatch &match, std::vector<int> acceptedRows);
    // The same with `sortedRows` already in the current sort's order (SlicedSorter), covering source rows
    // below `judgedRows` only: rows that arrived since are judged and placed here.
    void adoptSortedTextFilter(const ResultTextMatch &match, std::vector<int> sortedRows, int judgedRows);
    void setStatusFilter(const StatusFilter &filter);
    const StatusFilter &statusFilter() const { return m_statusFilter; }
    void setHostFilter(const HostFilter &filter);
    const HostFilter &hostFilter() const { return m_hostFilter; }
    void setAcceptanceFilter(const AcceptanceFilter &filter);
    const AcceptanceFilter &acceptanceFilter() const { return m_acceptanceFilter; }

    int sourceRow(int proxyRow) const { return m_rows[size_t(proxyRow)]; }
    const std::vector<int> &sourceRows() const { return m_rows; } // in view order
    bool acceptsSourceRow(int sourceRow) const;
    bool acceptsSourceRow(int sourceRow, const ResultTextMatch &text) const; // with another text filter

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    QModelIndex sibling(int row, int column, const QModelIndex &idx) const override;
    bool hasChildren(const QModelIndex &parent = {}) const override;
    QModelIndex mapToSource(const QModelIndex &proxyIndex) const override;
    QModelIndex mapFromSource(const QModelIndex &sourceIndex) const override;
    // No buddies here; QAbstractProxyModel's would map through mapFromSource() (and build its map).
    QModelIndex buddy(const QModelIndex &index) const override { return index; }
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;
    int sortColumn() const { return m_sortColumn; } // -1: arrival order
    Qt::SortOrder sortOrder() const { return m_sortOrder; }
    bool isSorting() const { return m_pendingSort != nullptr; } // a sliced sort is under way
    int sortProgressPercent() const;
    void setSortBudgetMs(double ms) { m_sortBudgetNs = qint64(ms * 1e6); }

Q_SIGNALS:
    void sortProgressChanged(int percent); // of a sliced sort; 100 when its order is shown

private:
    void refilter();
    void refilterRows();
    void onRowsInserted(const QModelIndex &parent, int first, int last);
    void onDataChanged(const QModelIndex &topLeft, const QModelIndex &bottomRight, const QList<int> &roles);
    void rebuildReverseMap() const;
    void ensureReverseMap() const;
    void dropReverseMap();
    void insertSorted(std::vector<int> rows);      // rows not in the proxy yet; the sort is active
    void resortRows(const std::vector<int> &rows); // proxy rows whose sort key changed
    void setRowOrder(std::vector<int> rows);       // proxy row -> source row, the same rows reordered
    void updatePins();                             // after the sort column or the model changed
    void pinTextsToPlace(size_t rows);             // before `rows` are placed into a text sort's order
    void continueSort();
    void cancelPendingSort(); // the rows are replaced by a result already in the sort's order

    ResultsModel *m_results = nullptr;
    std::vector<int> m_rows; // proxy row -> source row
    // source row -> proxy row, -1 when filtered out: built when first needed (mapFromSource(), replaced
    // rows), kept up to date by appends, dropped by whatever reorders the rows. Nothing on the way of a
    // million rows streaming in needs it, and it costs 4 bytes per source row in every proxy.
    mutable std::vector<int> m_proxyRows;
    mutable bool m_proxyRowsStale = true;
    quint32 m_outcomeMask = ~0u;
    bool m_failuresOnly = false;
    ResultTextMatch m_textMatch;
    StatusFilter m_statusFilter;
    HostFilter m_hostFilter;
    mutable std::vector<qint8> m_hostAccepted; // per interned host: -1 unknown, 0/1
    AcceptanceFilter m_acceptanceFilter;
    mutable std::vector<qint16> m_reasonChecks; // per interned reason: AcceptanceFilter::checksOf, -1 unknown
    int m_sortColumn = -1;
    Qt::SortOrder m_sortOrder = Qt::AscendingOrder;
    // The store whose texts this proxy pins while it sorts by title or error (a sliced sort compares
    // random rows' texts), or by URL once many rows are placed into that order (streamed batches, each
    // placed by comparing texts of random rows, which must not be read back one by one). A URL sort of an
    // opened crawl (SlicedUrlSorter) and its filters need no pin.
    QPointer<ResultsModel> m_pinnedTexts;
    QPointer<ResultsModel> m_pinnedRows; // whose rows this proxy pins while a sort holds (see updatePins)
    QPointer<ResultsModel> m_heldKeys;   // whose sort keys of m_heldKeysColumn this proxy holds (updatePins)
    int m_heldKeysColumn = -1;
    bool m_pinToPlaceRows = false;
    std::unique_ptr<SlicedSorter> m_pendingSort;
    std::vector<int> m_rowsDuringSort;    // appended unsorted while it runs, placed at its end
    std::vector<int> m_changedDuringSort; // source rows replaced while it runs (their key may differ)
    qint64 m_sortBudgetNs = 8'000'000;
    QTimer m_sortTurn;
};

} // namespace ui
