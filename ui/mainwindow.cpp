#include "mainwindow.h"

#include "charts/chartspanel.h"
#include "dialogs/hostoverridedialog.h"
#include "engine/crawlengine.h"
#include "jobs/csvexporter.h"
#include "jobs/listloader.h"
#include "model/outcome.h"
#include "models/hostsmodel.h"
#include "models/resultfiltersortmodel.h"
#include "models/resultsmodel.h"
#include "status/etaestimate.h"
#include "status/exportfilename.h"
#include "status/windowtitle.h"
#include "widgets/elidingdelegate.h"
#include "widgets/inflightbardelegate.h"
#include "widgets/limitspanel.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QCloseEvent>
#include <QDateTime>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFrame>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTextBrowser>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace ui {

namespace {

QIcon actionIcon(const QString &name) {
    const QString resource = QStringLiteral(":/icons/actions/%1.svg").arg(name);
    return QIcon::fromTheme(name, QFile::exists(resource) ? QIcon(resource) : QIcon());
}

QString number(qint64 n) {
    return QLocale().toString(n);
}

void setColumnWidths(QTableView *view, std::initializer_list<std::pair<int, int>> widths) {
    for (const auto &[column, width] : widths)
        view->horizontalHeader()->resizeSection(column, width);
}

constexpr int kResultsFlushMs = 250;

} // namespace

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent)
    , m_engine(new crawl::CrawlEngine(this))
    , m_results(new ResultsModel(this))
    , m_resultsFilter(new ResultFilterSortModel(this))
    , m_failuresFilter(new ResultFilterSortModel(this))
    , m_hosts(new HostsModel(this))
    , m_hostsSort(new QSortFilterProxyModel(this))
    , m_loader(new ListLoader(this))
    , m_exporter(new CsvExporter(this)) {
    setWindowTitle(tr("Crawlscope"));
    setAcceptDrops(true);
    m_resultsFilter->setResultsModel(m_results);
    m_failuresFilter->setResultsModel(m_results);
    m_failuresFilter->setFailuresOnly(true);
    m_hostsSort->setSourceModel(m_hosts);
    m_hostsSort->setSortRole(HostsModel::SortRole);
    m_hostsSort->setDynamicSortFilter(true); // a few hundred rows at a few hertz: cheap

    createActions();
    createCentralWidgets();
    createStatusBar();

    // The crawl must never make the window stutter: its threads yield the CPU to the GUI thread.
    m_engine->setWorkerNice(5);
    connect(m_engine, &crawl::CrawlEngine::resultsReady, this, &MainWindow::onResults);
    connect(m_engine, &crawl::CrawlEngine::snapshotReady, this, &MainWindow::onSnapshot);
    connect(m_engine, &crawl::CrawlEngine::finished, this, &MainWindow::onFinished);
    connect(m_loader, &ListLoader::loaded, this, &MainWindow::onListLoaded);
    connect(m_loader, &ListLoader::progress, this, [this](qint64 bytes, qint64 total) {
        m_taskProgress->setVisible(true);
        m_taskProgress->setFormat(tr("Reading list %p%"));
        m_taskProgress->setRange(0, total > 0 ? 1000 : 0);
        if (total > 0)
            m_taskProgress->setValue(int(bytes * 1000 / total));
    });
    connect(m_loader, &ListLoader::failed, this, [this](const crawl::InputSource &, const QString &error) {
        m_taskProgress->setVisible(false);
        m_input.reset();
        updateActions();
        statusBar()->showMessage(error, 10'000);
        if (m_confirm)
            QMessageBox::warning(this, tr("Cannot load the list"), error);
    });
    connect(m_exporter, &CsvExporter::progress, this, [this](qint64 written, qint64 total) {
        m_taskProgress->setVisible(true);
        m_taskProgress->setFormat(tr("Exporting %p%"));
        m_taskProgress->setRange(0, 1000);
        m_taskProgress->setValue(total > 0 ? int(written * 1000 / total) : 0);
    });
    connect(m_exporter, &CsvExporter::finished, this, &MainWindow::onExportFinished);
    // The user's edits reach the engine at once and are remembered; limits set by code (the demo's)
    // are not written back to the settings.
    connect(m_limits, &LimitsPanel::limitsEdited, this, [this] {
        applyLimits();
        saveLimits();
    });
    connect(m_limits, &LimitsPanel::fetchPolicyEdited, this, [this] {
        applyFetchPolicy();
        saveLimits();
    });
    connect(m_limits, &LimitsPanel::resetRequested, this, &MainWindow::resetLimits);

    m_resultsFlush.setSingleShot(true);
    m_resultsFlush.setInterval(kResultsFlushMs);
    connect(&m_resultsFlush, &QTimer::timeout, this, &MainWindow::flushResults);

    m_closeTimeout.setSingleShot(true);
    m_closeTimeout.setInterval(5'000);
    connect(&m_closeTimeout, &QTimer::timeout, this, [this] {
        // The engine did not finish in time: close anyway; its destructor stops and joins.
        m_closeAfterStop = false;
        m_forceClose = true;
        close();
    });

    readSettings();
    applyLimits();
    applyFetchPolicy();
    updateActions();
}

MainWindow::~MainWindow() {
    // Stop background work that reports to this window before the members go away.
    m_loader->cancel();
    m_exporter->cancel();
    disconnect(m_engine, nullptr, this, nullptr);
}

// --- construction ---------------------------------------------------------------------------------

void MainWindow::createActions() {
    auto make = [this](const QString &text, const QString &icon, const QKeySequence &key,
                       const QString &tip) {
        auto *action = new QAction(actionIcon(icon), text, this);
        if (!key.isEmpty())
            action->setShortcut(key);
        const QString keyText =
            key.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(key.toString(QKeySequence::NativeText));
        action->setToolTip(tip + keyText);
        action->setStatusTip(tip);
        return action;
    };
    m_openAction = make(tr("&Open List…"), QStringLiteral("document-open"), QKeySequence::Open,
                        tr("Open a URL list: one URL per line (.txt) or a CSV with a url column"));
    m_pasteAction =
        make(tr("&Paste URLs"), QStringLiteral("edit-paste"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_V),
             tr("Use the URLs on the clipboard as the list"));
    m_startAction = make(tr("&Start"), QStringLiteral("media-playback-start"), QKeySequence(Qt::Key_F5),
                         tr("Start crawling the loaded list"));
    m_pauseAction = make(tr("&Pause"), QStringLiteral("media-playback-pause"), QKeySequence(Qt::Key_F6),
                         tr("Pause: no new request starts, requests in flight finish"));
    m_stopAction =
        make(tr("S&top"), QStringLiteral("media-playback-stop"), QKeySequence(Qt::SHIFT | Qt::Key_F5),
             tr("Stop the crawl: requests in flight are cancelled, unfinished URLs end as cancelled"));
    m_retryAction =
        make(tr("&Retry Failed"), QStringLiteral("view-refresh"), QKeySequence(Qt::CTRL | Qt::Key_R),
             tr("Queue the transient failures again: timeouts, network errors, 408/429/5xx and cancelled "
                "URLs. Permanent answers (403, 404, 410, redirect limits) stay as they are"));
    m_retryAction->setObjectName(QStringLiteral("retryTransient"));
    m_retryAllAction = make(tr("Retry &All Failures"), QStringLiteral("view-refresh"),
                            QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R),
                            tr("Queue every failure again, permanent ones (403, 404, 410, …) included"));
    m_retryAllAction->setObjectName(QStringLiteral("retryAll"));
    m_retrySelectedAction =
        make(tr("Retry &Selected Failures"), QStringLiteral("view-refresh"), QKeySequence(),
             tr("Queue the failures selected in the Failures table again"));
    m_retrySelectedAction->setObjectName(QStringLiteral("retrySelected"));
    m_exportViewAction = make(
        tr("&Export Current View…"), QStringLiteral("document-save-as"), QKeySequence(Qt::CTRL | Qt::Key_E),
        tr("Write the rows of the Failures or Results table on show, filtered and sorted as shown, as "
           "CSV (the same columns as the command line)"));
    m_exportViewAction->setObjectName(QStringLiteral("exportView"));
    m_exportAction = make(tr("Export &All…"), QStringLiteral("document-save-as"),
                          QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E),
                          tr("Write every result as CSV, whatever the tables show"));
    m_exportAction->setObjectName(QStringLiteral("exportAll"));
    m_exportFailuresAction = make(tr("Export &Failures…"), QStringLiteral("document-save-as"), QKeySequence(),
                                  tr("Write every failed URL as CSV"));
    m_exportFailuresAction->setObjectName(QStringLiteral("exportFailures"));
    auto *quitAction = make(tr("&Quit"), QString(), QKeySequence::Quit, tr("Quit Crawlscope"));
    auto *aboutAction = make(tr("&About Crawlscope"), QStringLiteral("help-about"), QKeySequence(Qt::Key_F1),
                             tr("Version and credits"));

    connect(m_openAction, &QAction::triggered, this, &MainWindow::openFileDialog);
    connect(m_pasteAction, &QAction::triggered, this, &MainWindow::pasteFromClipboard);
    connect(m_startAction, &QAction::triggered, this, [this] {
        if (!m_input)
            openFileDialog();
        else
            startCrawl();
    });
    connect(m_pauseAction, &QAction::triggered, this, &MainWindow::pauseOrResume);
    connect(m_stopAction, &QAction::triggered, this, &MainWindow::stopCrawl);
    connect(m_retryAction, &QAction::triggered, this, [this] { retryFailed(RetryScope::Transient); });
    connect(m_retryAllAction, &QAction::triggered, this, [this] { retryFailed(RetryScope::AllFailures); });
    connect(m_retrySelectedAction, &QAction::triggered, this, [this] { retryFailed(RetryScope::Selected); });
    connect(m_exportViewAction, &QAction::triggered, this, [this] { exportDialog(ExportKind::CurrentView); });
    connect(m_exportAction, &QAction::triggered, this, [this] { exportDialog(ExportKind::All); });
    connect(m_exportFailuresAction, &QAction::triggered, this,
            [this] { exportDialog(ExportKind::Failures); });
    connect(quitAction, &QAction::triggered, this, &QWidget::close);
    connect(aboutAction, &QAction::triggered, this, &MainWindow::showAbout);

    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->addAction(m_openAction);
    file->addAction(m_pasteAction);
    file->addSeparator();
    file->addAction(m_exportViewAction);
    file->addAction(m_exportAction);
    file->addAction(m_exportFailuresAction);
    file->addSeparator();
    file->addAction(quitAction);
    QMenu *crawlMenu = menuBar()->addMenu(tr("&Crawl"));
    crawlMenu->addAction(m_startAction);
    crawlMenu->addAction(m_pauseAction);
    crawlMenu->addAction(m_stopAction);
    crawlMenu->addSeparator();
    crawlMenu->addAction(m_retryAction);
    crawlMenu->addAction(m_retryAllAction);
    crawlMenu->addAction(m_retrySelectedAction);

    auto *toolbar = addToolBar(tr("Main"));
    toolbar->setObjectName(QStringLiteral("mainToolBar"));
    toolbar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    toolbar->setIconSize(QSize(20, 20));
    toolbar->addAction(m_openAction);
    toolbar->addAction(m_pasteAction);
    toolbar->addSeparator();
    toolbar->addAction(m_startAction);
    toolbar->addAction(m_pauseAction);
    toolbar->addAction(m_stopAction);
    toolbar->addSeparator();
    toolbar->addAction(m_retryAction);
    // The toolbar button retries transient failures; its arrow offers the other choices.
    if (auto *retryButton = qobject_cast<QToolButton *>(toolbar->widgetForAction(m_retryAction))) {
        auto *retryMenu = new QMenu(retryButton);
        retryMenu->addAction(m_retryAction);
        retryMenu->addAction(m_retryAllAction);
        retryMenu->addAction(m_retrySelectedAction);
        retryButton->setMenu(retryMenu);
        retryButton->setPopupMode(QToolButton::MenuButtonPopup);
    }
    toolbar->addAction(m_exportViewAction);
    if (auto *exportButton = qobject_cast<QToolButton *>(toolbar->widgetForAction(m_exportViewAction))) {
        auto *exportMenu = new QMenu(exportButton);
        exportMenu->addAction(m_exportViewAction);
        exportMenu->addAction(m_exportAction);
        exportMenu->addAction(m_exportFailuresAction);
        exportButton->setMenu(exportMenu);
        exportButton->setPopupMode(QToolButton::MenuButtonPopup);
    }

    m_aboutAction = aboutAction;
}

QTableView *MainWindow::makeTable(QWidget *parent) {
    auto *view = new QTableView(parent);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    view->setAlternatingRowColors(true);
    view->setWordWrap(false);
    view->setShowGrid(false);
    view->setTextElideMode(Qt::ElideMiddle);
    view->verticalHeader()->setVisible(false);
    // Fixed row heights and interactive (never resize-to-contents) columns keep a million rows cheap.
    view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 8);
    view->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    view->horizontalHeader()->setHighlightSections(false);
    view->horizontalHeader()->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    view->horizontalHeader()->setSectionsMovable(true);
    view->setHorizontalScrollMode(QAbstractItemView::ScrollPerPixel);
    return view;
}

// A failures or results table: sorted on demand by a click on a header (a second click reverses it);
// the sort holds while new rows stream in.
QTableView *MainWindow::makeResultsTable(ResultFilterSortModel *model, const QString &objectName) {
    QTableView *view = makeTable(nullptr);
    view->setObjectName(objectName);
    view->setModel(model);
    view->setSortingEnabled(true);
    view->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    return view;
}

QWidget *MainWindow::makeFilterBar(ResultFilterSortModel *model, bool failures, QLineEdit **edit) {
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
    connect(menu, &QMenu::aboutToShow, outcome, [this, outcomeActions] {
        for (QAction *action : outcomeActions) {
            const auto o = crawl::Outcome(action->data().toInt());
            action->setText(tr("%1 (%2)").arg(crawl::outcomeName(o), number(m_results->outcomeCount(o))));
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
    layout->addWidget(count);

    // Filtering a million rows takes a moment: wait until typing pauses.
    auto *debounce = new QTimer(bar);
    debounce->setSingleShot(true);
    debounce->setInterval(250);
    connect(text, &QLineEdit::textChanged, debounce, qOverload<>(&QTimer::start));
    connect(debounce, &QTimer::timeout, model, [model, text] { model->setTextFilter(text->text()); });
    auto updateCount = [model, count] { count->setText(tr("%1 rows").arg(number(model->rowCount()))); };
    connect(model, &QAbstractItemModel::rowsInserted, count, updateCount);
    connect(model, &QAbstractItemModel::modelReset, count, updateCount);
    updateCount();
    *edit = text;
    return bar;
}

void MainWindow::createCentralWidgets() {
    // Limits in a dock on the left (its place and visibility are remembered with the window state).
    m_limits = new LimitsPanel;
    auto *scroll = new QScrollArea;
    scroll->setWidget(m_limits);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto *dock = new QDockWidget(tr("Limits"), this);
    dock->setObjectName(QStringLiteral("limitsDock"));
    dock->setWidget(scroll);
    dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetClosable |
                      QDockWidget::DockWidgetFloatable);
    addDockWidget(Qt::LeftDockWidgetArea, dock);
    QAction *limitsToggle = dock->toggleViewAction();
    limitsToggle->setIcon(actionIcon(QStringLiteral("configure")));
    limitsToggle->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_L));
    limitsToggle->setToolTip(tr("Show or hide the limits panel (Ctrl+L)"));

    // The summary shown after loading a list.
    m_banner = new QFrame;
    m_banner->setObjectName(QStringLiteral("loadSummary"));
    m_banner->setStyleSheet(QStringLiteral("#loadSummary { background: #eef4fb; border: 1px solid #b9d0ea; "
                                           "border-radius: 3px; }"));
    auto *bannerLayout = new QHBoxLayout(m_banner);
    bannerLayout->setContentsMargins(8, 4, 4, 4);
    m_bannerText = new QLabel(m_banner);
    m_bannerText->setTextFormat(Qt::RichText);
    m_bannerText->setWordWrap(true);
    m_bannerText->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *closeBanner = new QToolButton(m_banner);
    closeBanner->setText(QStringLiteral("✕"));
    closeBanner->setAutoRaise(true);
    closeBanner->setToolTip(tr("Hide this summary"));
    connect(closeBanner, &QToolButton::clicked, m_banner, &QWidget::hide);
    bannerLayout->addWidget(m_bannerText, 1);
    bannerLayout->addWidget(closeBanner, 0, Qt::AlignTop);
    m_banner->hide();

    m_charts = new ChartsPanel;
    m_hosts->setHostPalette(m_charts->hostPalette()); // a host's swatch matches its chart line

    // Hosts.
    m_hostsView = makeTable(nullptr);
    m_hostsView->setObjectName(QStringLiteral("hostsView"));
    m_hostsView->setModel(m_hostsSort);
    // Host names are read from the left ("127.0.0.2:18291"): never cut them there.
    m_hostsView->setTextElideMode(Qt::ElideRight);
    m_hostsView->setSortingEnabled(true);
    m_hostsView->sortByColumn(HostsModel::HostColumn, Qt::AscendingOrder);
    m_hostsView->setItemDelegateForColumn(HostsModel::InFlightColumn, new InFlightBarDelegate(m_hostsView));
    m_hostsView->setContextMenuPolicy(Qt::CustomContextMenu);
    m_hostsView->setToolTip(
        tr("Right-click a host to pause, resume or skip it, or to give it its own limits"));
    const int hostWidth =
        m_hostsView->fontMetrics().horizontalAdvance(QStringLiteral("255.255.255.255:65535  · override")) +
        24;
    setColumnWidths(m_hostsView, {{HostsModel::HostColumn, hostWidth},
                                  {HostsModel::StateColumn, 150},
                                  {HostsModel::InFlightColumn, 110},
                                  {HostsModel::QueuedColumn, 70},
                                  {HostsModel::DoneColumn, 70},
                                  {HostsModel::OkColumn, 60},
                                  {HostsModel::FailedColumn, 60},
                                  {HostsModel::RetriesColumn, 60},
                                  {HostsModel::Status429Column, 50},
                                  {HostsModel::P50Column, 55},
                                  {HostsModel::P95Column, 55},
                                  {HostsModel::LastStatusColumn, 50},
                                  {HostsModel::IntervalColumn, 80}});
    connect(m_hostsView, &QWidget::customContextMenuRequested, this, &MainWindow::showHostsMenu);

    // Failures: filter bar, table, details of the current failure.
    m_failuresView = makeResultsTable(m_failuresFilter, QStringLiteral("failuresView"));
    // The error is what this table is for: it takes the room left (the host is in the URL and the finish
    // time in the details; both can be shown again from the header's menu).
    for (const int hidden :
         {ResultsModel::LineColumn, ResultsModel::HostColumn, ResultsModel::LatencyColumn,
          ResultsModel::BytesColumn, ResultsModel::ContentTypeColumn, ResultsModel::FinishedColumn})
        m_failuresView->setColumnHidden(hidden, true);
    setColumnWidths(m_failuresView, {{ResultsModel::UrlColumn, 260},
                                     {ResultsModel::HostColumn, 130},
                                     {ResultsModel::OutcomeColumn, 100},
                                     {ResultsModel::StatusColumn, 55},
                                     {ResultsModel::AttemptsColumn, 65},
                                     {ResultsModel::ErrorColumn, 300},
                                     {ResultsModel::FinishedColumn, 95}});
    m_failureDetails = new QTextBrowser;
    m_failureDetails->setObjectName(QStringLiteral("failureDetails"));
    m_failureDetails->setPlaceholderText(
        tr("Select a failure to see its redirect chain, last error and attempts."));
    m_failureDetails->setOpenLinks(false);
    connect(m_failuresView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this] { showFailureDetails(false); });
    // The filter may hide the row on show (reset), a sort moves it (layout), a retry replaces it (data).
    connect(m_failuresFilter, &QAbstractItemModel::modelReset, this, [this] { showFailureDetails(false); });
    connect(m_failuresFilter, &QAbstractItemModel::layoutChanged, this,
            [this] { showFailureDetails(false); });
    connect(m_failuresFilter, &QAbstractItemModel::dataChanged, this, [this] { showFailureDetails(true); });
    auto *failuresPage = new QWidget;
    auto *failuresLayout = new QVBoxLayout(failuresPage);
    failuresLayout->setContentsMargins(4, 4, 4, 4);
    failuresLayout->addWidget(makeFilterBar(m_failuresFilter, true, &m_failuresFilterEdit));
    m_failuresSplitter = new QSplitter(Qt::Horizontal);
    m_failuresSplitter->setObjectName(QStringLiteral("failuresSplitter"));
    m_failuresSplitter->addWidget(m_failuresView);
    m_failuresSplitter->addWidget(m_failureDetails);
    m_failuresSplitter->setStretchFactor(0, 3);
    m_failuresSplitter->setStretchFactor(1, 1);
    failuresLayout->addWidget(m_failuresSplitter, 1);

    // Results: every finished URL.
    m_resultsView = makeResultsTable(m_resultsFilter, QStringLiteral("resultsView"));
    m_resultsView->setToolTip({});
    setColumnWidths(m_resultsView, {{ResultsModel::LineColumn, 60},
                                    {ResultsModel::UrlColumn, 360},
                                    {ResultsModel::HostColumn, 130},
                                    {ResultsModel::OutcomeColumn, 100},
                                    {ResultsModel::StatusColumn, 55},
                                    {ResultsModel::AttemptsColumn, 65},
                                    {ResultsModel::LatencyColumn, 75},
                                    {ResultsModel::BytesColumn, 80},
                                    {ResultsModel::ContentTypeColumn, 150},
                                    {ResultsModel::ErrorColumn, 260},
                                    {ResultsModel::FinishedColumn, 95}});
    auto *resultsPage = new QWidget;
    auto *resultsLayout = new QVBoxLayout(resultsPage);
    resultsLayout->setContentsMargins(4, 4, 4, 4);
    resultsLayout->addWidget(makeFilterBar(m_resultsFilter, false, &m_resultsFilterEdit));
    resultsLayout->addWidget(m_resultsView, 1);

    // Copy URLs (Ctrl+C) from the failures and results tables.
    for (QTableView *view : {m_failuresView, m_resultsView}) {
        view->setItemDelegateForColumn(ResultsModel::ErrorColumn,
                                       new ElidingDelegate(Qt::ElideRight, view)); // full text in the tooltip
        addColumnMenu(view);
        auto *copy = new QAction(tr("Copy URLs"), view);
        copy->setShortcut(QKeySequence::Copy);
        copy->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        connect(copy, &QAction::triggered, this, [this, view] { copySelectedUrls(view); });
        view->addAction(copy);
        view->setContextMenuPolicy(Qt::ActionsContextMenu);
        if (view == m_failuresView)
            view->addAction(m_retrySelectedAction);
    }

    m_tabs = new QTabWidget;
    m_tabs->setObjectName(QStringLiteral("tabs"));
    m_tabs->setDocumentMode(true);
    m_tabs->addTab(m_hostsView, tr("&Hosts"));
    m_tabs->addTab(failuresPage, tr("&Failures"));
    m_tabs->addTab(resultsPage, tr("&Results"));
    m_tabs->setTabToolTip(0, tr("One row per host: state, in flight against its limit, counts, latency"));
    m_tabs->setTabToolTip(1, tr("URLs that did not end ok, with their reasons"));
    m_tabs->setTabToolTip(2, tr("Every finished URL"));

    m_mainSplitter = new QSplitter(Qt::Vertical);
    m_mainSplitter->setObjectName(QStringLiteral("mainSplitter"));
    m_mainSplitter->addWidget(m_charts);
    m_mainSplitter->addWidget(m_tabs);
    m_mainSplitter->setStretchFactor(0, 2);
    m_mainSplitter->setStretchFactor(1, 3);
    m_mainSplitter->setChildrenCollapsible(false);

    auto *central = new QWidget;
    auto *layout = new QVBoxLayout(central);
    layout->setContentsMargins(4, 4, 4, 0);
    layout->addWidget(m_banner);
    layout->addWidget(m_mainSplitter, 1);
    setCentralWidget(central);

    QMenu *view = menuBar()->addMenu(tr("&View"));
    view->addAction(limitsToggle);
    view->addSeparator();
    for (int i = 0; i < m_tabs->count(); ++i) {
        auto *show = view->addAction(m_tabs->tabText(i).remove(QLatin1Char('&')));
        show->setShortcut(QKeySequence(Qt::CTRL | Qt::Key(Qt::Key_1 + i)));
        connect(show, &QAction::triggered, m_tabs, [this, i] { m_tabs->setCurrentIndex(i); });
    }
    auto *focusFilter = view->addAction(tr("Filter"));
    focusFilter->setShortcut(QKeySequence::Find);
    connect(focusFilter, &QAction::triggered, this, [this] {
        if (m_tabs->currentIndex() == 0)
            m_tabs->setCurrentIndex(1);
        QLineEdit *edit = m_tabs->currentIndex() == 1 ? m_failuresFilterEdit : m_resultsFilterEdit;
        edit->setFocus();
        edit->selectAll();
    });
    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->addAction(m_aboutAction);
}

void MainWindow::createStatusBar() {
    auto label = [this](const QString &tip, const QString &sample) {
        auto *l = new QLabel(this);
        l->setToolTip(tip);
        l->setMinimumWidth(l->fontMetrics().horizontalAdvance(sample));
        statusBar()->addPermanentWidget(l);
        return l;
    };
    m_taskProgress = new QProgressBar(this);
    m_taskProgress->setMaximumWidth(180);
    m_taskProgress->setVisible(false);
    statusBar()->addPermanentWidget(m_taskProgress);
    m_stateLabel = label(tr("Crawl state"), QStringLiteral("Stopping…"));
    m_progress = new QProgressBar(this);
    m_progress->setObjectName(QStringLiteral("crawlProgress"));
    m_progress->setToolTip(tr("URLs done of the total in the list"));
    m_progress->setMinimumWidth(220);
    m_progress->setFormat(QStringLiteral("%v / %m"));
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    statusBar()->addPermanentWidget(m_progress);
    m_rateLabel = label(tr("URLs finished per second, averaged over the last 5 seconds (after the crawl: "
                           "its average)"),
                        QStringLiteral("9999.9 URLs/s"));
    m_inFlightLabel = label(tr("Requests in flight over all hosts"), QStringLiteral("In flight: 256"));
    m_failuresLabel = label(tr("URLs that did not end ok"), QStringLiteral("Failures: 100,000"));
    m_elapsedLabel = label(tr("Time since the crawl started"), QStringLiteral("Elapsed 0:00:00"));
    m_etaLabel = label(tr("Estimated time to finish: the current rate, but never less than the slowest "
                          "host's pacing, latency and back-off allow; paused hosts are counted apart"),
                       QStringLiteral("waiting on 1 host until 00:00:00"));
    updateStatus(m_lastSnapshot);
}

// --- getting URLs in --------------------------------------------------------------------------------

void MainWindow::openFileDialog() {
    QSettings settings;
    const QString folder = settings
                               .value(QStringLiteral("paths/lastFolder"),
                                      QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation))
                               .toString();
    const QString path = QFileDialog::getOpenFileName(this, tr("Open URL List"), folder,
                                                      tr("URL lists (*.txt *.csv *.lst);;All files (*)"));
    if (!path.isEmpty())
        loadFile(path);
}

void MainWindow::pasteFromClipboard() {
    const QString text = QApplication::clipboard()->text();
    if (text.trimmed().isEmpty()) {
        statusBar()->showMessage(tr("The clipboard holds no text"), 5'000);
        return;
    }
    loadText(text.toUtf8(), tr("pasted URLs"));
}

void MainWindow::loadFile(const QString &path) {
    QSettings().setValue(QStringLiteral("paths/lastFolder"), QFileInfo(path).absolutePath());
    loadSource(crawl::InputSource::fromFile(path), QFileInfo(path).fileName());
}

void MainWindow::loadText(const QByteArray &utf8, const QString &displayName) {
    loadSource(crawl::InputSource::fromText(utf8), displayName);
}

void MainWindow::loadSource(const crawl::InputSource &source, const QString &displayName) {
    if (crawl::isActive(m_engine->state())) {
        statusBar()->showMessage(tr("Stop the running crawl before loading another list"), 5'000);
        return;
    }
    // The engine streams the list itself when the crawl starts; the scan is only for the summary, so
    // Start works at once.
    m_input = source;
    m_inputName = displayName;
    setWindowTitle(crawlWindowTitle(m_inputName, m_lastSnapshot));
    m_bannerText->setText(tr("Reading <b>%1</b>…").arg(displayName.toHtmlEscaped()));
    m_banner->show();
    m_taskProgress->setVisible(true);
    m_taskProgress->setFormat(tr("Reading list"));
    m_taskProgress->setRange(0, 0);
    m_loader->load(source);
    updateActions();
}

void MainWindow::onListLoaded(const crawl::InputSource &, const crawl::UrlListScan &scan) {
    m_taskProgress->setVisible(false);
    QString text = tr("<b>%1</b>: %2 URLs to crawl").arg(m_inputName.toHtmlEscaped(), number(scan.valid));
    if (scan.duplicates > 0)
        text += tr(" · %1 duplicates (crawled once)").arg(number(scan.duplicates));
    if (scan.invalid > 0) {
        text += tr(" · <span style='color:#b3261e'>%1 invalid</span>").arg(number(scan.invalid));
        QStringList first;
        QStringList all;
        for (const crawl::InputLine &line : scan.firstInvalid) {
            const QString entry = tr("line %1: %2").arg(line.lineNumber).arg(line.normalized.error);
            if (first.size() < 3)
                first.append(entry.toHtmlEscaped());
            all.append(entry + QStringLiteral(" — ") + line.raw);
        }
        if (!first.isEmpty())
            text += QStringLiteral(" (") + first.join(QStringLiteral("; ")) +
                    (scan.invalid > first.size() ? QStringLiteral("; …)") : QStringLiteral(")"));
        m_bannerText->setToolTip(all.join(QLatin1Char('\n')));
        text += tr(". Invalid lines are listed among the results as <i>invalid_url</i>.");
    } else {
        m_bannerText->setToolTip({});
    }
    m_bannerText->setText(text);
    m_banner->show();
    if (m_engine->state() == crawl::CrawlState::Idle || m_engine->state() == crawl::CrawlState::Finished)
        statusBar()->showMessage(tr("Loaded %1 — press F5 to start").arg(m_inputName), 10'000);
    Q_EMIT listLoaded(scan);
}

void MainWindow::dragEnterEvent(QDragEnterEvent *event) {
    const QMimeData *mime = event->mimeData();
    if ((mime->hasUrls() && !mime->urls().isEmpty() && mime->urls().first().isLocalFile()) || mime->hasText())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent *event) {
    const QMimeData *mime = event->mimeData();
    if (mime->hasUrls() && !mime->urls().isEmpty() && mime->urls().first().isLocalFile()) {
        loadFile(mime->urls().first().toLocalFile());
    } else if (mime->hasUrls()) {
        // Links dragged from a browser: the URLs themselves are the list.
        QStringList lines;
        const QList<QUrl> urls = mime->urls();
        for (const QUrl &url : urls)
            lines.append(url.toString());
        loadText(lines.join(QLatin1Char('\n')).toUtf8(), tr("dropped URLs"));
    } else if (mime->hasText()) {
        loadText(mime->text().toUtf8(), tr("dropped text"));
    }
    event->acceptProposedAction();
}

// --- steering ----------------------------------------------------------------------------------------

void MainWindow::startCrawl() {
    if (!m_input) {
        statusBar()->showMessage(tr("Open or paste a URL list first"), 5'000);
        return;
    }
    if (crawl::isActive(m_engine->state()))
        return;
    m_pendingResults.clear();
    m_retrying.clear();
    m_resultsFlush.stop();
    m_results->clear();
    m_hosts->clear();
    m_charts->clear();
    m_failureDetails->clear();
    m_detailsSourceRow = -1;
    m_lastSnapshot = crawl::CrawlSnapshot{};
    m_throughput.clear();
    applyLimits();
    applyFetchPolicy();
    QString error;
    if (!m_engine->start(*m_input, &error)) {
        statusBar()->showMessage(error, 10'000);
        if (m_confirm)
            QMessageBox::warning(this, tr("Cannot start the crawl"), error);
        updateActions();
        return;
    }
    m_lastSnapshot.state = crawl::CrawlState::Running;
    updateStatus(m_lastSnapshot);
    statusBar()->showMessage(tr("Crawling %1").arg(m_inputName), 5'000);
    updateActions();
}

void MainWindow::pauseOrResume() {
    if (m_engine->state() == crawl::CrawlState::Paused)
        m_engine->resume();
    else if (m_engine->state() == crawl::CrawlState::Running)
        m_engine->pause();
    updateActions();
}

void MainWindow::stopCrawl() {
    const crawl::CrawlState state = m_engine->state();
    if (state != crawl::CrawlState::Running && state != crawl::CrawlState::Paused)
        return;
    if (m_confirm) {
        QMessageBox box(QMessageBox::Question, tr("Stop the crawl?"),
                        tr("Requests in flight are cancelled and every unfinished URL ends as cancelled. "
                           "The results so far are kept."),
                        QMessageBox::Cancel, this);
        QPushButton *stop = box.addButton(tr("Stop Crawl"), QMessageBox::DestructiveRole);
        box.setDefaultButton(QMessageBox::Cancel);
        box.exec();
        if (box.clickedButton() != stop)
            return;
    }
    m_engine->stop();
    updateActions();
}

void MainWindow::retryFailed(RetryScope scope) {
    flushResults();
    QList<crawl::CrawlResult> retry;
    const ResultStore &store = m_results->store();
    if (scope == RetryScope::Selected) {
        const QModelIndexList selected = m_failuresView->selectionModel()->selectedRows();
        for (const QModelIndex &index : selected) {
            const int row = m_failuresFilter->sourceRow(index.row());
            if (wantsRetry(scope, store.outcome(row), store.row(row).status))
                retry.append(m_results->result(row));
        }
    } else {
        for (qsizetype row = 0; row < store.size(); ++row) {
            if (wantsRetry(scope, store.outcome(row), store.row(row).status))
                retry.append(store.result(row));
        }
    }
    if (retry.isEmpty()) {
        statusBar()->showMessage(scope == RetryScope::Selected ? tr("Select the failures to retry first")
                                 : scope == RetryScope::Transient
                                     ? tr("No transient failures to retry (Retry All Failures re-queues "
                                          "permanent ones too)")
                                     : tr("No failed URLs to retry"),
                                 5'000);
        return;
    }
    for (const crawl::CrawlResult &r : std::as_const(retry))
        m_retrying.insert(r.id);
    m_engine->retry(retry);
    statusBar()->showMessage(tr("Queued %n failed URL(s) again", nullptr, int(retry.size())), 5'000);
    updateActions();
}

void MainWindow::setHostOverride(const QString &hostKey, const std::optional<crawl::HostOverride> &value) {
    if (!value || (value->maxInFlight <= 0 && value->intervalMs < 0))
        m_overrides.remove(hostKey);
    else
        m_overrides.insert(hostKey, *value);
    applyLimits();
}

void MainWindow::setLimits(const crawl::CrawlLimits &limits, const crawl::FetchPolicy &policy) {
    m_limits->setValues(limits, policy);
    m_overrides = limits.hostOverrides;
    // What the panel has no control for (backoff, body cap, ...) goes to the engine as given.
    m_engine->setLimits(limits);
    m_engine->setFetchPolicy(policy);
    applyLimits();
    applyFetchPolicy();
}

void MainWindow::resetLimits() {
    m_limits->setValues(crawl::CrawlLimits{}, crawl::FetchPolicy{});
    applyLimits();
    applyFetchPolicy();
    saveLimits();
    statusBar()->showMessage(tr("Limits reset to the defaults"), 5'000);
}

void MainWindow::showStatusMessage(const QString &text, int timeoutMs) {
    statusBar()->showMessage(text, timeoutMs);
}

void MainWindow::applyLimits() {
    crawl::CrawlLimits limits = m_engine->limits();
    m_limits->applyTo(&limits);
    limits.hostOverrides = m_overrides;
    m_engine->setLimits(limits);
}

void MainWindow::saveLimits() {
    m_limitsEdited = true;
    QSettings settings;
    m_limits->saveSettings(settings);
}

void MainWindow::applyFetchPolicy() {
    crawl::FetchPolicy policy = m_engine->fetchPolicy();
    m_limits->applyTo(&policy);
    m_engine->setFetchPolicy(policy);
}

void MainWindow::showHostsMenu(const QPoint &pos) {
    const QModelIndex index = m_hostsView->indexAt(pos);
    if (!index.isValid())
        return;
    const QString host = index.data(HostsModel::HostKeyRole).toString();
    const auto state = crawl::HostState(index.data(HostsModel::StateRole).toInt());
    QMenu menu(this);
    menu.setToolTipsVisible(true);
    QAction *pause =
        menu.addAction(actionIcon(QStringLiteral("crawlscope-host-pause")), tr("Pause %1").arg(host));
    pause->setToolTip(tr("No new request starts on this host; requests in flight finish"));
    QAction *resume =
        menu.addAction(actionIcon(QStringLiteral("media-playback-start")), tr("Resume %1").arg(host));
    pause->setEnabled(state != crawl::HostState::Paused);
    resume->setEnabled(state == crawl::HostState::Paused);
    QAction *skip =
        menu.addAction(actionIcon(QStringLiteral("crawlscope-host-skip")), tr("Skip Remaining URLs"));
    skip->setToolTip(tr("Every queued URL of this host ends as cancelled"));
    QAction *resumeTripped = menu.addAction(tr("Resume Tripped Host"));
    resumeTripped->setToolTip(tr("Its circuit breaker tripped: start requests again now, without waiting "
                                 "for the probe"));
    resumeTripped->setEnabled(crawl::BreakerState(index.data(HostsModel::BreakerStateRole).toInt()) !=
                              crawl::BreakerState::Closed);
    menu.addSeparator();
    QAction *limits = menu.addAction(actionIcon(QStringLiteral("configure")), tr("Limits for This Host…"));
    QAction *clearLimits = menu.addAction(tr("Use Global Limits"));
    clearLimits->setEnabled(m_overrides.contains(host));

    QAction *chosen = menu.exec(m_hostsView->viewport()->mapToGlobal(pos));
    if (chosen == pause) {
        m_engine->pauseHost(host);
    } else if (chosen == resume) {
        m_engine->resumeHost(host);
    } else if (chosen == resumeTripped) {
        m_engine->resetHostBreaker(host);
    } else if (chosen == skip) {
        if (!m_confirm ||
            QMessageBox::question(this, tr("Skip %1?").arg(host),
                                  tr("Every URL of %1 not yet started ends as cancelled.").arg(host)) ==
                QMessageBox::Yes) {
            m_engine->skipHost(host);
            m_hosts->markSkipped(host);
        }
    } else if (chosen == limits) {
        crawl::CrawlLimits global;
        m_limits->applyTo(&global);
        HostOverrideDialog dialog(host, m_overrides.value(host, crawl::HostOverride{0, -1}), global, this);
        if (dialog.exec() == QDialog::Accepted)
            setHostOverride(host, dialog.value());
    } else if (chosen == clearLimits) {
        setHostOverride(host, std::nullopt);
    }
}

// --- watching ----------------------------------------------------------------------------------------

void MainWindow::onResults(const QList<crawl::CrawlResult> &results) {
    // The engine batches every ~100 ms; the views take them at a few hertz (each insert repaints the
    // visible rows of the open table, which costs far more than the insert itself).
    if (m_retrying.isEmpty()) {
        m_pendingResults.append(results);
    } else {
        // A retried URL that was cancelled (Stop, Skip) never got its new answer: its row keeps the
        // diagnosis it had ("410", "more than 10 redirects") instead of "cancelled · attempts 0".
        for (const crawl::CrawlResult &r : results) {
            if (m_retrying.remove(r.id) && r.outcome == crawl::Outcome::Cancelled)
                continue;
            m_pendingResults.append(r);
        }
    }
    if (!m_resultsFlush.isActive())
        m_resultsFlush.start();
}

void MainWindow::flushResults() {
    m_resultsFlush.stop();
    if (m_pendingResults.isEmpty())
        return;
    QList<crawl::CrawlResult> batch;
    batch.swap(m_pendingResults);
    // The distribution charts count each URL once: a retried URL's earlier result leaves them first.
    for (const crawl::CrawlResult &r : std::as_const(batch)) {
        if (const int row = m_results->rowForId(r.id); row >= 0)
            m_charts->removeResult(m_results->result(row));
    }
    m_charts->addResults(batch);
    m_results->addResults(batch);
}

void MainWindow::onSnapshot(const crawl::CrawlSnapshot &snapshot) {
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    m_lastSnapshot = snapshot;
    m_throughput.add(now, snapshot.done);
    m_hosts->setCrawlState(snapshot.state);
    m_hosts->setHosts(snapshot.hosts, now);
    m_charts->addSnapshot(snapshot, now);
    updateStatus(snapshot);
    updateActions();
}

void MainWindow::onFinished(const crawl::CrawlSummary &summary) {
    flushResults(); // every result is in the views before "finished" shows
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    m_lastSnapshot = summary.last;
    m_lastSnapshot.state = crawl::CrawlState::Finished;
    m_hosts->setCrawlState(crawl::CrawlState::Finished);
    m_hosts->setHosts(summary.last.hosts, now);
    m_charts->addSnapshot(summary.last, now);
    updateStatus(m_lastSnapshot);
    updateActions();
    const QString text =
        tr("%1: %2 ok, %3 failed in %4")
            .arg(summary.stoppedByUser ? tr("Stopped") : tr("Finished"), number(summary.last.ok),
                 number(summary.last.failed), crawl::formatDuration(summary.last.elapsedMs));
    statusBar()->showMessage(text);
    if (m_closeAfterStop) {
        m_closeAfterStop = false;
        m_closeTimeout.stop();
        m_forceClose = true;
        close();
    }
}

void MainWindow::updateStatus(const crawl::CrawlSnapshot &s) {
    m_stateLabel->setText(crawl::crawlStateName(s.state));
    if (s.total >= 0) {
        m_progress->setRange(0, int(std::min<qint64>(s.total, INT_MAX)));
        m_progress->setValue(int(std::min<qint64>(s.done, INT_MAX)));
        m_progress->setFormat(tr("%1 / %2").arg(number(s.done), number(s.total)));
    } else if (s.state == crawl::CrawlState::Running) {
        m_progress->setRange(0, 0); // total not known yet: busy
        m_progress->setFormat(number(s.done));
    } else {
        m_progress->setRange(0, 1);
        m_progress->setValue(0);
        m_progress->setFormat(tr("No crawl"));
    }
    // Smoothed over the last seconds while crawling; the whole crawl's average once it has ended.
    const double rate = s.state == crawl::CrawlState::Finished
                            ? (s.elapsedMs > 0 ? double(s.done) * 1000.0 / double(s.elapsedMs) : 0.0)
                            : m_throughput.perSecond();
    m_rateLabel->setText(rate < 0 ? tr("– URLs/s") : tr("%1 URLs/s").arg(rate, 0, 'f', 1));
    m_inFlightLabel->setText(tr("In flight: %1").arg(s.inFlight));
    m_failuresLabel->setText(tr("Failures: %1").arg(number(s.failed)));
    m_elapsedLabel->setText(tr("Elapsed %1").arg(crawl::formatDuration(s.elapsedMs)));
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    m_etaLabel->setText(etaText(estimateEta(s, rate, now), s.state));
    setWindowTitle(crawlWindowTitle(m_inputName, s));
}

void MainWindow::updateActions() {
    const crawl::CrawlState state = m_engine->state();
    const bool active = crawl::isActive(state);
    m_openAction->setEnabled(!active);
    m_pasteAction->setEnabled(!active);
    m_startAction->setEnabled(!active);
    m_pauseAction->setEnabled(state == crawl::CrawlState::Running || state == crawl::CrawlState::Paused);
    const bool paused = state == crawl::CrawlState::Paused;
    if (paused != m_pauseShowsResume) { // called for every snapshot: touch the action only on change
        m_pauseShowsResume = paused;
        m_pauseAction->setText(paused ? tr("Res&ume") : tr("&Pause"));
        m_pauseAction->setIcon(actionIcon(paused ? QStringLiteral("media-playback-start")
                                                 : QStringLiteral("media-playback-pause")));
    }
    m_stopAction->setEnabled(state == crawl::CrawlState::Running || state == crawl::CrawlState::Paused);
    const bool canRetry = m_results->failureCount() > 0 && state != crawl::CrawlState::Stopping;
    m_retryAction->setEnabled(canRetry);
    m_retryAllAction->setEnabled(canRetry);
    m_retrySelectedAction->setEnabled(canRetry);
    const bool canExport = m_results->rowCount() > 0 && !m_exporter->isRunning();
    m_exportViewAction->setEnabled(canExport);
    m_exportAction->setEnabled(canExport);
    m_exportFailuresAction->setEnabled(canExport && m_results->failureCount() > 0);
}

void MainWindow::copySelectedUrls(QTableView *view) {
    auto *model = qobject_cast<ResultFilterSortModel *>(view->model());
    if (!model)
        return;
    QModelIndexList rows = view->selectionModel()->selectedRows();
    std::sort(rows.begin(), rows.end(),
              [](const QModelIndex &a, const QModelIndex &b) { return a.row() < b.row(); });
    QStringList urls;
    urls.reserve(rows.size());
    for (const QModelIndex &index : std::as_const(rows))
        urls.append(m_results->store().url(model->sourceRow(index.row())));
    if (urls.isEmpty())
        return;
    QApplication::clipboard()->setText(urls.join(QLatin1Char('\n')) + QLatin1Char('\n'));
    statusBar()->showMessage(tr("Copied %n URL(s)", nullptr, int(urls.size())), 3'000);
}

void MainWindow::showFailureDetails(bool force) {
    const QModelIndex current = m_failuresView->currentIndex();
    const int sourceRow = current.isValid() ? m_failuresFilter->sourceRow(current.row()) : -1;
    if (sourceRow == m_detailsSourceRow && !force)
        return; // the same row (it only moved): keep the pane and its scroll position
    m_detailsSourceRow = sourceRow;
    if (sourceRow < 0) {
        m_failureDetails->clear();
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
    m_failureDetails->setHtml(html);
}

void MainWindow::clearSortIndicator(QTableView *view) {
    // No sort chosen: the rows show in arrival order (the model hears it too).
    view->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
}

// --- getting results out ----------------------------------------------------------------------------

void MainWindow::exportDialog(ExportKind kind) {
    QSettings settings;
    const QString folder = settings
                               .value(QStringLiteral("paths/lastFolder"),
                                      QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation))
                               .toString();
    QString what = QStringLiteral("results");
    QString title = tr("Export All Results");
    if (kind == ExportKind::Failures) {
        what = QStringLiteral("failures");
        title = tr("Export Failures");
    } else if (kind == ExportKind::CurrentView) {
        what = currentResultsTable() == m_failuresView ? QStringLiteral("failures-view")
                                                       : QStringLiteral("results-view");
        title = tr("Export Current View");
    }
    const QString name = exportFileName(m_inputName, what, QDate::currentDate());
    const QString path = QFileDialog::getSaveFileName(this, title, QDir(folder).filePath(name),
                                                      tr("CSV files (*.csv);;All files (*)"));
    if (path.isEmpty())
        return;
    settings.setValue(QStringLiteral("paths/lastFolder"), QFileInfo(path).absolutePath());
    if (kind == ExportKind::CurrentView)
        exportCurrentView(path);
    else
        exportCsv(path, kind == ExportKind::Failures);
}

QTableView *MainWindow::currentResultsTable() const {
    return m_tabs->currentWidget()->isAncestorOf(m_failuresView) ? m_failuresView : m_resultsView;
}

bool MainWindow::exportCsv(const QString &path, bool failuresOnly) {
    flushResults();
    std::vector<int> rows;
    const ResultStore &store = m_results->store();
    if (failuresOnly) {
        for (qsizetype row = 0; row < store.size(); ++row) {
            if (crawl::isFailure(store.outcome(row)))
                rows.push_back(int(row));
        }
        if (rows.empty()) { // an empty list would mean "every row" to the exporter
            statusBar()->showMessage(tr("No failures to export"), 5'000);
            return false;
        }
    }
    const qint64 count = failuresOnly ? qint64(rows.size()) : store.size();
    return startExport(path, std::move(rows), count);
}

bool MainWindow::exportCurrentView(const QString &path) {
    flushResults();
    auto *model = qobject_cast<ResultFilterSortModel *>(currentResultsTable()->model());
    std::vector<int> rows = model->sourceRows();
    if (rows.empty()) {
        statusBar()->showMessage(tr("The table on show has no rows to export"), 5'000);
        return false;
    }
    const auto count = qint64(rows.size());
    return startExport(path, std::move(rows), count);
}

bool MainWindow::startExport(const QString &path, std::vector<int> rows, qint64 count) {
    if (!m_exporter->start(path, m_results->store(), std::move(rows))) {
        statusBar()->showMessage(tr("An export is already running"), 5'000);
        return false;
    }
    m_taskProgress->setVisible(true);
    m_taskProgress->setFormat(tr("Exporting %p%"));
    m_taskProgress->setRange(0, 1000);
    m_taskProgress->setValue(0);
    statusBar()->showMessage(
        tr("Exporting %1 rows to %2").arg(number(count), QDir::toNativeSeparators(path)));
    updateActions();
    return true;
}

// Right-click a table's header to show or hide its columns.
void MainWindow::addColumnMenu(QTableView *view) {
    QHeaderView *header = view->horizontalHeader();
    header->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(header, &QWidget::customContextMenuRequested, this, [view, header](const QPoint &pos) {
        QMenu menu;
        QAbstractItemModel *model = view->model();
        for (int column = 0; column < model->columnCount(); ++column) {
            QAction *toggle = menu.addAction(model->headerData(column, Qt::Horizontal).toString());
            toggle->setCheckable(true);
            toggle->setChecked(!view->isColumnHidden(column));
            connect(toggle, &QAction::toggled, view,
                    [view, column](bool on) { view->setColumnHidden(column, !on); });
        }
        menu.exec(header->viewport()->mapToGlobal(pos));
    });
}

void MainWindow::onExportFinished(bool ok, const QString &path, qint64 rows, const QString &error) {
    m_taskProgress->setVisible(false);
    updateActions();
    if (ok) {
        statusBar()->showMessage(
            tr("Exported %1 rows to %2").arg(number(rows), QDir::toNativeSeparators(path)), 10'000);
    } else {
        statusBar()->showMessage(tr("Export failed: %1").arg(error), 10'000);
        if (m_confirm)
            QMessageBox::warning(this, tr("Export failed"),
                                 tr("The CSV could not be written: %1\n\nThe results are still here; "
                                    "choose another place and export again.")
                                     .arg(error));
    }
    Q_EMIT exportFinished(ok, path, rows, error);
}

// --- desktop behaviour --------------------------------------------------------------------------------

void MainWindow::showAbout() {
    QMessageBox::about(
        this, tr("About Crawlscope"),
        tr("<h3>Crawlscope %1</h3>"
           "<p>A polite, fast crawl monitor: per-host limits and pacing, Retry-After, retries with backoff, "
           "live hosts, charts and failures, CSV export.</p>"
           "<p>Built with Qt %2 (running on Qt %3).</p>")
            .arg(QStringLiteral(CRAWLSCOPE_VERSION), QStringLiteral(QT_VERSION_STR),
                 QLatin1String(qVersion())));
}

void MainWindow::closeEvent(QCloseEvent *event) {
    const crawl::CrawlState state = m_engine->state();
    if (crawl::isActive(state) && !m_forceClose) {
        if (m_confirm &&
            QMessageBox::question(
                this, tr("Quit while crawling?"),
                tr("A crawl is running. Stop it and quit? Unfinished URLs end as cancelled; "
                   "export the results first if you need them."),
                QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Cancel) != QMessageBox::Yes) {
            event->ignore();
            return;
        }
        // Stop cleanly: close again once the engine reports finished (or after a timeout).
        m_closeAfterStop = true;
        if (state != crawl::CrawlState::Stopping)
            m_engine->stop();
        m_closeTimeout.start();
        statusBar()->showMessage(tr("Stopping the crawl…"));
        event->ignore();
        return;
    }
    m_loader->cancel();
    m_exporter->cancel();
    writeSettings();
    event->accept();
}

void MainWindow::readSettings() {
    QSettings settings;
    if (!restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray()))
        resize(1360, 860);
    restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
    if (!m_mainSplitter->restoreState(settings.value(QStringLiteral("window/mainSplitter")).toByteArray()))
        m_mainSplitter->setSizes({360, 420});
    if (!m_failuresSplitter->restoreState(
            settings.value(QStringLiteral("window/failuresSplitter")).toByteArray()))
        m_failuresSplitter->setSizes({780, 260});
    m_hostsView->horizontalHeader()->restoreState(
        settings.value(QStringLiteral("window/hostsHeader")).toByteArray());
    m_failuresView->horizontalHeader()->restoreState(
        settings.value(QStringLiteral("window/failuresHeader")).toByteArray());
    m_resultsView->horizontalHeader()->restoreState(
        settings.value(QStringLiteral("window/resultsHeader")).toByteArray());
    // The failures' Error column takes the room left, even under a header state saved before it did.
    m_failuresView->horizontalHeader()->setSectionResizeMode(ResultsModel::ErrorColumn, QHeaderView::Stretch);
    // Sort indicators of the big tables are not restored: they sort on demand.
    clearSortIndicator(m_failuresView);
    clearSortIndicator(m_resultsView);
    m_tabs->setCurrentIndex(settings.value(QStringLiteral("window/tab"), 0).toInt());
    m_limits->loadSettings(settings);
}

void MainWindow::writeSettings() const {
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    settings.setValue(QStringLiteral("window/mainSplitter"), m_mainSplitter->saveState());
    settings.setValue(QStringLiteral("window/failuresSplitter"), m_failuresSplitter->saveState());
    settings.setValue(QStringLiteral("window/hostsHeader"), m_hostsView->horizontalHeader()->saveState());
    settings.setValue(QStringLiteral("window/failuresHeader"),
                      m_failuresView->horizontalHeader()->saveState());
    settings.setValue(QStringLiteral("window/resultsHeader"), m_resultsView->horizontalHeader()->saveState());
    settings.setValue(QStringLiteral("window/tab"), m_tabs->currentIndex());
    if (m_limitsEdited)
        m_limits->saveSettings(settings);
}

} // namespace ui
