#include "cluster/clusterworkersmodel.h"

#include <QBrush>
#include <QColor>

namespace ui {

QString heartbeatAgeText(qint64 ageMs) {
    if (ageMs < 10'000)
        return QStringLiteral("%1 s ago").arg(static_cast<double>(ageMs) / 1000.0, 0, 'f', 1);
    if (ageMs < 120'000)
        return QStringLiteral("%1 s ago").arg(ageMs / 1000);
    return QStringLiteral("%1 min ago").arg(ageMs / 60'000);
}

ClusterWorkersModel::ClusterWorkersModel(QObject *parent)
    : QAbstractTableModel(parent) {}

void ClusterWorkersModel::setWorkers(const QList<crawl::ClusterWorkerView> &workers) {
    bool sameRows = workers.size() == m_workers.size();
    for (qsizetype i = 0; sameRows && i < workers.size(); ++i)
        sameRows = workers[i].status.id == m_workers[i].status.id;
    if (!sameRows) {
        beginResetModel();
        m_workers = workers;
        endResetModel();
        return;
    }
    m_workers = workers;
    if (!m_workers.isEmpty())
        Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
}

void ClusterWorkersModel::clear() {
    setWorkers({});
}

int ClusterWorkersModel::aliveCount() const {
    int alive = 0;
    for (const crawl::ClusterWorkerView &worker : m_workers)
        alive += worker.dead ? 0 : 1;
    return alive;
}

int ClusterWorkersModel::rowCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_workers.size());
}

int ClusterWorkersModel::columnCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ClusterWorkersModel::data(const QModelIndex &index, int role) const {
    if (!index.isValid() || index.row() >= m_workers.size())
        return {};
    const crawl::ClusterWorkerView &w = m_workers[index.row()];
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case Id:
            return w.status.id;
        case Host:
            return w.host;
        case State:
            return w.dead ? tr("dead") : tr("alive");
        case InFlight:
            return w.status.inFlight;
        case Rate:
            return QString::number(w.status.requestsPerSecond, 'f', 1);
        case Heartbeat:
            return heartbeatAgeText(w.heartbeatAgeMs);
        default:
            return {};
        }
    }
    if (role == Qt::ForegroundRole && index.column() == State && w.dead)
        return QBrush(QColor(0xd0, 0x34, 0x2c));
    if (role == Qt::TextAlignmentRole && (index.column() == InFlight || index.column() == Rate))
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole && w.dead)
        return tr("No heartbeat for %1: its leases expire and its URLs go to the other workers")
            .arg(heartbeatAgeText(w.heartbeatAgeMs));
    return {};
}

QVariant ClusterWorkersModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Id:
        return tr("Worker");
    case Host:
        return tr("Machine");
    case State:
        return tr("State");
    case InFlight:
        return tr("In flight");
    case Rate:
        return tr("Results/s");
    case Heartbeat:
        return tr("Last heartbeat");
    default:
        return {};
    }
}

} // namespace ui
