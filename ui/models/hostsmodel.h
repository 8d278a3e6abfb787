#pragma once

#include "charts/hostpalette.h"
#include "model/crawlsnapshot.h"
#include "models/hoststatus.h"

#include <QAbstractTableModel>
#include <QHash>
#include <QList>
#include <QSet>

namespace ui {

// One row per host from the engine's snapshots, keyed by host: each snapshot becomes one ranged
// dataChanged for the known hosts and one insert for new ones; only clear() (a new crawl) resets.
class HostsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        HostColumn,
        StateColumn,
        InFlightColumn,
        QueuedColumn,
        DoneColumn,
        OkColumn,
        FailedColumn,
        RetriesColumn,
        Status429Column,
        P50Column,
        P95Column,
        LastStatusColumn,
        IntervalColumn,
        RobotsColumn,   // the host's robots.txt status
        YieldColumn,    // accepted ÷ ok
        QueueAgeColumn, // age of the oldest queued URL
        Rate429Column,  // share of the responses that were 429
        ColumnCount
    };
    enum Role {
        SortRole = Qt::UserRole, // numbers sort as numbers
        InFlightRole,            // int
        MaxInFlightRole,         // int
        HostKeyRole,             // QString "host:port"
        StateRole,               // int(crawl::HostState)
        BreakerStateRole,        // int(crawl::BreakerState)
    };

    explicit HostsModel(QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // `nowMs` (epoch ms) drives the countdowns of waiting hosts.
    void setHosts(const QList<crawl::HostSnapshot> &hosts, qint64 nowMs);
    // The crawl's state decides what idle-looking hosts say (paused, stopping, done); set it before
    // setHosts() of the same snapshot.
    void setCrawlState(crawl::CrawlState state) { m_crawlState = state; }
    void markSkipped(const QString &hostKey); // the user skipped its remaining URLs
    void clear();
    const crawl::HostSnapshot &host(int row) const { return m_hosts[row]; }
    int rowForHost(const QString &hostKey) const { return m_rowByHost.value(hostKey, -1); }

    HostStatus status(int row) const;
    // The charts' host colours: each host shows its line's colour as a swatch (DecorationRole).
    void setHostPalette(HostPalette *palette) { m_palette = palette; }
    // Shown beside a host's address: what the host is ("slow", "rate-limited"; the demo labels its hosts).
    void setHostLabels(const QHash<QString, QString> &labels);

private:
    // SortRole: numbers that sort naturally; the counts also display as these.
    QVariant sortValue(int row, Column column) const;

    QList<crawl::HostSnapshot> m_hosts;
    QHash<QString, int> m_rowByHost;
    QSet<QString> m_skipped;
    crawl::CrawlState m_crawlState = crawl::CrawlState::Idle;
    qint64 m_nowMs = 0;
    HostPalette *m_palette = nullptr; // not owned
    QHash<QString, QString> m_labels;
};

} // namespace ui
