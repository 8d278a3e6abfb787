#include "mainwindow.h"

#include "charts/chartspanel.h"
#include "cluster/clusterattachdialog.h"
#include "cluster/clustersession.h"
#include "cluster/clusterworkerspage.h"
#include "crawlfiles/crawlfilecopier.h"
#include "crawlfiles/crawlfileinfo.h"
#include "crawlfiles/crawlfileloader.h"
#include "crawlfiles/crawlfilename.h"
#include "crawlfiles/crawlfilesdialog.h"
#include "crawlfiles/crawlfilesummaryreader.h"
#include "crawlfiles/resumesettings.h"
#include "engine/crawlengine.h"
#include "frontier/ownerprocess.h"
#include "input/inputfingerprint.h"
#include "jobs/csvexporter.h"
#include "jobs/listloader.h"
#include "model/outcome.h"
#include "models/hostsmodel.h"
#include "models/resultfiltersortmodel.h"
#include "models/resultsfeed.h"
#include "models/resultsmodel.h"
#include "pages/actionicon.h"
#include "pages/crawlruleseditor.h"
#include "pages/crawlstatusbar.h"
#include "pages/emptystate.h"
#include "pages/eventspage.h"
#include "pages/hostspage.h"
#include "pages/loadsummarybanner.h"
#include "pages/mainactions.h"
#include "pages/recentmenu.h"
#include "pages/resultspage.h"
#include "pages/thememenu.h"
#include "settings/crawlrules.h"
#include "status/exportfilename.h"
#include "status/windowtitle.h"
#include "store/storedcrawlconfig.h"
#include "widgets/limitspanel.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QCloseEvent>
#include <QDateTime>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QSplitter>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTextBrowser>
#include <QTimer>
#include <QVBoxLayout>

#include <malloc.h>

namespace ui {

namespace {

QString number(qint64 n) {
    return QLocale().toString(n);
}

constexpr int kResultsFlushMs = 250;
// While a crawl runs the window's thread shares two busy cores with it: shorter chunks keep each turn of
// the event loop short (a few thousand results a second need well under 6 ms of it). A backlog without a
// crawl (a crawl file opened, the end of a crawl) drains in longer chunks: fewer repaints.
constexpr double kFeedBudgetCrawlingMs = 6;
constexpr double kFeedBudgetIdleMs = 12;

} // namespace

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent)
    , m_engine(new crawl::CrawlEngine(this))
    , m_results(new ResultsModel(this))
    , m_hosts(new HostsModel(this))
    , m_loader(new ListLoader(this))
    , m_exporter(new CsvExporter(this))
    , m_actions(new MainActions(this))
    , m_rules(new CrawlRulesEditor(this))
    , m_crawlLoader(new CrawlFileLoader(this))
    , m_crawlCopier(new CrawlFileCopier(this))
    , m_crawlsFolder(crawlfilename::defaultFolder())
    , m_feed(new ResultsFeed(this)) {
    setWindowTitle(tr("Crawlscope"));
    setAcceptDrops(true);
    // A million rows, their URLs and titles live on disk, not in RAM (issue 11); without a cache folder they
    // stay.
    if (!m_results->spillTo(QStandardPaths::writableLocation(QStandardPaths::CacheLocation)) &&
        !m_results->store().spillError().isEmpty())
        qWarning("results rows and texts stay in memory: %s", qPrintable(m_results->store().spillError()));
    // Blocks from 256 KiB up (row chunks, the views' index vectors) come from mmap unless a free piece of
    // the heap fits them: freed or grown (mremap, no copy) they go back to the system. With glibc's default
    // sliding threshold they moved into the heap, where each outgrown index vector left a hole: 25 MiB of
    // free heap held with 1M rows.
    mallopt(M_MMAP_THRESHOLD, 256 * 1024);

    m_actions->addMenusAndToolBar(this);
    // Crawl > Crawl Rules…: found through Start, whose menu it joins.
    for (QObject *owner : m_actions->start->associatedObjects()) {
        if (auto *menu = qobject_cast<QMenu *>(owner)) {
            menu->addSeparator();
            menu->addAction(m_rules->action());
        }
    }
    connectActions();
    createCentralWidgets();
    createViewMenu();
    createCrawlFileActions();
    m_status = new CrawlStatusBar(statusBar());
    createClusterActions();

    // The crawl must never make the window stutter: its threads yield the CPU to the GUI thread. Nice only
    // orders the threads of this process against each other where the kernel groups processes (autogroup,
    // cgroups), so 10 costs the crawl little while the window is idle and gives the GUI thread about three
    // quarters of the process's share when both want a core (at 5 it got about half).
    m_engine->setWorkerNice(10);
    connect(m_engine, &crawl::CrawlEngine::resultsReady, this, &MainWindow::onResults);
    connect(m_engine, &crawl::CrawlEngine::snapshotReady, this, &MainWindow::onSnapshot);
    connect(m_engine, &crawl::CrawlEngine::finished, this, &MainWindow::onFinished);
    connect(m_engine, &crawl::CrawlEngine::hostBreakerChanged, this, &MainWindow::onBreakerEvent);
    connect(m_loader, &ListLoader::loaded, this, &MainWindow::onListLoaded);
    connect(m_loader, &ListLoader::progress, this,
            [this](qint64 bytes, qint64 total) { m_status->showTask(tr("Reading list %p%"), bytes, total); });
    connect(m_loader, &ListLoader::failed, this, [this](const crawl::InputSource &, const QString &error) {
        m_status->hideTask();
        m_input.reset();
        updateActions();
        statusBar()->showMessage(error, 10'000);
        if (m_confirm)
            QMessageBox::warning(this, tr("Cannot load the list"), error);
    });
    connect(m_exporter, &CsvExporter::progress, this, [this](qint64 written, qint64 total) {
        m_status->showTask(tr("Exporting %p%"), written, std::max<qint64>(total, 1));
    });
    connect(m_exporter, &CsvExporter::finished, this, &MainWindow::onExportFinished);
    // The user's edits reach the engine at once and are remembered; limits set by code (the demo's)
    // are not written back to the settings.
    connect(m_limits, &LimitsPanel::limitsEdited, this, [this] {
        applyLimits();
        if (!m_cluster->isAttached()) // the shared crawl's limits are not this window's defaults
            saveLimits();
    });
    connect(m_limits, &LimitsPanel::fetchPolicyEdited, this, [this] {
        applyFetchPolicy();
        saveLimits();
    });
    connect(m_limits, &LimitsPanel::resetRequested, this, &MainWindow::resetLimits);

    m_feed->setCoalesceMs(kResultsFlushMs);
    connect(m_feed, &ResultsFeed::chunkReady, this, &MainWindow::applyResults);

    m_closeTimeout.setSingleShot(true);
    m_closeTimeout.setInterval(5'000);
    connect(&m_closeTimeout, &QTimer::timeout, this, [this] {
        // The engine did not finish in time: close anyway; its destructor stops and joins. The user
        // quit: not a crash, so the next window does not offer it (Open Crawl still resumes it).
        markCrawlFile(CrawlFileInfo::kStopped);
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
    m_crawlLoader->cancel();
    m_crawlCopier->abandon(); // removes its partial file
    disconnect(m_engine, nullptr, this, nullptr);
    disconnect(m_cluster, nullptr, this, nullptr); // its destructor detaches after this window's members
}

QTextBrowser *MainWindow::failureDetails() const {
    return m_failuresPage->details();
}

QTableView *MainWindow::hostsView() const {
    return m_hostsPage->view();
}

QTableView *MainWindow::failuresView() const {
    return m_failuresPage->view();
}

QTableView *MainWindow::resultsView() const {
    return m_resultsPage->view();
}

void MainWindow::setConfirmationsEnabled(bool on) {
    m_confirm = on;
    m_hostsPage->setConfirmationsEnabled(on);
}

// --- construction ---------------------------------------------------------------------------------

void MainWindow::connectActions() {
    connect(m_actions->open, &QAction::triggered, this, &MainWindow::openFileDialog);
    connect(m_actions->paste, &QAction::triggered, this, &MainWindow::pasteFromClipboard);
    connect(m_actions->start, &QAction::triggered, this, [this] {
        if (m_input)
            startCrawl();
        else if (m_crawlFileUnfinished && !m_crawlFile.isEmpty())
            resumeCrawl(m_crawlFile); // an opened (or stopped) crawl file continues
        else
            openFileDialog();
    });
    connect(m_actions->pause, &QAction::triggered, this, &MainWindow::pauseOrResume);
    connect(m_actions->stop, &QAction::triggered, this, &MainWindow::stopCrawl);
    connect(m_actions->retry, &QAction::triggered, this, [this] { retryFailed(RetryScope::Transient); });
    connect(m_actions->retryAll, &QAction::triggered, this, [this] { retryFailed(RetryScope::AllFailures); });
    connect(m_actions->retrySelected, &QAction::triggered, this,
            [this] { retryFailed(RetryScope::Selected); });
    connect(m_actions->exportView, &QAction::triggered, this,
            [this] { exportDialog(ExportKind::CurrentView); });
    connect(m_actions->exportAll, &QAction::triggered, this, [this] { exportDialog(ExportKind::All); });
    connect(m_actions->exportFailures, &QAction::triggered, this,
            [this] { exportDialog(ExportKind::Failures); });
    connect(m_actions->quit, &QAction::triggered, this, &QWidget::close);
    connect(m_actions->about, &QAction::triggered, this, &MainWindow::showAbout);
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

    m_banner = new LoadSummaryBanner;

    m_charts = new ChartsPanel;
    m_hosts->setHostPalette(m_charts->hostPalette()); // a host's swatch matches its chart line

    m_hostsPage = new HostsPage(m_hosts);
    m_hostsPage->setGlobalLimits([this] {
        crawl::CrawlLimits global;
        m_limits->applyTo(&global);
        return global;
    });
    connect(m_hostsPage, &HostsPage::overrideChosen, this, &MainWindow::setHostOverride);
    connect(m_hostsPage, &HostsPage::hostActionChosen, this, &MainWindow::applyHostAction);

    m_failuresPage = new ResultsPage(ResultsPage::Kind::Failures, m_results);
    m_failuresPage->addRowAction(m_actions->retrySelected);
    m_resultsPage = new ResultsPage(ResultsPage::Kind::Results, m_results);
    for (ResultsPage *page : {m_failuresPage, m_resultsPage}) {
        connect(page, &ResultsPage::statusMessage, this, &MainWindow::showStatusMessage);
        // Export what the table shows, or every row: both a right-click away.
        auto *separator = new QAction(page);
        separator->setSeparator(true);
        page->addRowAction(separator);
        page->addRowAction(m_actions->exportView);
        page->addRowAction(m_actions->exportAll);
    }

    m_tabs = new QTabWidget;
    m_tabs->setObjectName(QStringLiteral("tabs"));
    m_tabs->setDocumentMode(true);
    m_tabs->addTab(m_hostsPage, tr("&Hosts"));
    m_tabs->addTab(m_failuresPage, tr("&Failures"));
    m_tabs->addTab(m_resultsPage, tr("&Results"));
    m_eventsPage = new EventsPage;
    m_tabs->addTab(m_eventsPage, tr("E&vents"));
    m_tabs->setTabToolTip(3, tr("Hosts whose circuit breaker tripped or recovered, with the time"));
    connect(m_eventsPage, &EventsPage::countChanged, m_tabs, [this](int count) {
        m_tabs->setTabText(m_tabs->indexOf(m_eventsPage),
                           count > 0 ? tr("E&vents (%1)").arg(count) : tr("E&vents"));
    });
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

    auto *crawlViews = new QWidget;
    auto *layout = new QVBoxLayout(crawlViews);
    layout->setContentsMargins(4, 4, 4, 0);
    layout->addWidget(m_banner);
    layout->addWidget(m_mainSplitter, 1);

    // Until a list is loaded the window says what to do instead of showing empty tables and charts.
    m_emptyState = new EmptyState(m_actions->open, m_actions->paste);
    m_centralStack = new QStackedWidget;
    m_centralStack->addWidget(m_emptyState);
    m_centralStack->addWidget(crawlViews);
    setCentralWidget(m_centralStack);
}

void MainWindow::createViewMenu() {
    auto *dock = findChild<QDockWidget *>(QStringLiteral("limitsDock"));
    QAction *limitsToggle = dock->toggleViewAction();
    limitsToggle->setIcon(actionIcon(QStringLiteral("configure")));
    limitsToggle->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_L));
    limitsToggle->setToolTip(tr("Show or hide the limits panel (Ctrl+L)"));

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
        if (m_tabs->currentWidget() == m_hostsPage)
            m_tabs->setCurrentWidget(m_failuresPage);
        currentResultsPage()->focusFilter();
    });
    view->addSeparator();
    m_themeMenu = new ThemeMenu(view);
    view->addMenu(m_themeMenu);
    connect(m_themeMenu, &ThemeMenu::themeChanged, m_banner, &LoadSummaryBanner::applyPalette);
    m_banner->applyPalette(); // the saved theme was applied after the banner was made

    m_recentMenu = new RecentMenu(this);
    m_actions->fileMenu()->insertMenu(m_actions->paste, m_recentMenu);
    connect(m_recentMenu, &RecentMenu::openRequested, this, &MainWindow::loadFile);

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->addAction(m_actions->about);
}

void MainWindow::createCrawlFileActions() {
    // File: lists (Open, Recent, Paste) | crawls (Open Crawl, Recent Crawls, Save Crawl As, Manage) |
    // exports | Quit.
    QMenu *file = m_actions->fileMenu();
    QAction *before = m_actions->exportView;
    m_openCrawl = new QAction(actionIcon(QStringLiteral("document-open")), tr("Open &Crawl…"), this);
    m_openCrawl->setObjectName(QStringLiteral("openCrawl"));
    m_openCrawl->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    m_openCrawl->setToolTip(tr("Reopen a journaled crawl: its results, and Resume if it was unfinished"));
    m_saveCrawl = new QAction(actionIcon(QStringLiteral("document-save-as")), tr("&Save Crawl As…"), this);
    m_saveCrawl->setObjectName(QStringLiteral("saveCrawl"));
    m_saveCrawl->setShortcut(QKeySequence::SaveAs);
    m_saveCrawl->setToolTip(tr("Copy the crawl file shown (also while it runs)"));
    m_manageCrawls = new QAction(tr("&Manage Crawls…"), this);
    m_manageCrawls->setObjectName(QStringLiteral("manageCrawls"));
    m_manageCrawls->setToolTip(tr("Where crawl files are kept, their sizes; open or delete them"));
    m_recentCrawls = new RecentMenu(RecentMenu::Texts{tr("Recent Cra&wls"), QStringLiteral("recent/crawls"),
                                                      tr("No recent crawls"), tr("Clear Recent Crawls")},
                                    this);
    m_recentCrawls->setObjectName(QStringLiteral("recentCrawlsMenu"));
    file->insertAction(before, m_openCrawl);
    file->insertMenu(before, m_recentCrawls);
    file->insertAction(before, m_saveCrawl);
    file->insertAction(before, m_manageCrawls);
    file->insertSeparator(before);
    connect(m_openCrawl, &QAction::triggered, this, &MainWindow::openCrawlDialog);
    connect(m_saveCrawl, &QAction::triggered, this, &MainWindow::saveCrawlDialog);
    connect(m_manageCrawls, &QAction::triggered, this, &MainWindow::showCrawlFiles);
    connect(m_recentCrawls, &RecentMenu::openRequested, this, &MainWindow::openCrawl);

    // An opened crawl's rows go through the same time-budgeted feed as a live crawl's: a million of them
    // never block the window. They are not coalesced: the loader reads on only as the views take them.
    connect(m_crawlLoader, &CrawlFileLoader::rowsLoaded, m_feed, &ResultsFeed::appendNow);
    connect(m_feed, &ResultsFeed::drained, this, [this] {
        if (auto info = std::move(m_openedWaitingForRows))
            onCrawlFileLoaded(*info);
    });
    connect(m_crawlLoader, &CrawlFileLoader::progress, this, [this](qint64 read, qint64 total) {
        m_status->showTask(tr("Reading crawl %p%"), read, std::max<qint64>(total, 1));
    });
    connect(m_crawlLoader, &CrawlFileLoader::loaded, this, [this](const CrawlFileInfo &info) {
        if (m_feed->pendingCount() == 0)
            onCrawlFileLoaded(info);
        else
            m_openedWaitingForRows = std::make_unique<CrawlFileInfo>(info);
    });
    connect(m_crawlLoader, &CrawlFileLoader::failed, this, [this](const QString &path, const QString &error) {
        m_status->hideTask();
        m_banner->hide();
        if (m_crawlFile == path && !m_crawlFileLive)
            m_crawlFile.clear();
        updateActions();
        statusBar()->showMessage(error, 10'000);
        if (m_confirm)
            QMessageBox::warning(this, tr("Cannot open the crawl"), error);
        Q_EMIT crawlFileOpened(path, -1, false);
    });
    const auto copyEnded = [this](bool ok, const QString &target, const QString &error) {
        bool cancelledByUser = false;
        if (target == m_savingCrawlTo) {
            cancelledByUser = m_saveCancelled;
            m_savingCrawlTo.clear();
            m_saveCancelled = false;
            m_status->hideTask();
            m_cancelSave->hide();
        }
        statusBar()->showMessage(ok ? tr("Crawl saved to %1").arg(QDir::toNativeSeparators(target))
                                    : tr("Saving the crawl failed: %1").arg(error),
                                 10'000);
        if (!ok && !cancelledByUser && m_confirm) // the user's own Cancel needs no warning
            QMessageBox::warning(this, tr("Save Crawl As"), error);
        Q_EMIT crawlSaved(ok, target, error);
    };
    connect(m_engine, &crawl::CrawlEngine::journalCopied, this, copyEnded);
    connect(m_crawlCopier, &CrawlFileCopier::copied, this, copyEnded);
    // Both copies go step by step off this thread (a live crawl's on its journal thread, where commits go
    // on; an opened one's on a worker): progress and Cancel, whatever the size of the file.
    m_cancelSave = new QPushButton(tr("Cancel Save"), statusBar());
    m_cancelSave->setObjectName(QStringLiteral("cancelSave"));
    m_cancelSave->setToolTip(tr("Stop saving the copy of the crawl; no file is written"));
    m_cancelSave->hide();
    statusBar()->addPermanentWidget(m_cancelSave);
    // Texts that cannot go to disk stay in memory (a cost the user should know of); texts that cannot be
    // read back show blank: both say why, for as long as it holds.
    m_textsProblem = new QLabel(statusBar());
    m_textsProblem->setObjectName(QStringLiteral("textsProblem"));
    m_textsProblem->hide();
    statusBar()->addPermanentWidget(m_textsProblem);
    showTextsProblem();
    // A rows or texts file can fail when it is read back (scrolling, sorting), long after the last results
    // arrived: look again once a second (comparing one string).
    auto *problemCheck = new QTimer(this);
    problemCheck->setInterval(1000);
    connect(problemCheck, &QTimer::timeout, this, &MainWindow::showTextsProblem);
    problemCheck->start();
    connect(m_cancelSave, &QPushButton::clicked, this, &MainWindow::cancelCrawlSave);
    const auto copyProgress = [this](qint64 copied, qint64 total) {
        if (!m_cancelSave->isHidden())
            m_status->showTask(tr("Saving the crawl %p%"), copied, std::max<qint64>(total, 1));
    };
    connect(m_engine, &crawl::CrawlEngine::journalCopyProgress, this, copyProgress);
    connect(m_crawlCopier, &CrawlFileCopier::progress, this, copyProgress);

    // An opened crawl's Hosts tab and summary, read from the file beside its rows.
    m_crawlSummary = new CrawlFileSummaryReader(this);
    connect(m_crawlSummary, &CrawlFileSummaryReader::summaryRead, this,
            [this](const QString &path, const crawl::CrawlSnapshot &snapshot, qint64 shown, qint64 total) {
                if (m_crawlFileLive || path != m_crawlFile)
                    return;
                const qint64 now = QDateTime::currentMSecsSinceEpoch();
                m_lastSnapshot = snapshot;
                m_hosts->setCrawlState(snapshot.state);
                m_hosts->setHosts(snapshot.hosts, now);
                m_charts->addSnapshot(snapshot, now);
                updateStatus(snapshot);
                m_hostsPage->setNote(shown < total
                                         ? tr("Showing the %1 busiest of the %2 hosts in this crawl file")
                                               .arg(number(shown), number(total))
                                         : QString());
            });
    connect(m_crawlSummary, &CrawlFileSummaryReader::failed, this,
            [this](const QString &path, const QString &error) {
                if (!m_crawlFileLive && path == m_crawlFile)
                    m_hostsPage->setNote(tr("The hosts of this crawl could not be read: %1").arg(error));
            });
}

void MainWindow::cancelCrawlSave() {
    if (m_savingCrawlTo.isEmpty())
        return;
    m_saveCancelled = true;
    // Only one of them has a copy under way; the other has nothing to cancel.
    m_engine->cancelJournalCopy();
    m_crawlCopier->cancel();
}

void MainWindow::setCrawlCopyStep(int pagesPerStep, int pauseMs) {
    m_engine->setJournalCopyStep(pagesPerStep, pauseMs);
    m_crawlCopier->setStep(pagesPerStep, pauseMs);
}

void MainWindow::setCrawlsFolder(const QString &folder) {
    m_crawlsFolder = folder;
}

void MainWindow::openCrawlDialog() {
    const QString path = QFileDialog::getOpenFileName(this, tr("Open Crawl"), m_crawlsFolder,
                                                      tr("Crawl files (*.crawl *.db);;All files (*)"));
    if (!path.isEmpty())
        openCrawl(path);
}

void MainWindow::openCrawl(const QString &path) {
    if (crawl::isActive(m_engine->state())) {
        statusBar()->showMessage(tr("Stop the running crawl before opening another"), 5'000);
        return;
    }
    if (m_crawlFileLive && QFileInfo(path).absoluteFilePath() == QFileInfo(m_crawlFile).absoluteFilePath()) {
        statusBar()->showMessage(tr("That crawl is the one on show"), 5'000);
        Q_EMIT crawlFileOpened(path, m_results->rowCount(), false);
        return;
    }
    clearCrawlViews();
    m_input.reset();
    m_crawlFile = QFileInfo(path).absoluteFilePath();
    m_crawlFileLive = false;
    m_inputName = QFileInfo(path).fileName();
    m_recentCrawls->add(path);
    showCrawlViews();
    m_banner->showReading(m_inputName);
    setWindowTitle(crawlWindowTitle(m_inputName, m_lastSnapshot));
    m_status->showTask(tr("Reading crawl"), 0, 0);
    m_crawlLoader->load(m_crawlFile);
    m_crawlSummary->read(m_crawlFile);
    updateActions();
}

void MainWindow::onCrawlFileLoaded(const CrawlFileInfo &info) {
    // Reading the file left free memory in the allocator's heaps (the pages read ahead, the readers' own
    // arenas): ~14 MiB after a 1,000,000-row crawl, resident until something reuses it. Give it back.
    malloc_trim(0);
    m_status->hideTask();
    m_crawlFileUnfinished = info.isUnfinished();
    m_banner->hide();
    m_inputName = info.listName.isEmpty() ? QFileInfo(info.path).fileName() : info.listName;
    setWindowTitle(crawlWindowTitle(m_inputName, m_lastSnapshot));
    const QString text = tr("Opened the crawl of %1: %2 of %3 rows done")
                             .arg(m_inputName, number(info.done), number(info.total));
    statusBar()->showMessage(
        info.isUnfinished() ? text + tr(" — unfinished; Crawl > Start resumes it") : text, 15'000);
    updateActions();
    Q_EMIT crawlFileOpened(info.path, m_results->rowCount(), info.isUnfinished());
    if (info.isUnfinished() && m_confirm &&
        QMessageBox::question(this, tr("Resume the crawl?"),
                              tr("The crawl of %1 is unfinished (%2 of %3 done). Resume it now?")
                                  .arg(m_inputName, number(info.done), number(info.total)),
                              QMessageBox::Yes | QMessageBox::No, QMessageBox::Yes) == QMessageBox::Yes)
        resumeCrawl(info.path);
}

bool MainWindow::resumeCrawl(const QString &path) {
    if (crawl::isActive(m_engine->state()))
        return false;
    const QString absolute = QFileInfo(path).absoluteFilePath();
    if (!m_crawlCopier->source().isEmpty() &&
        QFileInfo(m_crawlCopier->source()).absoluteFilePath() == absolute) {
        // The crawl would lock its file against the copy's reads: the copy would stall, or the crawl not
        // start.
        statusBar()->showMessage(
            tr("Wait for the copy of this crawl to be saved, or cancel it, before resuming it"), 10'000);
        return false;
    }
    m_crawlLoader->cancel();
    QString listName = m_inputName;
    // The engine may still hold this very file (a crawl that stopped here): it lets go when it starts.
    if (!(m_crawlFileLive && absolute == QFileInfo(m_crawlFile).absoluteFilePath())) {
        const CrawlFileInfo info = CrawlFileInfo::read(absolute);
        if (!info.listName.isEmpty())
            listName = info.listName;
        const QString changed = listChangeBeforeResume(absolute);
        if (!changed.isEmpty()) {
            const QString text = tr("%1 Its lines not read yet would be taken from the changed file by line "
                                    "number.")
                                     .arg(changed);
            if (!m_confirm ||
                QMessageBox::warning(this, tr("The list changed"), text + tr("\n\nResume anyway?"),
                                     QMessageBox::Yes | QMessageBox::Cancel,
                                     QMessageBox::Cancel) != QMessageBox::Yes) {
                statusBar()->showMessage(text, 15'000);
                return false;
            }
        }
    }
    // The crawl's own settings (a --store crawl's flags, or what the window ran it with) win over the
    // panel's; the panel moves to them, and the user changes them like any running crawl's.
    crawl::CrawlLimits windowLimits = m_engine->limits();
    m_limits->applyTo(&windowLimits);
    windowLimits.hostOverrides = m_overrides;
    crawl::FetchPolicy windowPolicy = m_engine->fetchPolicy();
    m_limits->applyTo(&windowPolicy);
    const CrawlRulesParse rules = m_rules->quality();
    QString refused;
    const auto stored =
        crawl::StoredCrawlConfig::fromSettings(crawl::CrawlEngine::readJournalSettings(absolute), &refused);
    if (!refused.isEmpty()) { // a tampered record: resuming by other rules could fetch what it excluded
        statusBar()->showMessage(refused, 10'000);
        if (m_confirm)
            QMessageBox::warning(this, tr("Cannot resume the crawl"), refused);
        updateActions();
        return false;
    }
    clearCrawlViews();
    const ResumeSettings chosen = ResumeSettings::decide(
        stored, windowLimits, windowPolicy, rules.error.isEmpty() ? rules.quality : m_engine->crawlQuality());
    setLimits(chosen.limits, chosen.policy);
    m_engine->setCrawlQuality(chosen.quality);
    QString error;
    if (!m_engine->start(crawl::InputSource::fromText({}), crawl::CrawlJournal::resumeFrom(absolute),
                         &error)) {
        statusBar()->showMessage(error, 10'000);
        if (m_confirm)
            QMessageBox::warning(this, tr("Cannot resume the crawl"), error);
        updateActions();
        return false;
    }
    m_input.reset();
    m_crawlFile = absolute;
    m_crawlFileLive = true;
    m_inputName = listName;
    m_recentCrawls->add(absolute);
    markCrawlFile(CrawlFileInfo::kRunning);
    showCrawlViews();
    m_banner->hide();
    m_lastSnapshot.state = crawl::CrawlState::Running;
    updateStatus(m_lastSnapshot);
    statusBar()->showMessage(
        chosen.fromCrawlFile
            ? tr("Resuming the crawl of %1 with its own limits: %2 per host, %3 ms apart")
                  .arg(m_inputName, number(chosen.limits.perHostInFlight), number(chosen.limits.intervalMs))
            : tr("Resuming the crawl of %1").arg(m_inputName),
        5'000);
    updateActions();
    return true;
}

QString MainWindow::listChangeBeforeResume(const QString &path) const {
    const QMap<QString, QString> stored = crawl::CrawlEngine::readJournalSettings(path);
    // Only a list not yet read to its end is read again; a pasted list is kept whole in the file.
    if (stored.value(crawl::journalkey::inputKind) != QLatin1String("file") ||
        stored.value(crawl::journalkey::inputComplete) == QLatin1String("1"))
        return {};
    const auto then =
        crawl::InputFingerprint::fromString(stored.value(crawl::InputFingerprint::kSettingsKey));
    const QString list = stored.value(crawl::journalkey::inputPath);
    QString unreadable;
    const auto now = crawl::InputFingerprint::ofFile(list, &unreadable);
    if (!then || !now)
        return {}; // no fingerprint kept, or the file is gone: the engine says what it cannot read
    const QString differences = crawl::InputFingerprint::differences(*then, *now);
    if (differences.isEmpty())
        return {};
    return tr("The list %1 changed since the crawl started (%2).")
        .arg(QDir::toNativeSeparators(list), differences);
}

void MainWindow::markCrawlFile(const QString &state) {
    if (!m_crawlFileLive)
        return;
    QMap<QString, QString> values{{CrawlFileInfo::kState, state}};
    if (state == CrawlFileInfo::kRunning)
        values.insert(CrawlFileInfo::kOwnerPid, QString::number(QCoreApplication::applicationPid()));
    m_engine->writeJournalSettings(values);
}

void MainWindow::saveCrawlDialog() {
    if (m_crawlFile.isEmpty()) {
        statusBar()->showMessage(tr("No crawl to save: start or open one first"), 5'000);
        return;
    }
    QSettings settings;
    const QString folder = settings
                               .value(QStringLiteral("paths/lastFolder"),
                                      QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation))
                               .toString();
    // The file dialog asks before replacing an existing file.
    const QString target = QFileDialog::getSaveFileName(
        this, tr("Save Crawl As"), QDir(folder).filePath(QFileInfo(m_crawlFile).fileName()),
        tr("Crawl files (*.crawl);;All files (*)"));
    if (target.isEmpty())
        return;
    settings.setValue(QStringLiteral("paths/lastFolder"), QFileInfo(target).absolutePath());
    saveCrawlAs(target);
}

void MainWindow::saveCrawlAs(const QString &target) {
    if (m_crawlFile.isEmpty()) {
        Q_EMIT crawlSaved(false, target, tr("no crawl is shown"));
        return;
    }
    if (const QString busy = liveCrawlAt(target); !busy.isEmpty()) {
        // Reported later, like every copy's end, so callers handle one kind of answer.
        QMetaObject::invokeMethod(
            this, [this, target, busy] { Q_EMIT crawlSaved(false, target, busy); }, Qt::QueuedConnection);
        return;
    }
    if (!m_savingCrawlTo.isEmpty()) {
        // Reported later, like every copy's end, so callers handle one kind of answer.
        const QString error = tr("a copy of the crawl to %1 is still being saved")
                                  .arg(QDir::toNativeSeparators(m_savingCrawlTo));
        QMetaObject::invokeMethod(
            this, [this, target, error] { Q_EMIT crawlSaved(false, target, error); }, Qt::QueuedConnection);
        return;
    }
    statusBar()->showMessage(tr("Saving the crawl to %1…").arg(QDir::toNativeSeparators(target)));
    m_savingCrawlTo = target;
    m_cancelSave->show();
    m_status->showTask(tr("Saving the crawl %p%"), 0, 0);
    // The live store is copied on its own thread (the frontier's connection); an opened one on a worker.
    if (m_crawlFileLive && m_engine->hasOpenJournal())
        m_engine->saveJournalCopy(target);
    else
        m_crawlCopier->copy(m_crawlFile, target);
}

QString MainWindow::liveCrawlAt(const QString &target) const {
    const QFileInfo targetInfo(target);
    if (!targetInfo.isFile() || targetInfo.canonicalFilePath() == QFileInfo(m_crawlFile).canonicalFilePath())
        return {}; // the crawl's own file: refused by the copy itself, with its own message
    // Only an SQLite file can be a crawl; anything else (a "-wal", a list) is never opened as one here.
    QFile file(target);
    if (!file.open(QIODevice::ReadOnly) || file.read(16) != QByteArray("SQLite format 3\0", 16))
        return {};
    file.close();
    const CrawlFileInfo info = CrawlFileInfo::read(target);
    // Another window still crawling into it would go on writing to a file that is no longer there.
    if (info.busy || (info.state == CrawlFileInfo::kRunning && info.ownerPid > 0 &&
                      crawl::isProcessAlive(info.ownerPid))) {
        return tr("cannot save a copy of the crawl to %1: another crawl is writing to it")
            .arg(QDir::toNativeSeparators(target));
    }
    return {};
}

QMessageBox *MainWindow::offerInterruptedCrawl() {
    if (crawl::isActive(m_engine->state()) || m_resumeOffer)
        return nullptr;
    const QList<CrawlFileInfo> files = CrawlFileInfo::scan(m_crawlsFolder);
    const qint64 self = QCoreApplication::applicationPid();
    const auto interrupted = std::find_if(files.cbegin(), files.cend(), [self](const CrawlFileInfo &info) {
        return info.ownerPid != self && CrawlFileInfo::wasInterrupted(info, crawl::isProcessAlive);
    });
    if (interrupted == files.cend())
        return nullptr;
    const CrawlFileInfo info = *interrupted;
    const QString name = info.listName.isEmpty() ? QFileInfo(info.path).fileName() : info.listName;
    auto *box = new QMessageBox(QMessageBox::Question, tr("Resume the interrupted crawl?"),
                                tr("Crawlscope closed without stopping the crawl of %1. Resume crawl %1 "
                                   "(%2 of %3 done)?")
                                    .arg(name, number(info.done), number(info.total)),
                                QMessageBox::NoButton, this);
    box->setObjectName(QStringLiteral("resumeOffer"));
    box->setInformativeText(tr("Open shows its results without crawling. Discard keeps the file (File > "
                               "Manage Crawls… deletes it) and does not ask again."));
    QPushButton *resume = box->addButton(tr("&Resume"), QMessageBox::AcceptRole);
    QPushButton *open = box->addButton(tr("&Open"), QMessageBox::ActionRole);
    box->addButton(tr("&Discard"), QMessageBox::RejectRole);
    box->setDefaultButton(resume);
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QMessageBox::buttonClicked, this,
            [this, box, resume, open, path = info.path](QAbstractButton *b) {
                if (b == resume) {
                    resumeCrawl(path);
                } else if (b == open) {
                    openCrawl(path);
                } else {
                    QString error;
                    if (!CrawlFileInfo::writeSettings(
                            path, {{CrawlFileInfo::kState, CrawlFileInfo::kDiscarded}}, &error))
                        statusBar()->showMessage(error, 10'000);
                }
                Q_UNUSED(box);
            });
    m_resumeOffer = box;
    box->open();
    return box;
}

CrawlFilesDialog *MainWindow::showCrawlFiles() {
    if (!m_crawlFilesDialog) {
        m_crawlFilesDialog = new CrawlFilesDialog(m_crawlsFolder, this);
        m_crawlFilesDialog->setAttribute(Qt::WA_DeleteOnClose);
        connect(m_crawlFilesDialog, &CrawlFilesDialog::openRequested, this, &MainWindow::openCrawl);
    }
    m_crawlFilesDialog->setConfirmationsEnabled(m_confirm);
    m_crawlFilesDialog->setLiveFile(m_crawlFileLive ? m_crawlFile : QString());
    m_crawlFilesDialog->show();
    m_crawlFilesDialog->raise();
    return m_crawlFilesDialog;
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
    QSettings settings;
    settings.setValue(QStringLiteral("paths/lastFolder"), QFileInfo(path).absolutePath());
    if (!crawl::isActive(m_engine->state()))
        m_recentMenu->add(path);
    loadSource(crawl::InputSource::fromFile(path), QFileInfo(path).fileName());
}

void MainWindow::loadText(const QByteArray &utf8, const QString &displayName) {
    loadSource(crawl::InputSource::fromText(utf8), displayName);
}

void MainWindow::loadSource(const crawl::InputSource &source, const QString &displayName) {
    if (m_cluster->isAttached()) {
        statusBar()->showMessage(tr("Detach from the cluster before loading a list"), 5'000);
        return;
    }
    if (crawl::isActive(m_engine->state())) {
        statusBar()->showMessage(tr("Stop the running crawl before loading another list"), 5'000);
        return;
    }
    // The engine streams the list itself when the crawl starts; the scan is only for the summary, so
    // Start works at once.
    m_input = source;
    m_inputName = displayName;
    showCrawlViews();
    setWindowTitle(crawlWindowTitle(m_inputName, m_lastSnapshot));
    m_banner->showReading(displayName);
    m_status->showTask(tr("Reading list"), 0, 0);
    m_loader->load(source);
    updateActions();
}

void MainWindow::onListLoaded(const crawl::InputSource &, const crawl::UrlListScan &scan) {
    m_status->hideTask();
    m_banner->showScan(m_inputName, scan);
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
    if (crawl::isActive(m_engine->state()) || m_cluster->isAttached())
        return;
    m_crawlLoader->cancel();
    clearCrawlViews();
    applyLimits();
    applyFetchPolicy();
    const CrawlRulesParse rules = m_rules->quality();
    if (!rules.error.isEmpty()) {
        const QString error = tr("Crawl rules: %1").arg(rules.error);
        statusBar()->showMessage(error, 10'000);
        if (m_confirm)
            QMessageBox::warning(this, tr("Cannot start the crawl"), error);
        updateActions();
        return;
    }
    m_engine->setCrawlQuality(rules.quality);
    // Every crawl is journaled in its own file under the crawls folder: a crash loses nothing committed.
    QString error;
    QString path;
    if (QDir().mkpath(m_crawlsFolder)) {
        path = crawlfilename::uniquePath(m_crawlsFolder, m_inputName, QDateTime::currentDateTime(),
                                         [](const QString &p) { return QFileInfo::exists(p); });
    }
    crawl::CrawlJournal journal =
        path.isEmpty() ? crawl::CrawlJournal::temporary() : crawl::CrawlJournal::create(path);
    journal.settings.insert(CrawlFileInfo::kListName, m_inputName);
    journal.settings.insert(CrawlFileInfo::kOwnerPid, QString::number(QCoreApplication::applicationPid()));
    journal.settings.insert(CrawlFileInfo::kState, CrawlFileInfo::kRunning);
    if (m_input->kind == crawl::InputSource::Kind::File) {
        QString unreadable; // the engine's open says why, if it matters
        if (const auto print = crawl::InputFingerprint::ofFile(m_input->path, &unreadable))
            journal.settings.insert(crawl::InputFingerprint::kSettingsKey, print->toString());
    }
    bool started = m_engine->start(*m_input, journal, &error);
    QString notJournaled;
    if (!started && !path.isEmpty() && m_engine->journalFailure() != crawl::StoreError::Kind::None) {
        // The crawls folder cannot take it (read-only, full): crawl anyway, but say it is not kept.
        notJournaled = error;
        journal.path.clear();
        started = m_engine->start(*m_input, journal, &error);
    } else if (path.isEmpty()) {
        notJournaled = tr("cannot create %1").arg(QDir::toNativeSeparators(m_crawlsFolder));
    }
    if (!started) {
        statusBar()->showMessage(error, 10'000);
        if (m_confirm)
            QMessageBox::warning(this, tr("Cannot start the crawl"), error);
        updateActions();
        return;
    }
    m_crawlFile = m_engine->journalPath();
    m_crawlFileLive = !m_crawlFile.isEmpty();
    if (m_crawlFileLive)
        m_recentCrawls->add(m_crawlFile);
    m_lastSnapshot.state = crawl::CrawlState::Running;
    updateStatus(m_lastSnapshot);
    statusBar()->showMessage(
        notJournaled.isEmpty()
            ? tr("Crawling %1").arg(m_inputName)
            : tr("Crawling %1 without a crawl file (%2): a crash loses it").arg(m_inputName, notJournaled),
        notJournaled.isEmpty() ? 5'000 : 30'000);
    updateActions();
}

void MainWindow::clearCrawlViews() {
    m_crawlFileUnfinished = false;
    m_crawlSummary->cancel();
    m_hostsPage->setNote({});
    m_openedWaitingForRows.reset();
    m_feed->clear();
    m_retrying.clear();
    m_results->clear();
    m_hosts->clear();
    m_charts->clear();
    m_failuresPage->clearDetails();
    m_eventsPage->clear();
    m_lastSnapshot = crawl::CrawlSnapshot{};
    m_status->clear();
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
        QMessageBox box(
            QMessageBox::Question, tr("Stop the crawl?"),
            tr("Requests in flight are cancelled. The results so far are kept, and the unfinished "
               "URLs stay in the crawl file: File > Open Crawl… resumes it later."),
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
        const QModelIndexList selected = m_failuresPage->view()->selectionModel()->selectedRows();
        for (const QModelIndex &index : selected) {
            const int row = m_failuresPage->filterModel()->sourceRow(index.row());
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
    markCrawlFile(CrawlFileInfo::kRunning);
    statusBar()->showMessage(tr("Queued %n failed URL(s) again", nullptr, int(retry.size())), 5'000);
    updateActions();
}

void MainWindow::applyHostAction(const QString &hostKey, crawl::HostAction action) {
    if (m_cluster && m_cluster->isAttached()) { // a shared crawl: for every worker, through Redis
        m_cluster->applyHostAction(hostKey, action);
        return;
    }
    switch (action) {
    case crawl::HostAction::Pause:
        m_engine->pauseHost(hostKey);
        break;
    case crawl::HostAction::Resume:
        m_engine->resumeHost(hostKey);
        break;
    case crawl::HostAction::Skip:
        m_engine->skipHost(hostKey);
        break;
    case crawl::HostAction::ResumeTripped:
        m_engine->resetHostBreaker(hostKey);
        break;
    }
}

void MainWindow::setHostOverride(const QString &hostKey, const std::optional<crawl::HostOverride> &value) {
    if (!value || (value->maxInFlight <= 0 && value->intervalMs < 0))
        m_overrides.remove(hostKey);
    else
        m_overrides.insert(hostKey, *value);
    m_hostsPage->setOverrides(m_overrides);
    applyLimits();
}

void MainWindow::setLimits(const crawl::CrawlLimits &limits, const crawl::FetchPolicy &policy) {
    m_limits->setValues(limits, policy);
    m_overrides = limits.hostOverrides;
    m_hostsPage->setOverrides(m_overrides);
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

void MainWindow::setHostLabels(const QHash<QString, QString> &labels) {
    m_hosts->setHostLabels(labels);
    m_charts->setHostLabels(labels);
}

void MainWindow::setDemoLauncher(std::function<void()> launch) {
    m_emptyState->setDemoAvailable(bool(launch));
    disconnect(m_demoConnection);
    if (launch)
        m_demoConnection = connect(m_emptyState, &EmptyState::demoRequested, this, std::move(launch));
}

void MainWindow::showCrawlViews() {
    m_centralStack->setCurrentIndex(1);
}

void MainWindow::onBreakerEvent(const crawl::BreakerEvent &event) {
    // Non-modal: the status bar says it now, the Events tab keeps it, the charts mark the moment.
    statusBar()->showMessage(crawl::breakerEventText(event), 15'000);
    m_eventsPage->addBreakerEvent(event);
    const bool bad =
        event.kind == crawl::BreakerEvent::Kind::Tripped || event.kind == crawl::BreakerEvent::Kind::GaveUp;
    m_charts->addMarker(ChartMarker{event.atMs > 0 ? event.atMs : QDateTime::currentMSecsSinceEpoch(),
                                    crawl::breakerEventText(event),
                                    bad ? QColor(0xd0, 0x34, 0x2c) : QColor(0x2e, 0x9d, 0x4f)});
}

void MainWindow::showStatusMessage(const QString &text, int timeoutMs) {
    statusBar()->showMessage(text, timeoutMs);
}

void MainWindow::applyLimits() {
    crawl::CrawlLimits limits = m_engine->limits();
    m_limits->applyTo(&limits);
    limits.hostOverrides = m_overrides;
    if (m_cluster && m_cluster->isAttached()) { // attached: the panel steers every worker instead
        m_cluster->setLimits(limits);
        return;
    }
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

// --- watching ----------------------------------------------------------------------------------------

void MainWindow::onResults(const QList<crawl::CrawlResult> &results) {
    // The engine batches every ~100 ms; the views take them at a few hertz (each insert repaints the
    // visible rows of the open table, which costs far more than the insert itself), in slices that
    // each fit a time budget (ResultsFeed).
    if (m_retrying.isEmpty()) {
        m_feed->append(results);
    } else {
        // A retried URL that was cancelled (Stop, Skip) never got its new answer: its row keeps the
        // diagnosis it had ("410", "more than 10 redirects") instead of "cancelled · attempts 0".
        for (const crawl::CrawlResult &r : results) {
            if (m_retrying.remove(r.id) && r.outcome == crawl::Outcome::Cancelled)
                continue;
            m_feed->append(r);
        }
    }
}

void MainWindow::flushResults() {
    m_feed->flushAll();
}

void MainWindow::applyResults(const QList<crawl::CrawlResult> &batch) {
    // The distribution charts count each URL once: a retried URL's earlier result leaves them first.
    for (const crawl::CrawlResult &r : std::as_const(batch)) {
        if (const int row = m_results->rowForId(r.id); row >= 0)
            m_charts->removeResult(m_results->result(row));
    }
    m_charts->addResults(batch);
    m_results->addResults(batch);
    m_crawlLoader->rowsConsumed(batch.size()); // an opened crawl's loader reads on as the feed drains
    showTextsProblem();
}

void MainWindow::showTextsProblem() {
    const QString error = m_results->store().spillError();
    if (error == m_textsProblemShown)
        return;
    m_textsProblemShown = error;
    m_textsProblem->setVisible(!error.isEmpty());
    m_textsProblem->setText(error.isEmpty() ? QString() : tr("Results files: %1").arg(error));
    m_textsProblem->setToolTip(tr("The results' rows, URLs and titles cannot use the files they are kept in "
                                  "on disk; they stay in memory, and any that cannot be read show blank."));
}

void MainWindow::onSnapshot(const crawl::CrawlSnapshot &snapshot) {
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    m_lastSnapshot = snapshot;
    m_feed->setBudgetMs(snapshot.state == crawl::CrawlState::Running ? kFeedBudgetCrawlingMs
                                                                     : kFeedBudgetIdleMs);
    m_status->addSnapshot(snapshot, now);
    m_hosts->setCrawlState(snapshot.state);
    m_hosts->setHosts(snapshot.hosts, now);
    m_charts->addSnapshot(snapshot, now);
    updateStatus(snapshot);
    updateActions();
}

void MainWindow::onFinished(const crawl::CrawlSummary &summary) {
    flushResults(); // every result is in the views before "finished" shows
    m_feed->setBudgetMs(kFeedBudgetIdleMs);
    // Stopped or finished on purpose: not a crash, so no later window offers to resume it.
    markCrawlFile(summary.stoppedByUser || !summary.journalError.isEmpty() ? CrawlFileInfo::kStopped
                                                                           : CrawlFileInfo::kFinished);
    m_crawlFileUnfinished = m_crawlFileLive && summary.stoppedByUser;
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
    m_status->update(s);
    setWindowTitle(crawlWindowTitle(m_inputName, s));
}

void MainWindow::updateActions() {
    const crawl::CrawlState state = m_engine->state();
    const bool attached = m_cluster->isAttached(); // watching a shared crawl: no local one meanwhile
    const bool active = crawl::isActive(state) || attached;
    m_attachCluster->setEnabled(!crawl::isActive(state));
    m_detachCluster->setEnabled(attached);
    m_actions->open->setEnabled(!active);
    m_actions->paste->setEnabled(!active);
    m_actions->start->setEnabled(!active);
    m_recentMenu->setOpenEnabled(!active);
    m_recentCrawls->setOpenEnabled(!active);
    m_openCrawl->setEnabled(!active);
    m_saveCrawl->setEnabled(!m_crawlFile.isEmpty());
    const bool steerable =
        !attached && (state == crawl::CrawlState::Running || state == crawl::CrawlState::Paused);
    m_actions->pause->setEnabled(steerable);
    m_actions->setPauseShowsResume(state == crawl::CrawlState::Paused);
    m_actions->stop->setEnabled(steerable);
    const bool canRetry = m_results->failureCount() > 0 && state != crawl::CrawlState::Stopping && !attached;
    m_actions->retry->setEnabled(canRetry);
    m_actions->retryAll->setEnabled(canRetry);
    m_actions->retrySelected->setEnabled(canRetry);
    const bool canExport = m_results->rowCount() > 0 && !m_exporter->isRunning();
    m_actions->exportView->setEnabled(canExport);
    m_actions->exportAll->setEnabled(canExport);
    m_actions->exportFailures->setEnabled(canExport && m_results->failureCount() > 0);
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
        what = currentResultsPage() == m_failuresPage ? QStringLiteral("failures-view")
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

// The Failures page when it is on show, else the Results page (also while the Hosts tab is on show).
ResultsPage *MainWindow::currentResultsPage() const {
    return m_tabs->currentWidget() == m_failuresPage ? m_failuresPage : m_resultsPage;
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
    ResultFilterSortModel *model = currentResultsPage()->filterModel();
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
    m_status->showTask(tr("Exporting %p%"), 0, 1);
    statusBar()->showMessage(
        tr("Exporting %1 rows to %2").arg(number(count), QDir::toNativeSeparators(path)));
    updateActions();
    return true;
}

void MainWindow::onExportFinished(bool ok, const QString &path, qint64 rows, const QString &error) {
    m_status->hideTask();
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
           "<p>Every crawl is kept in a crawl file in <tt>%4</tt> (File &gt; Manage Crawls… shows "
           "their sizes and deletes old ones).</p>"
           "<p>Built with Qt %2 (running on Qt %3).</p>")
            .arg(QStringLiteral(CRAWLSCOPE_VERSION), QStringLiteral(QT_VERSION_STR),
                 QLatin1String(qVersion()), QDir::toNativeSeparators(m_crawlsFolder).toHtmlEscaped()));
}

void MainWindow::closeEvent(QCloseEvent *event) {
    const crawl::CrawlState state = m_engine->state();
    if (crawl::isActive(state) && !m_forceClose) {
        if (m_confirm &&
            QMessageBox::question(
                this, tr("Quit while crawling?"),
                tr("A crawl is running. Stop it and quit? Its results and unfinished URLs stay in "
                   "its crawl file; File > Open Crawl… (or Recent Crawls) resumes it."),
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
    cancelCrawlSave(); // a copy left half-made would be a file the user never asked for
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
    if (!m_failuresPage->splitter()->restoreState(
            settings.value(QStringLiteral("window/failuresSplitter")).toByteArray()))
        m_failuresPage->splitter()->setSizes({780, 260});
    hostsView()->horizontalHeader()->restoreState(
        settings.value(QStringLiteral("window/hostsHeader")).toByteArray());
    failuresView()->horizontalHeader()->restoreState(
        settings.value(QStringLiteral("window/failuresHeader")).toByteArray());
    resultsView()->horizontalHeader()->restoreState(
        settings.value(QStringLiteral("window/resultsHeader")).toByteArray());
    // The failures' Error column takes the room left, even under a header state saved before it did.
    failuresView()->horizontalHeader()->setSectionResizeMode(ResultsModel::ErrorColumn, QHeaderView::Stretch);
    // Sort indicators of the big tables are not restored: they sort on demand.
    m_failuresPage->clearSortIndicator();
    m_resultsPage->clearSortIndicator();
    m_tabs->setCurrentIndex(settings.value(QStringLiteral("window/tab"), 0).toInt());
    m_limits->loadSettings(settings);
}

void MainWindow::writeSettings() const {
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    settings.setValue(QStringLiteral("window/mainSplitter"), m_mainSplitter->saveState());
    settings.setValue(QStringLiteral("window/failuresSplitter"), m_failuresPage->splitter()->saveState());
    settings.setValue(QStringLiteral("window/hostsHeader"), hostsView()->horizontalHeader()->saveState());
    settings.setValue(QStringLiteral("window/failuresHeader"),
                      failuresView()->horizontalHeader()->saveState());
    settings.setValue(QStringLiteral("window/resultsHeader"), resultsView()->horizontalHeader()->saveState());
    settings.setValue(QStringLiteral("window/tab"), m_tabs->currentIndex());
    if (m_limitsEdited)
        m_limits->saveSettings(settings);
}

// --- a shared crawl (File > Attach to Cluster…) ---------------------------------------------------------

void MainWindow::createClusterActions() {
    m_cluster = new ClusterSession(this);
    m_workersPage = new ClusterWorkersPage(this); // a tab while attached
    m_workersPage->setObjectName(QStringLiteral("workersPage"));
    m_workersPage->hide();
    QMenu *file = m_actions->fileMenu();
    QAction *before = m_actions->exportView;
    m_attachCluster = new QAction(tr("Attach to C&luster…"), this);
    m_attachCluster->setObjectName(QStringLiteral("attachCluster"));
    m_attachCluster->setToolTip(tr("Watch and steer a crawl shared by workers through Redis"));
    m_detachCluster = new QAction(tr("&Detach from Cluster"), this);
    m_detachCluster->setObjectName(QStringLiteral("detachCluster"));
    file->insertAction(before, m_attachCluster);
    file->insertAction(before, m_detachCluster);
    file->insertSeparator(before);
    connect(m_attachCluster, &QAction::triggered, this, &MainWindow::showAttachToCluster);
    connect(m_detachCluster, &QAction::triggered, this, &MainWindow::detachFromCluster);

    connect(m_cluster, &ClusterSession::attachedChanged, this, &MainWindow::onClusterAttached);
    connect(m_cluster, &ClusterSession::resultsReady, this, &MainWindow::onResults);
    connect(m_cluster, &ClusterSession::snapshotReady, this, &MainWindow::onSnapshot);
    connect(m_cluster, &ClusterSession::clusterSnapshot, this, [this](const crawl::ClusterWatchSnapshot &s) {
        m_workersPage->setSnapshot(s);
        if (s.connected && !m_clusterLimitsShown) { // the panel starts from the shared limits
            m_clusterLimitsShown = true;
            crawl::FetchPolicy policy = m_engine->fetchPolicy();
            m_limits->applyTo(&policy);
            m_limits->setValues(ClusterSession::panelLimits(s.limits, m_engine->limits()), policy);
        }
    });
    connect(m_cluster, &ClusterSession::connectionChanged, this,
            [this](bool connected, const QString &problem) {
                statusBar()->showMessage(connected ? tr("Reconnected to %1").arg(m_cluster->redactedUrl())
                                                   : problem,
                                         connected ? 5'000 : 0);
            });
    connect(m_cluster, &ClusterSession::rowsMissed, this, [this](qint64 total) {
        // Until the user has read it: the Results table lacks these rows for good.
        statusBar()->showMessage(
            total == 1 ? tr("1 row was written before this window read it: the Results table lacks it (the "
                            "coordinator's CSV has every row)")
                       : tr("%1 rows were written before this window read them: the Results table lacks them "
                            "(the coordinator's CSV has every row)")
                             .arg(number(total)));
    });
    connect(
        m_cluster, &ClusterSession::limitsWritten, this,
        [this](bool ok, qint64 version, const QString &error) {
            statusBar()->showMessage(
                ok ? tr("Shared limits changed (version %1): every worker obeys within a second").arg(version)
                   : tr("Cannot change the shared limits: %1").arg(error),
                8'000);
        });
    connect(
        m_cluster, &ClusterSession::hostActionApplied, this,
        [this](const QString &host, crawl::HostAction action, bool ok, bool changed, const QString &error) {
            statusBar()->showMessage(ClusterSession::hostActionText(host, action, ok, changed, error), 8'000);
        });
}

ClusterAttachDialog *MainWindow::showAttachToCluster() {
    if (!m_attachDialog) {
        m_attachDialog = new ClusterAttachDialog(this);
        m_attachDialog->setAttribute(Qt::WA_DeleteOnClose);
        connect(m_attachDialog, &QDialog::accepted, this,
                [this] { attachToCluster(m_attachDialog->url(), m_attachDialog->crawlName()); });
    }
    m_attachDialog->show();
    m_attachDialog->raise();
    return m_attachDialog;
}

void MainWindow::attachToCluster(const crawl::RedisUrl &url, const QString &crawlName) {
    if (crawl::isActive(m_engine->state())) {
        statusBar()->showMessage(tr("Stop the running crawl before attaching to a cluster"), 5'000);
        return;
    }
    m_crawlLoader->cancel();
    clearCrawlViews();
    m_crawlFile.clear();
    m_crawlFileLive = false;
    m_input.reset();
    m_inputName = crawlName;
    m_banner->hide();
    m_clusterLimitsShown = false;
    m_cluster->attach(url, crawlName);
    statusBar()->showMessage(tr("Watching crawl \"%1\" on %2").arg(crawlName, url.redacted()), 8'000);
}

void MainWindow::detachFromCluster() {
    if (!m_cluster->isAttached())
        return;
    flushResults();
    m_cluster->detach();
    statusBar()->showMessage(tr("Detached: the workers go on without this window"), 8'000);
}

void MainWindow::onClusterAttached(bool attached) {
    const int index = m_tabs->indexOf(m_workersPage);
    // The window's own host overrides are not the shared crawl's: pushed with the first limit set while
    // attached, they would reach every worker. Kept aside, and back on detach.
    if (attached) {
        m_localOverrides = m_overrides;
        m_overrides.clear();
    } else {
        m_overrides = m_localOverrides;
        m_localOverrides.clear();
    }
    m_hostsPage->setOverrides(m_overrides);
    if (attached && index < 0) {
        m_tabs->insertTab(0, m_workersPage, tr("&Workers"));
        m_tabs->setCurrentWidget(m_workersPage);
        showCrawlViews();
    } else if (!attached) {
        if (index >= 0)
            m_tabs->removeTab(index);
        m_workersPage->clear();
        // Back to this window's own limits.
        QSettings settings;
        m_limits->loadSettings(settings);
        applyLimits();
    }
    updateActions();
}

} // namespace ui
