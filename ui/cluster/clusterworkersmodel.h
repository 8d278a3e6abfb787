#pragma once

#include "cluster/clusterwatchsnapshot.h"

#include <QAbstractTableModel>
#include <QList>

namespace ui {

// The workers of a shared crawl (one row each): id, machine, alive/dead, in flight, rate, heartbeat age.
// Replaced whole every second from the watcher's snapshot: a handful of rows, ranged dataChanged when the
// same workers are still there.
class ClusterWorkersModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Id, Host, State, InFlight, Rate, Heartbeat, ColumnCount };

    explicit ClusterWorkersModel(QObject *parent = nullptr);

    void setWorkers(const QList<crawl::ClusterWorkerView> &workers);
    void clear();
    const QList<crawl::ClusterWorkerView> &workers() const { return m_workers; }
    int aliveCount() const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QList<crawl::ClusterWorkerView> m_workers;
};

// "0.4 s ago", "12 s ago", "3 min ago": the heartbeat age for people.
QString heartbeatAgeText(qint64 ageMs);

} // namespace ui
