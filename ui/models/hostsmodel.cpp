#include "models/hostsmodel.h"

#include "models/hostquality.h"

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

HostStatus HostsModel::status(int row) const {
    const crawl::HostSnapshot &h = m_hosts[row];
    return hostStatus(h, m_crawlState, h.skipped || m_skipped.contains(h.host), m_nowMs);
}

void HostsModel::markSkipped(const QString &hostKey) {
    m_skipped.insert(hostKey);
    const int row = rowForHost(hostKey);
    if (row >= 0)
        Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
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
        case RobotsColumn:
            return tr("robots.txt");
        case YieldColumn:
            return tr("Yield");
        case QueueAgeColumn:
            return tr("Queue age");
        case Rate429Column:
            return tr("429 rate");
        case ColumnCount:
            break;
        }
    } else if (role == Qt::ToolTipRole) {
        switch (Column(section)) {
        case HostColumn:
            return tr("host:port; every limit applies per host:port. \"override\" marks a host with its own "
                      "limits (right-click to change them)");
        case StateColumn:
            return tr("idle, ready, fetching, busy (at its in-flight limit), waiting for its start interval, "
                      "backing off after Retry-After (with a countdown), paused or skipped by you, crawl "
                      "paused, stopping, done");
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
        case RobotsColumn:
            return tr("What this host's robots.txt allows (Crawl > Crawl Rules): fetched with its rules, "
                      "none (4xx: everything allowed), unreachable or 5xx (nothing fetched for now), "
                      "Crawl-delay");
        case YieldColumn:
            return tr("Accepted ÷ ok: the share of this host's ok pages that passed the acceptance checks");
        case QueueAgeColumn:
            return tr("How long the host's oldest queued URL has waited");
        case Rate429Column:
            return tr("The share of this host's responses that were 429 Too Many Requests");
        default:
            break;
        }
    } else if (role == Qt::TextAlignmentRole) {
        return section == HostColumn || section == StateColumn || section == RobotsColumn
                   ? int(Qt::AlignLeft | Qt::AlignVCenter)
                   : int(Qt::AlignRight | Qt::AlignVCenter);
    }
    return {};
}

QVariant HostsModel::sortValue(int row, Column column) const {
    const crawl::HostSnapshot &h = m_hosts[row];
    switch (column) {
    case HostColumn:
        return h.host;
    case StateColumn:
        return int(status(row).kind);
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
    case RobotsColumn:
        return h.robotsStatus;
    case YieldColumn:
        return hostYield(h);
    case QueueAgeColumn:
        return h.queued > 0 ? h.oldestQueuedAgeMs : qint64(0);
    case Rate429Column:
        return host429Rate(h);
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
        case HostColumn: {
            QString text = h.host;
            if (const QString label = m_labels.value(h.host); !label.isEmpty())
                text += tr("  · %1").arg(label);
            return h.overridden ? tr("%1  · override").arg(text) : text;
        }
        case StateColumn:
            return status(index.row()).text;
        case InFlightColumn:
            // The host's own limit beside the user's when adaptive pace or a breaker recovery lowered it.
            if (h.effectiveMaxInFlight > 0 && h.effectiveMaxInFlight < h.maxInFlight)
                return QStringLiteral("%1 / %2 (of %3)")
                    .arg(h.inFlight)
                    .arg(h.effectiveMaxInFlight)
                    .arg(h.maxInFlight);
            return QStringLiteral("%1 / %2").arg(h.inFlight).arg(h.maxInFlight);
        case P50Column:
            return ms(h.p50Ms);
        case P95Column:
            return ms(h.p95Ms);
        case LastStatusColumn:
            return h.lastStatus ? QVariant(h.lastStatus) : QVariant();
        case IntervalColumn:
            // robots.txt's Crawl-delay can stretch it past the user's interval: show what is in force.
            if (!h.intervalReason.isEmpty())
                return tr("%1 ms (robots.txt)").arg(h.effectiveIntervalMs);
            return tr("%1 ms").arg(h.intervalMs);
        case RobotsColumn:
            return h.robotsStatus;
        case YieldColumn:
            return shareText(hostYield(h));
        case QueueAgeColumn:
            return queueAgeText(h);
        case Rate429Column:
            return shareText(host429Rate(h));
        default: // the counts show as they sort
            return sortValue(index.row(), column);
        }
    case SortRole:
        return sortValue(index.row(), column);
    case Qt::DecorationRole:
        if (column == HostColumn && m_palette)
            return m_palette->colorFor(h.host);
        return {};
    case Qt::FontRole:
        if (h.overridden && (column == HostColumn || column == InFlightColumn || column == IntervalColumn)) {
            QFont font;
            font.setBold(true);
            return font;
        }
        break;
    case Qt::TextAlignmentRole:
        return headerData(index.column(), Qt::Horizontal, role);
    case Qt::ForegroundRole:
        if (column == StateColumn) {
            switch (status(index.row()).kind) {
            case HostStatus::Kind::BackingOff:
                return QBrush(QColor(0xb3, 0x6b, 0x00));
            case HostStatus::Kind::Tripped:
            case HostStatus::Kind::GivenUp:
                return QBrush(QColor(0xb3, 0x26, 0x1e));
            case HostStatus::Kind::Paused:
            case HostStatus::Kind::CrawlPaused:
            case HostStatus::Kind::Skipped:
            case HostStatus::Kind::Idle:
            case HostStatus::Kind::Done:
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
        if (column == HostColumn)
            return h.overridden ? tr("%1\nOwn limits (override): %2 in flight, %3 ms apart")
                                      .arg(h.host)
                                      .arg(h.maxInFlight)
                                      .arg(h.intervalMs)
                                : h.host;
        if (column == InFlightColumn && !h.paceReason.isEmpty())
            return tr("Adaptive pace: %1 in flight, %2 ms apart (%3)")
                .arg(h.effectiveMaxInFlight)
                .arg(h.effectiveIntervalMs)
                .arg(h.paceReason);
        if (column == IntervalColumn && !h.intervalReason.isEmpty())
            return tr("%1 ms apart: %2 (yours: %3 ms)")
                .arg(h.effectiveIntervalMs)
                .arg(h.intervalReason)
                .arg(h.intervalMs);
        if (column == RobotsColumn && !h.robotsStatus.isEmpty())
            return h.intervalReason.isEmpty() ? h.robotsStatus
                                              : tr("%1\n%2").arg(h.robotsStatus, h.intervalReason);
        if (column == YieldColumn && h.ok > 0)
            return tr("%1 of %2 ok pages accepted").arg(h.accepted).arg(h.ok);
        if (column == Rate429Column && h.responses > 0)
            return tr("%1 of %2 responses were 429").arg(h.status429).arg(h.responses);
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
    case BreakerStateRole:
        return int(h.breakerState);
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
    m_skipped.clear();
    m_crawlState = crawl::CrawlState::Idle;
    endResetModel();
}

void HostsModel::setHostLabels(const QHash<QString, QString> &labels) {
    m_labels = labels;
    if (!m_hosts.isEmpty())
        Q_EMIT dataChanged(index(0, HostColumn), index(rowCount() - 1, HostColumn), {Qt::DisplayRole});
}

} // namespace ui
