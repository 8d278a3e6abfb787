#pragma once

#include "models/resultstore.h"

#include <QAbstractTableModel>
#include <QHash>
#include <QList>

#include <array>
#include <vector>

namespace ui {

// Every finished URL of the crawl, one row each, in arrival order. Rows are only appended (one
// beginInsertRows per engine batch) or replaced in place when a result with a known id arrives again
// (a retried URL), so row numbers are stable for the life of a crawl.
class ResultsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        LineColumn,
        UrlColumn,
        HostColumn,
        OutcomeColumn,
        StatusColumn,
        AttemptsColumn,
        LatencyColumn,
        BytesColumn,
        ContentTypeColumn,
        ErrorColumn,
        FinishedColumn,
        AcceptedColumn,     // yes / no / empty, as the CSV's `accepted`
        RejectReasonColumn, // which acceptance check failed
        TitleColumn,        // the HTML title
        ColumnCount
    };
    enum Role {
        OutcomeRole = Qt::UserRole, // int(crawl::Outcome)
        IdRole,                     // quint64
        SortRole,                   // a number or string that sorts naturally
    };

    explicit ResultsModel(QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // Appends new results and replaces rows whose id is already present (retries).
    void addResults(const QList<crawl::CrawlResult> &results);
    void clear();

    const ResultStore &store() const { return m_store; }
    // Rows, URLs and titles leave memory for unnamed files in `directory` (ResultStore::setSpillDirectory).
    bool spillTo(const QString &directory) { return m_store.setSpillDirectory(directory); }
    crawl::CrawlResult result(int row) const { return m_store.result(row); }
    int rowForId(quint64 id) const; // -1 when unknown
    qint64 failureCount() const { return m_failures; }
    qint64 outcomeCount(crawl::Outcome outcome) const { return m_outcomeCounts[size_t(outcome)]; }
    qint64 acceptedCount(crawl::CrawlResult::Accepted accepted) const {
        return m_acceptedCounts[size_t(accepted)];
    }

Q_SIGNALS:
    void rowsReplaced(int first, int last);

private:
    void setRowForId(quint64 id, int row);

    ResultStore m_store;
    // id -> row. Engine ids are dense (input order), so a vector indexed by id costs 4 bytes a row;
    // ids far beyond the row count (not expected) go to a hash.
    std::vector<qint32> m_rowById;
    QHash<quint64, qint32> m_sparseRowById;
    qint64 m_failures = 0;
    std::array<qint64, crawl::kOutcomeCount> m_outcomeCounts{}; // rows per outcome, kept as rows change
    std::array<qint64, 3> m_acceptedCounts{};                   // rows per CrawlResult::Accepted
    qint64 m_utcOffsetMs = 0; // local time for the Finished column, taken when a crawl starts
};

} // namespace ui
