#include "models/incrementalfilter.h"

#include "models/resultfiltersortmodel.h"
#include "models/resultsmodel.h"
#include "models/slicedsorter.h"

#include <QElapsedTimer>

namespace ui {

IncrementalFilter::IncrementalFilter(ResultFilterSortModel *model, QObject *parent)
    : QObject(parent)
    , m_model(model) {
    m_nextTurn.setSingleShot(true);
    m_nextTurn.setInterval(0);
    connect(&m_nextTurn, &QTimer::timeout, this, &IncrementalFilter::runSlice);
    // Another filter changed, or the rows were cleared: what was judged so far may no longer hold.
    // Deferred to the next turn: the views are still handling that reset.
    connect(m_model, &QAbstractItemModel::modelReset, this, [this] {
        if (m_running && !m_adopting)
            restart();
    });
}

namespace {

// Up to this many rows are sorted in the final reset: about as long as one slice takes.
constexpr size_t kSortInResetRows = 16'384;
// A URL sort of spilled texts reads every row's URL back (one small read each, ~1.5 us): 4,565 rows were 7 ms
// of a 16 ms event. More than this many are read and sorted in slices (SlicedUrlSorter) instead.
constexpr size_t kSortInResetSpilledUrlRows = 256;

} // namespace

IncrementalFilter::~IncrementalFilter() = default;

void IncrementalFilter::setText(const QString &text) {
    const QString trimmed = text.trimmed();
    if (m_running && trimmed == m_match.text())
        return;
    cancel();
    if (trimmed == m_model->textFilter()) {
        Q_EMIT finished();
        return;
    }
    m_match = ResultTextMatch(trimmed);
    m_running = true;
    if (ResultsModel *results = m_model->resultsModel()) {
        // A replaced row (a retry) that was already judged may now pass or fail: judge everything again.
        connect(results, &QAbstractItemModel::dataChanged, this, [this](const QModelIndex &topLeft) {
            if (m_running && topLeft.row() < m_nextRow)
                restart();
        });
    }
    m_accepted.clear();
    m_nextRow = 0;
    runSlice();
}

int IncrementalFilter::progressPercent() const {
    if (!m_running || !m_model->resultsModel())
        return 0;
    // With a sort held, judging the rows is the first half of the pass and ordering them the second.
    if (m_sorting)
        return std::min(99, 50 + m_sorting->progressPercent() / 2);
    const int total = m_model->resultsModel()->rowCount();
    const int judged = total > 0 ? int(qint64(m_nextRow) * 100 / total) : 0;
    return std::min(99, m_model->sortColumn() >= 0 ? judged / 2 : judged);
}

void IncrementalFilter::restart() {
    m_sorting.reset();
    m_accepted.clear();
    m_nextRow = 0;
    m_match.forgetInternedStrings();
    m_nextTurn.start();
}

void IncrementalFilter::cancel() {
    if (!m_running)
        return;
    m_running = false;
    m_nextTurn.stop();
    m_sorting.reset();
    m_accepted = {};
    if (ResultsModel *results = m_model->resultsModel())
        disconnect(results, &QAbstractItemModel::dataChanged, this, nullptr);
    Q_EMIT finished();
}

void IncrementalFilter::runSlice() {
    ResultsModel *results = m_model->resultsModel();
    if (!m_running)
        return;
    QElapsedTimer clock;
    clock.start();
    if (m_sorting) {
        if (!sortSlice(m_budgetNs))
            m_nextTurn.start();
        return;
    }
    const int total = results ? results->rowCount() : 0;
    // The clock is read every 256 rows: a row costs well under a microsecond.
    while (m_nextRow < total) {
        const int end = std::min(total, m_nextRow + 256);
        for (int row = m_nextRow; row < end; ++row) {
            if (m_model->acceptsSourceRow(row, m_match))
                m_accepted.push_back(row);
        }
        m_nextRow = end;
        if (m_nextRow < total && clock.nsecsElapsed() >= m_budgetNs) {
            Q_EMIT progressChanged(progressPercent());
            m_nextTurn.start();
            return;
        }
    }
    const bool readsUrlsBack =
        results && m_model->sortColumn() == ResultsModel::UrlColumn && results->store().texts().isSpilling();
    const size_t sortInResetRows = readsUrlsBack ? kSortInResetSpilledUrlRows : kSortInResetRows;
    if (results && m_model->sortColumn() >= 0 && m_accepted.size() > sortInResetRows) {
        // Every row up to now is judged: order them in slices too, the rest of this turn first.
        // The rows go to the sorter (a URL sort lets them go once its keys are made: 4 MB at a million).
        m_sorting =
            std::make_unique<SlicedSorter>(results->store(), ResultsModel::Column(m_model->sortColumn()),
                                           m_model->sortOrder(), std::move(m_accepted));
        m_accepted = {};
        const qint64 left = m_budgetNs - clock.nsecsElapsed();
        if (left <= 0 || !sortSlice(left)) {
            Q_EMIT progressChanged(progressPercent());
            m_nextTurn.start();
        }
        return;
    }
    // Every row up to now is judged and nothing else runs in between: swap the result in.
    adopt();
}

bool IncrementalFilter::sortSlice(qint64 budgetNs) {
    // The user sorted by another column meanwhile (or by none): the sorter has the rows, so they are judged
    // again for the new order (one more pass, for a header click during one).
    if (m_model->sortColumn() < 0 || m_sorting->column() != m_model->sortColumn() ||
        m_sorting->order() != m_model->sortOrder()) {
        restart();
        return false;
    }
    if (!m_sorting->step(budgetNs)) {
        Q_EMIT progressChanged(progressPercent());
        return false;
    }
    std::vector<int> sorted = m_sorting->take();
    m_sorting.reset();
    m_running = false;
    disconnect(m_model->resultsModel(), &QAbstractItemModel::dataChanged, this, nullptr);
    m_adopting = true;
    m_model->adoptSortedTextFilter(m_match, std::move(sorted), m_nextRow);
    m_adopting = false;
    m_accepted = {};
    Q_EMIT finished();
    return true;
}

void IncrementalFilter::adopt() {
    ResultsModel *results = m_model->resultsModel();
    m_running = false;
    if (results)
        disconnect(results, &QAbstractItemModel::dataChanged, this, nullptr);
    m_adopting = true;
    if (results)
        m_model->adoptTextFilter(m_match, std::move(m_accepted));
    else
        m_model->setTextFilter(m_match.text());
    m_adopting = false;
    m_accepted = {};
    Q_EMIT finished();
}

} // namespace ui
