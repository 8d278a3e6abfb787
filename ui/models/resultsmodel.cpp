#include "models/resultsmodel.h"

#include "model/outcome.h"
#include "settings/windowtheme.h"

#include <QBrush>
#include <QColor>
#include <QDateTime>
#include <QGuiApplication>
#include <QLocale>

#include <algorithm>

namespace ui {

namespace {
constexpr quint64 kDenseIdLimit = quint64(1) << 26; // 64M ids: 256 MB of index at most

// As the CSV's `accepted` cell says it.
QString acceptedText(crawl::CrawlResult::Accepted accepted) {
    switch (accepted) {
    case crawl::CrawlResult::Accepted::Yes:
        return QStringLiteral("yes");
    case crawl::CrawlResult::Accepted::No:
        return QStringLiteral("no");
    case crawl::CrawlResult::Accepted::Unknown:
        break;
    }
    return {};
}
} // namespace

ResultsModel::ResultsModel(QObject *parent)
    : QAbstractTableModel(parent)
    , m_utcOffsetMs(qint64(QDateTime::currentDateTime().offsetFromUtc()) * 1000) {}

int ResultsModel::rowCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : int(m_store.size());
}

int ResultsModel::columnCount(const QModelIndex &parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ResultsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal)
        return QAbstractTableModel::headerData(section, orientation, role);
    if (role == Qt::DisplayRole) {
        switch (Column(section)) {
        case LineColumn:
            return tr("Line");
        case UrlColumn:
            return tr("URL");
        case HostColumn:
            return tr("Host");
        case OutcomeColumn:
            return tr("Outcome");
        case StatusColumn:
            return tr("Status");
        case AttemptsColumn:
            return tr("Attempts");
        case LatencyColumn:
            return tr("Latency");
        case BytesColumn:
            return tr("Bytes");
        case ContentTypeColumn:
            return tr("Content type");
        case ErrorColumn:
            return tr("Error");
        case FinishedColumn:
            return tr("Finished");
        case AcceptedColumn:
            return tr("Accepted");
        case RejectReasonColumn:
            return tr("Reject reason");
        case TitleColumn:
            return tr("Title");
        case ColumnCount:
            break;
        }
    } else if (role == Qt::ToolTipRole) {
        switch (Column(section)) {
        case LineColumn:
            return tr("Line number in the input list");
        case UrlColumn:
            return tr("The normalized input URL (the raw line for invalid input)");
        case OutcomeColumn:
            return tr("Terminal outcome: ok, http_error, timeout, network_error, too_large, "
                      "invalid_url or cancelled");
        case StatusColumn:
            return tr("HTTP status of the last response (empty when nothing answered)");
        case AttemptsColumn:
            return tr("Requests made for this URL, not counting redirect hops");
        case LatencyColumn:
            return tr("Last request, start to end of body, in milliseconds");
        case ErrorColumn:
            return tr("Why the URL did not end ok");
        case FinishedColumn:
            return tr("When the outcome was decided (local time)");
        case AcceptedColumn:
            return tr("Whether the last response passed the acceptance checks (Crawl > Crawl Rules): yes, "
                      "no, or empty when no response was checked");
        case RejectReasonColumn:
            return tr("Which acceptance checks failed (also a soft 404 only reported)");
        case TitleColumn:
            return tr("The HTML title of the last response");
        default:
            break;
        }
    } else if (role == Qt::TextAlignmentRole) {
        switch (Column(section)) {
        case LineColumn:
        case StatusColumn:
        case AttemptsColumn:
        case LatencyColumn:
        case BytesColumn:
            return int(Qt::AlignRight | Qt::AlignVCenter);
        default:
            return int(Qt::AlignLeft | Qt::AlignVCenter);
        }
    }
    return {};
}

QVariant ResultsModel::data(const QModelIndex &index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const int i = index.row();
    const ResultStore::Row row = m_store.row(i);
    const auto column = Column(index.column());

    switch (role) {
    case Qt::DisplayRole:
        switch (column) {
        case LineColumn:
            return m_store.lineNumber(i) > 0 ? QVariant(m_store.lineNumber(i)) : QVariant();
        case UrlColumn:
            return m_store.url(i);
        case HostColumn:
            return m_store.host(i);
        case OutcomeColumn:
            return crawl::outcomeName(crawl::Outcome(row.outcome));
        case StatusColumn:
            return row.status ? QVariant(int(row.status)) : QVariant();
        case AttemptsColumn:
            return int(row.attempts);
        case LatencyColumn:
            return row.latencyMs >= 0 ? QVariant(QStringLiteral("%1 ms").arg(row.latencyMs)) : QVariant();
        case BytesColumn:
            return row.status ? QVariant(QLocale().formattedDataSize(row.bytes)) : QVariant();
        case ContentTypeColumn:
            return m_store.contentType(i);
        case ErrorColumn:
            return m_store.error(i);
        case FinishedColumn: {
            if (row.finishedAtMs == ResultStore::kNoTime)
                return {};
            // Formatted by hand with a cached UTC offset: a local-time QDateTime per painted cell
            // costs a time-zone lookup each.
            const qint64 local = row.finishedAtMs + m_utcOffsetMs;
            const qint64 dayMs = ((local % 86'400'000) + 86'400'000) % 86'400'000;
            return QStringLiteral("%1:%2:%3.%4")
                .arg(dayMs / 3'600'000, 2, 10, QLatin1Char('0'))
                .arg(dayMs / 60'000 % 60, 2, 10, QLatin1Char('0'))
                .arg(dayMs / 1000 % 60, 2, 10, QLatin1Char('0'))
                .arg(dayMs % 1000, 3, 10, QLatin1Char('0'));
        }
        case AcceptedColumn:
            return acceptedText(m_store.accepted(i));
        case RejectReasonColumn:
            return m_store.rejectReason(i);
        case TitleColumn:
            return m_store.title(i);
        case ColumnCount:
            break;
        }
        break;
    case SortRole:
        switch (column) {
        case LineColumn:
            return m_store.lineNumber(i);
        case UrlColumn:
            return m_store.url(i);
        case HostColumn:
            return m_store.host(i);
        case OutcomeColumn:
            return int(row.outcome);
        case StatusColumn:
            return int(row.status);
        case AttemptsColumn:
            return int(row.attempts);
        case LatencyColumn:
            return row.latencyMs;
        case BytesColumn:
            return row.bytes;
        case ContentTypeColumn:
            return m_store.contentType(i);
        case ErrorColumn:
            return m_store.error(i);
        case FinishedColumn:
            return row.finishedAtMs;
        case AcceptedColumn:
            return int(m_store.accepted(i));
        case RejectReasonColumn:
            return m_store.rejectReason(i);
        case TitleColumn:
            return m_store.title(i);
        case ColumnCount:
            break;
        }
        break;
    case Qt::ToolTipRole:
        if (column == RejectReasonColumn || column == TitleColumn) {
            const QString text = column == TitleColumn ? m_store.title(i) : m_store.rejectReason(i);
            return text.isEmpty() ? QVariant() : QVariant(text);
        }
        if (column == UrlColumn || column == ErrorColumn) {
            const QString error = m_store.error(i);
            return error.isEmpty() ? m_store.url(i) : QStringLiteral("%1\n%2").arg(m_store.url(i), error);
        }
        break;
    case Qt::TextAlignmentRole:
        return headerData(index.column(), Qt::Horizontal, role);
    case Qt::ForegroundRole:
        // The application's palette at paint time: a theme or desktop change repaints the views.
        if (column == OutcomeColumn)
            return QBrush(outcomeColor(crawl::Outcome(row.outcome), QGuiApplication::palette()));
        if (column == AcceptedColumn && m_store.accepted(i) == crawl::CrawlResult::Accepted::No)
            return QBrush(outcomeColor(crawl::Outcome::HttpError, QGuiApplication::palette()));
        break;
    case OutcomeRole:
        return int(row.outcome);
    case IdRole:
        return m_store.id(i);
    default:
        break;
    }
    return {};
}

int ResultsModel::rowForId(quint64 id) const {
    if (id < m_rowById.size())
        return m_rowById[size_t(id)];
    if (id >= kDenseIdLimit)
        return m_sparseRowById.value(id, -1);
    return -1;
}

void ResultsModel::setRowForId(quint64 id, int row) {
    if (id >= kDenseIdLimit) {
        m_sparseRowById.insert(id, row);
        return;
    }
    // Grown in steps of 64K ids, not by half its size: resize() writes every new slot, so slack would be
    // resident memory (2 MB with a million rows), and the old block is freed at once (mmap'd).
    if (id >= m_rowById.size()) {
        constexpr size_t kStep = size_t(1) << 16;
        m_rowById.resize((size_t(id) / kStep + 1) * kStep, -1);
    }
    m_rowById[size_t(id)] = row;
}

void ResultsModel::addResults(const QList<crawl::CrawlResult> &results) {
    // Split the batch: replacements are applied in place, new ones appended in one insert.
    QList<const crawl::CrawlResult *> fresh;
    fresh.reserve(results.size());
    int firstReplaced = -1;
    int lastReplaced = -1;
    QHash<quint64, qsizetype> freshById; // a batch may itself hold the same id twice
    for (const crawl::CrawlResult &result : results) {
        const int existing = rowForId(result.id);
        if (existing >= 0) {
            if (crawl::isFailure(m_store.outcome(existing)))
                --m_failures;
            if (crawl::isFailure(result.outcome))
                ++m_failures;
            --m_outcomeCounts[size_t(m_store.outcome(existing))];
            ++m_outcomeCounts[size_t(result.outcome)];
            --m_acceptedCounts[size_t(m_store.accepted(existing))];
            ++m_acceptedCounts[size_t(result.accepted)];
            m_store.replace(existing, result);
            firstReplaced = firstReplaced < 0 ? existing : std::min(firstReplaced, existing);
            lastReplaced = std::max(lastReplaced, existing);
            continue;
        }
        const auto dup = freshById.constFind(result.id);
        if (dup != freshById.cend()) {
            fresh[dup.value()] = &result;
            continue;
        }
        freshById.insert(result.id, fresh.size());
        fresh.append(&result);
    }
    if (firstReplaced >= 0) {
        Q_EMIT dataChanged(index(firstReplaced, 0), index(lastReplaced, ColumnCount - 1));
        Q_EMIT rowsReplaced(firstReplaced, lastReplaced);
    }
    if (fresh.isEmpty())
        return;
    const int first = int(m_store.size());
    beginInsertRows({}, first, first + int(fresh.size()) - 1);
    for (const crawl::CrawlResult *result : std::as_const(fresh)) {
        setRowForId(result->id, int(m_store.size()));
        if (crawl::isFailure(result->outcome))
            ++m_failures;
        ++m_outcomeCounts[size_t(result->outcome)];
        ++m_acceptedCounts[size_t(result->accepted)];
        m_store.append(*result);
    }
    endInsertRows();
}

void ResultsModel::clear() {
    beginResetModel();
    m_store.clear();
    m_rowById.clear();
    m_rowById.shrink_to_fit();
    m_sparseRowById.clear();
    m_failures = 0;
    m_outcomeCounts.fill(0);
    m_acceptedCounts.fill(0);
    m_utcOffsetMs = qint64(QDateTime::currentDateTime().offsetFromUtc()) * 1000;
    endResetModel();
}

} // namespace ui
