#include "pages/resultspage.h"

#include "model/outcome.h"
#include "models/incrementalfilter.h"
#include "models/resultfiltersortmodel.h"
#include "models/resultsmodel.h"
#include "models/resultstore.h"
#include "models/rowclipboard.h"
#include "pages/tablesetup.h"
#include "widgets/acceptancefilterbutton.h"
#include "widgets/elidingdelegate.h"
#include "widgets/hostfilterbutton.h"
#include "widgets/statusfilterbutton.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QDesktopServices>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMenu>
#include <QSplitter>
#include <QTableView>
#include <QTextBrowser>
#include <QTimer>
#include <QToolButton>
#include <QUrl>
#include <QVBoxLayout>

#include <algorithm>

namespace ui {

namespace {

QString number(qint64 n) {
    return QLocale().toString(n);
}

} // namespace

ResultsPage::ResultsPage(Kind kind, ResultsModel *results, QWidget *parent)
    : QWidget(parent)
    , m_kind(kind)
    , m_results(results)
    , m_filter(new ResultFilterSortModel(this)) {
    const bool failures = kind == Kind::Failures;
    m_filter->setResultsModel(results);
    m_filter->setFailuresOnly(failures);

    // Sorted on demand by a click on a header (a second click reverses it, a third goes back to arrival
    // order); the sort holds while new rows stream in.
    m_view = makeTable(nullptr);
    m_view->setObjectName(failures ? QStringLiteral("failuresView") : QStringLiteral("resultsView"));
    m_view->setModel(m_filter);
    m_view->setSortingEnabled(true);
    m_view->horizontalHeader()->setSortIndicatorClearable(true);
    m_view->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(makeFilterBar());

    if (failures) {
        // The error is what this table is for: it takes the room left (the host is in the URL and the
        // finish time in the details; both can be shown again from the header's menu).
        for (const int hidden :
             {ResultsModel::LineColumn, ResultsModel::HostColumn, ResultsModel::LatencyColumn,
              ResultsModel::BytesColumn, ResultsModel::ContentTypeColumn, ResultsModel::FinishedColumn,
              ResultsModel::AcceptedColumn, ResultsModel::RejectReasonColumn, ResultsModel::TitleColumn})
            m_view->setColumnHidden(hidden, true);
        setColumnWidths(m_view, {{ResultsModel::UrlColumn, 260},
                                 {ResultsModel::HostColumn, 130},
                                 {ResultsModel::OutcomeColumn, 100},
                                 {ResultsModel::StatusColumn, 55},
                                 {ResultsModel::AttemptsColumn, 65},
                                 {ResultsModel::ErrorColumn, 300},
                                 {ResultsModel::FinishedColumn, 95}});
        m_details = new QTextBrowser;
        m_details->setObjectName(QStringLiteral("failureDetails"));
        m_details->setPlaceholderText(
            tr("Select a failure to see its redirect chain, last error and attempts."));
        m_details->setOpenLinks(false);
        connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
                [this] { showDetails(false); });
        // The filter may hide the row on show (reset), a sort moves it (layout), a retry replaces it
        // (data).
        connect(m_filter, &QAbstractItemModel::modelReset, this, [this] { showDetails(false); });
        connect(m_filter, &QAbstractItemModel::layoutChanged, this, [this] { showDetails(false); });
        connect(m_filter, &QAbstractItemModel::dataChanged, this, [this] { showDetails(true); });
        m_splitter = new QSplitter(Qt::Horizontal);
        m_splitter->setObjectName(QStringLiteral("failuresSplitter"));
        m_splitter->addWidget(m_view);
        m_splitter->addWidget(m_details);
        m_splitter->setStretchFactor(0, 3);
        m_splitter->setStretchFactor(1, 1);
        layout->addWidget(m_splitter, 1);
    } else {
        m_view->setToolTip({});
        setColumnWidths(m_view, {{ResultsModel::LineColumn, 60},
                                 {ResultsModel::UrlColumn, 360},
                                 {ResultsModel::HostColumn, 130},
                                 {ResultsModel::OutcomeColumn, 100},
                                 {ResultsModel::StatusColumn, 55},
                                 {ResultsModel::AttemptsColumn, 65},
                                 {ResultsModel::LatencyColumn, 75},
                                 {ResultsModel::BytesColumn, 80},
                                 {ResultsModel::ContentTypeColumn, 150},
                                 {ResultsModel::ErrorColumn, 260},
                                 {ResultsModel::FinishedColumn, 95},
                                 {ResultsModel::AcceptedColumn, 70},
                                 {ResultsModel::RejectReasonColumn, 220},
                                 {ResultsModel::TitleColumn, 220}});
        layout->addWidget(m_view, 1);
    }

    for (const int column :
         {ResultsModel::ErrorColumn, ResultsModel::RejectReasonColumn, ResultsModel::TitleColumn})
        m_view->setItemDelegateForColumn(
            column, new ElidingDelegate(Qt::ElideRight, m_view)); // full text in the tooltip
    addColumnMenu(m_view);
    createRowActions();
}

QWidget *ResultsPage::makeFilterBar() {
    const bool failures = m_kind == Kind::Failures;
    ResultFilterSortModel *model = m_filter;
    auto *bar = new QWidget;
    auto *layout = new QHBoxLayout(bar);
    layout->setContentsMargins(0, 0, 0, 0);
    auto *text = new QLineEdit(bar);
    text->setObjectName(failures ? QStringLiteral("failuresFilter") : QStringLiteral("resultsFilter"));
    text->setPlaceholderText(tr("Filter by URL, host or error text"));
    text->setClearButtonEnabled(true);
    text->setToolTip(tr("Shows rows whose URL, host or error contains this text (case-insensitive)"));
    // Outcomes: any combination, each with its count (counted when the menu opens).
    auto *outcome = new QToolButton(bar);
    outcome->setObjectName(failures ? QStringLiteral("failuresOutcome") : QStringLiteral("resultsOutcome"));
    outcome->setToolTip(tr("Show only some outcomes"));
    outcome->setPopupMode(QToolButton::InstantPopup);
    outcome->setText(tr("All outcomes"));
    auto *menu = new QMenu(outcome);
    QList<QAction *> outcomeActions;
    for (int i = 0; i < crawl::kOutcomeCount; ++i) {
        if (failures && crawl::Outcome(i) == crawl::Outcome::Ok)
            continue;
        QAction *action = menu->addAction(crawl::outcomeName(crawl::Outcome(i)));
        action->setCheckable(true);
        action->setChecked(true);
        action->setData(i);
        outcomeActions.append(action);
    }
    menu->addSeparator();
    QAction *all = menu->addAction(tr("Show All"));
    outcome->setMenu(menu);
    ResultsModel *results = m_results;
    connect(menu, &QMenu::aboutToShow, outcome, [results, outcomeActions] {
        for (QAction *action : outcomeActions) {
            const auto o = crawl::Outcome(action->data().toInt());
            action->setText(tr("%1 (%2)").arg(crawl::outcomeName(o), number(results->outcomeCount(o))));
        }
    });
    auto applyMask = [model, outcome, outcomeActions] {
        quint32 mask = 0;
        QStringList names;
        for (QAction *action : outcomeActions) {
            if (action->isChecked()) {
                mask |= 1u << unsigned(action->data().toInt());
                names.append(crawl::outcomeName(crawl::Outcome(action->data().toInt())));
            }
        }
        const bool everything = names.size() == outcomeActions.size();
        model->setOutcomeMask(everything ? ~0u : mask);
        outcome->setText(everything          ? tr("All outcomes")
                         : names.isEmpty()   ? tr("No outcomes")
                         : names.size() == 1 ? names.first()
                                             : tr("%1 outcomes").arg(names.size()));
    };
    for (QAction *action : std::as_const(outcomeActions))
        connect(action, &QAction::toggled, model, applyMask);
    connect(all, &QAction::triggered, model, [outcomeActions, applyMask] {
        for (QAction *action : outcomeActions) {
            const QSignalBlocker blocker(action);
            action->setChecked(true);
        }
        applyMask();
    });
    auto *count = new QLabel(bar);
    count->setMinimumWidth(count->fontMetrics().horizontalAdvance(QStringLiteral("1,000,000 rows")) + 8);
    count->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    layout->addWidget(text, 1);
    layout->addWidget(outcome);
    auto *status = new StatusFilterButton(m_filter, bar);
    status->setObjectName(failures ? QStringLiteral("failuresStatus") : QStringLiteral("resultsStatus"));
    auto *hosts = new HostFilterButton(m_filter, bar);
    hosts->setObjectName(failures ? QStringLiteral("failuresHost") : QStringLiteral("resultsHost"));
    auto *acceptance = new AcceptanceFilterButton(m_filter, bar);
    acceptance->setObjectName(failures ? QStringLiteral("failuresAcceptance")
                                       : QStringLiteral("resultsAcceptance"));
    layout->addWidget(status);
    layout->addWidget(hosts);
    layout->addWidget(acceptance);
    layout->addWidget(count);

    // Filtering a million rows takes a moment: wait until typing pauses, then filter in slices across turns
    // of the event loop (the table keeps the old filter until the new one is complete).
    auto *debounce = new QTimer(bar);
    debounce->setSingleShot(true);
    debounce->setInterval(250);
    m_textFilter = new IncrementalFilter(model, bar);
    IncrementalFilter *textFilter = m_textFilter;
    connect(text, &QLineEdit::textChanged, debounce, qOverload<>(&QTimer::start));
    // A pass for text the user has since changed is stale: stop it at once, not after the pause.
    connect(text, &QLineEdit::textChanged, textFilter, &IncrementalFilter::cancel);
    connect(debounce, &QTimer::timeout, textFilter,
            [textFilter, text] { textFilter->setText(text->text()); });
    auto updateCount = [model, count, textFilter] {
        if (textFilter->isRunning())
            count->setText(tr("filtering… %1%").arg(textFilter->progressPercent()));
        else if (model->isSorting())
            count->setText(tr("sorting… %1%").arg(model->sortProgressPercent()));
        else
            count->setText(tr("%1 rows").arg(number(model->rowCount())));
    };
    connect(model, &QAbstractItemModel::rowsInserted, count, updateCount);
    connect(model, &QAbstractItemModel::modelReset, count, updateCount);
    connect(textFilter, &IncrementalFilter::progressChanged, count, updateCount);
    connect(textFilter, &IncrementalFilter::finished, count, updateCount);
    connect(model, &ResultFilterSortModel::sortProgressChanged, count, updateCount);
    updateCount();
    m_filterEdit = text;
    return bar;
}

void ResultsPage::createRowActions() {
    auto makeAction = [this](const QString &text, const QKeySequence &key, const QString &name) {
        auto *action = new QAction(text, m_view);
        action->setObjectName(name);
        action->setShortcut(key);
        // Only while the table (or a child) has focus: Ctrl+C stays the filter field's own copy.
        action->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        m_view->addAction(action);
        return action;
    };
    const QString prefix = m_kind == Kind::Failures ? QStringLiteral("failures") : QStringLiteral("results");
    m_copyUrl = makeAction(tr("Copy URL"), QKeySequence::Copy, prefix + QStringLiteral("CopyUrl"));
    m_copyUrl->setToolTip(tr("The URLs of the selected rows, one per line"));
    m_copyRow = makeAction(tr("Copy Row"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C),
                           prefix + QStringLiteral("CopyRow"));
    m_copyRow->setToolTip(
        tr("The selected rows' visible columns, tab-separated (pastes into a spreadsheet)"));
    m_openInBrowser = makeAction(tr("Open in Browser"), QKeySequence(Qt::CTRL | Qt::Key_Return),
                                 prefix + QStringLiteral("OpenInBrowser"));
    m_openInBrowser->setToolTip(
        tr("Open the current row's URL in the desktop's browser (http and https only)"));
    connect(m_copyUrl, &QAction::triggered, this, &ResultsPage::copySelectedUrls);
    connect(m_copyRow, &QAction::triggered, this, &ResultsPage::copySelectedRows);
    connect(m_openInBrowser, &QAction::triggered, this, &ResultsPage::openCurrentInBrowser);
    m_view->setContextMenuPolicy(Qt::ActionsContextMenu);
    m_view->installEventFilter(this);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &ResultsPage::updateRowActions);
    connect(m_filter, &QAbstractItemModel::modelReset, this, &ResultsPage::updateRowActions);
    updateRowActions();
}

// The table itself would take Ctrl+C and copy the current cell only: the action copies every selected row's
// URL.
bool ResultsPage::eventFilter(QObject *watched, QEvent *event) {
    if (watched == m_view && event->type() == QEvent::KeyPress &&
        static_cast<QKeyEvent *>(event)->matches(QKeySequence::Copy)) {
        m_copyUrl->trigger();
        return true;
    }
    return QWidget::eventFilter(watched, event);
}

void ResultsPage::addRowAction(QAction *action) {
    m_view->addAction(action);
}

void ResultsPage::updateRowActions() {
    const QModelIndex current = m_view->currentIndex();
    const bool browsable =
        current.isValid() &&
        opensInBrowser(QUrl(m_results->store().url(m_filter->sourceRow(current.row())), QUrl::StrictMode));
    m_openInBrowser->setEnabled(browsable);
}

QList<int> ResultsPage::selectedSourceRows() const {
    QModelIndexList rows = m_view->selectionModel()->selectedRows();
    std::sort(rows.begin(), rows.end(),
              [](const QModelIndex &a, const QModelIndex &b) { return a.row() < b.row(); });
    QList<int> sourceRows;
    sourceRows.reserve(rows.size());
    for (const QModelIndex &index : std::as_const(rows))
        sourceRows.append(m_filter->sourceRow(index.row()));
    return sourceRows;
}

void ResultsPage::copySelectedRows() {
    QModelIndexList rows = m_view->selectionModel()->selectedRows();
    std::sort(rows.begin(), rows.end(),
              [](const QModelIndex &a, const QModelIndex &b) { return a.row() < b.row(); });
    if (rows.isEmpty())
        return;
    // The columns as the user sees them: in their on-screen order, hidden ones left out.
    const QHeaderView *header = m_view->horizontalHeader();
    QList<int> columns;
    for (int visual = 0; visual < header->count(); ++visual) {
        const int logical = header->logicalIndex(visual);
        if (!header->isSectionHidden(logical))
            columns.append(logical);
    }
    QStringList lines;
    lines.reserve(rows.size());
    for (const QModelIndex &index : std::as_const(rows)) {
        QStringList cells;
        for (const int column : std::as_const(columns))
            cells.append(m_filter->index(index.row(), column).data(Qt::DisplayRole).toString());
        lines.append(tsvLine(cells));
    }
    QApplication::clipboard()->setText(lines.join(QLatin1Char('\n')) + QLatin1Char('\n'));
    Q_EMIT statusMessage(tr("Copied %n row(s)", nullptr, int(lines.size())), 3'000);
}

void ResultsPage::openCurrentInBrowser() {
    const QModelIndex current = m_view->currentIndex();
    if (!current.isValid())
        return;
    const QString text = m_results->store().url(m_filter->sourceRow(current.row()));
    const QUrl url(text, QUrl::StrictMode);
    if (!opensInBrowser(url)) {
        Q_EMIT statusMessage(tr("Only http and https URLs open in the browser"), 5'000);
        return;
    }
    if (!QDesktopServices::openUrl(url))
        Q_EMIT statusMessage(tr("No browser could open %1").arg(url.toDisplayString()), 5'000);
}

void ResultsPage::focusFilter() {
    m_filterEdit->setFocus();
    m_filterEdit->selectAll();
}

void ResultsPage::clearDetails() {
    if (m_details)
        m_details->clear();
    m_detailsSourceRow = -1;
}

void ResultsPage::clearSortIndicator() {
    m_view->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
}

void ResultsPage::copySelectedUrls() {
    QStringList urls;
    const QList<int> rows = selectedSourceRows();
    urls.reserve(rows.size());
    for (const int row : rows)
        urls.append(m_results->store().url(row));
    if (urls.isEmpty())
        return;
    QApplication::clipboard()->setText(urls.join(QLatin1Char('\n')) + QLatin1Char('\n'));
    Q_EMIT statusMessage(tr("Copied %n URL(s)", nullptr, int(urls.size())), 3'000);
}

void ResultsPage::showDetails(bool force) {
    const QModelIndex current = m_view->currentIndex();
    const int sourceRow = current.isValid() ? m_filter->sourceRow(current.row()) : -1;
    if (sourceRow == m_detailsSourceRow && !force)
        return; // the same row (it only moved): keep the pane and its scroll position
    m_detailsSourceRow = sourceRow;
    if (sourceRow < 0) {
        m_details->clear();
        return;
    }
    const crawl::CrawlResult r = m_results->result(sourceRow);
    auto row = [](const QString &name, const QString &value) {
        return QStringLiteral("<tr><td style='color:#555;padding-right:8px'>%1</td><td>%2</td></tr>")
            .arg(name, value.toHtmlEscaped());
    };
    QString html = QStringLiteral("<p><b>%1</b></p><table>").arg(r.url.toHtmlEscaped());
    html += row(tr("Outcome"), crawl::outcomeName(r.outcome));
    html += row(tr("Error"), r.error);
    html += row(tr("Status"), r.status ? QString::number(r.status) : tr("no response"));
    html += row(tr("Attempts"), QString::number(r.attempts));
    if (r.lineNumber > 0)
        html += row(tr("Input line"), QString::number(r.lineNumber));
    if (!r.finalUrl.isEmpty() && r.finalUrl != r.url)
        html += row(tr("Final URL"), r.finalUrl);
    if (r.latencyMs >= 0)
        html +=
            row(tr("Latency"), r.ttfbMs >= 0 ? tr("%1 ms (first byte %2 ms)").arg(r.latencyMs).arg(r.ttfbMs)
                                             : tr("%1 ms (first byte —)").arg(r.latencyMs));
    if (r.startedAt.isValid())
        html += row(tr("Started"), r.startedAt.toLocalTime().toString(Qt::ISODateWithMs));
    if (r.finishedAt.isValid())
        html += row(tr("Finished"), r.finishedAt.toLocalTime().toString(Qt::ISODateWithMs));
    html += QStringLiteral("</table>");
    if (!r.redirectChain.isEmpty()) {
        html += tr("<p><b>Redirect chain</b> (%n hop(s))</p><ol>", nullptr, int(r.redirectChain.size()));
        for (const QString &hop : r.redirectChain)
            html += QStringLiteral("<li>%1</li>").arg(hop.toHtmlEscaped());
        html += QStringLiteral("</ol>");
    }
    m_details->setHtml(html);
}

} // namespace ui
