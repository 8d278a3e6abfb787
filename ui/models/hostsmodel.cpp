#include "models/hostsmodel.h"

#include <QBrush>
#include <QColor>
#include <QFont>

#include <algorithm>

namespace ui {

HostsModel::HostsModel(QObject *parent)
    : QAbstractTableModel(parent) {}

int HostsModel::rowCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : int(m_hosts.size());
}

int HostsModel::columnCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QString HostsModel::stateText(const crawl::HostSnapshot &host, qint64 nowMs) {
    const double left = std::max<qint64>(0, host.stateUntilMs - nowMs) / 1000.0;
    switch (host.state) {
    case crawl::HostState::Ready:
        return host.queued > 0 ? tr("ready") : tr("idle");
    case crawl::HostState::Busy:
        return tr("busy");
    case crawl::HostState::Pacing:
        return tr("waiting for interval");
    case crawl::HostState::BackingOff:
        return host.stateUntilMs > 0 ? tr("backing off %1 s").arg(left, 0, 'f', 1) : tr("backing off");
    case crawl::HostState::Paused:
        return tr("paused");
    }
    return {};
}

QVariant HostsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal)
        return QAbstractTableModel::headerData(section, orientation, role);
    if (role == Qt::DisplayRole) {
        switch (Column(section)) {
        case HostColumn:
            return tr("Host");
        case StateColumn:
            return tr("State");
        case InFlightColumn:
            return tr("In flight");
        case QueuedColumn:
            return tr("Queued");
        case DoneColumn:
            return tr("Done");
        case OkColumn:
            return tr("OK");
        case FailedColumn:
            return tr("Failed");
        case RetriesColumn:
            return tr("Retries");
        case Status429Column:
            return tr("429s");
        case P50Column:
            return tr("p50");
        case P95Column:
            return tr("p95");
        case LastStatusColumn:
            return tr("Last");
        case IntervalColumn:
            return tr("Interval");
        case ColumnCount:
            break;
        }
    } else if (role == Qt::ToolTipRole) {
        switch (Column(section)) {
        case HostColumn:
            return tr("host:port; every limit applies per host:port. * marks a per-host override");
        case StateColumn:
            return tr("ready, busy (at its in-flight limit), waiting for its start interval, "
                      "backing off after Retry-After (with a countdown), or paused by you");
        case InFlightColumn:
            return tr("Requests in flight against this host's limit");
        case QueuedColumn:
            return tr("URLs waiting to start, including retries waiting for their backoff");
        case DoneColumn:
            return tr("URLs of this host that have a final outcome");
        case RetriesColumn:
            return tr("Attempts repeated after a retryable failure");
        case Status429Column:
            return tr("429 Too Many Requests answers");
        case P50Column:
            return tr("Median latency (ms), whole crawl");
        case P95Column:
            return tr("95th percentile latency (ms), whole crawl");
        case LastStatusColumn:
            return tr("HTTP status of the last response");
        case IntervalColumn:
            return tr("Minimum time between two request starts on this host");
        default:
            break;
        }
    } else if (role == Qt::TextAlignmentRole) {
        return section == HostColumn || section == StateColumn ? int(Qt::AlignLeft | Qt::AlignVCenter)
                                                               : int(Qt::AlignRight | Qt::AlignVCenter);
    }
    return {};
}

QVariant HostsModel::sortValue(const crawl::HostSnapshot &h, Column column) {
    switch (column) {
    case HostColumn:
        return h.host;
    case StateColumn:
        return int(h.state);
    case InFlightColumn:
        return h.inFlight;
    case QueuedColumn:
        return h.queued;
    case DoneColumn:
        return h.done;
    case OkColumn:
        return h.ok;
    case FailedColumn:
        return h.failed;
    case RetriesColumn:
        return h.retries;
    case Status429Column:
        return h.status429;
    case P50Column:
        return h.p50Ms;
    case P95Column:
        return h.p95Ms;
    case LastStatusColumn:
        return h.lastStatus;
    case IntervalColumn:
        return h.intervalMs;
    case ColumnCount:
        break;
    }
    return {};
}

QVariant HostsModel::data(const QModelIndex &index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const crawl::HostSnapshot &h = m_hosts[index.row()];
    const auto column = Column(index.column());
    auto ms = [](int value) { return value >= 0 ? QVariant(value) : QVariant(); };

    switch (role) {
    case Qt::DisplayRole:
        switch (column) {
        case HostColumn:
            return h.overridden ? h.host + QStringLiteral(" *") : h.host;
        case StateColumn:
            return stateText(h, m_nowMs);
        case InFlightColumn:
            return QStringLiteral("%1 / %2").arg(h.inFlight).arg(h.maxInFlight);
        case P50Column:
            return ms(h.p50Ms);
        case P95Column:
            return ms(h.p95Ms);
        case LastStatusColumn:
            return h.lastStatus ? QVariant(h.lastStatus) : QVariant();
        case IntervalColumn:
            return tr("%1 ms").arg(h.intervalMs);
        default: // the counts show as they sort
            return sortValue(h, column);
        }
    case SortRole:
        return sortValue(h, column);
    case Qt::TextAlignmentRole:
        return headerData(index.column(), Qt::Horizontal, role);
    case Qt::ForegroundRole:
        if (column == StateColumn) {
            switch (h.state) {
            case crawl::HostState::BackingOff:
                return QBrush(QColor(0xb3, 0x6b, 0x00));
            case crawl::HostState::Paused:
                return QBrush(QColor(0x75, 0x75, 0x75));
            default:
                break;
            }
        } else if (column == FailedColumn && h.failed > 0) {
            return QBrush(QColor(0xb3, 0x26, 0x1e));
        } else if (column == LastStatusColumn && h.lastStatus >= 400) {
            return QBrush(QColor(0xb3, 0x26, 0x1e));
        }
        break;
    case Qt::ToolTipRole:
        if (column == HostColumn && h.overridden)
            return tr("Override: %1 in flight, %2 ms apart").arg(h.maxInFlight).arg(h.intervalMs);
        if (column == StateColumn && h.oldestQueuedAgeMs > 0)
            return tr("Oldest queued URL waited %1 s").arg(h.oldestQueuedAgeMs / 1000.0, 0, 'f', 1);
        break;
    case InFlightRole:
        return h.inFlight;
    case MaxInFlightRole:
        return h.maxInFlight;
    case HostKeyRole:
        return h.host;
    case StateRole:
        return int(h.state);
    default:
        break;
    }
    return {};
}

void HostsModel::setHosts(const QList<crawl::HostSnapshot> &hosts, qint64 nowMs) {
    m_nowMs = nowMs;
    // Rows are keyed by host and never move: known hosts are updated in place (one ranged
    // dataChanged), new ones appended in one insert. A host missing from a snapshot keeps its last
    // values, so selections and the sort stay put.
    QList<crawl::HostSnapshot> added;
    for (const crawl::HostSnapshot &host : hosts) {
        const auto it = m_rowByHost.constFind(host.host);
        if (it != m_rowByHost.cend())
            m_hosts[it.value()] = host;
        else
            added.append(host);
    }
    if (!m_hosts.isEmpty())
        Q_EMIT dataChanged(index(0, 0), index(int(m_hosts.size()) - 1, ColumnCount - 1));
    if (added.isEmpty())
        return;
    const int first = int(m_hosts.size());
    beginInsertRows({}, first, first + int(added.size()) - 1);
    for (const crawl::HostSnapshot &host : std::as_const(added)) {
        m_rowByHost.insert(host.host, int(m_hosts.size()));
        m_hosts.append(host);
    }
    endInsertRows();
}

void HostsModel::clear() {
    beginResetModel();
    m_hosts.clear();
    m_rowByHost.clear();
    endResetModel();
}

} // namespace ui
