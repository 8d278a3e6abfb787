#pragma once

#include "cluster/redisurl.h"
#include "input/inputsource.h"
#include "input/urllistreader.h"
#include "model/breakerevent.h"
#include "model/crawllimits.h"
#include "model/crawlresult.h"
#include "model/crawlsnapshot.h"
#include "model/fetchpolicy.h"
#include "model/hostaction.h"
#include "models/retryselection.h"

#include <QHash>
#include <QList>
#include <QMainWindow>
#include <QPointer>
#include <QSet>
#include <QTimer>

#include <functional>
#include <memory>
#include <optional>
#include <vector>

class QAction;
class QLabel;
class QMenu;
class QMessageBox;
class QPushButton;
class QSplitter;
class QStackedWidget;
class QTabWidget;
class QTableView;
class QTextBrowser;

namespace crawl {
class CrawlEngine;
struct CrawlResult;
} // namespace crawl

namespace ui {

class ChartsPanel;
class ClusterAttachDialog;
class ClusterSession;
class ClusterWorkersPage;
class CrawlFileCopier;
class CrawlFileLoader;
class CrawlFileSummaryReader;
class CrawlFilesDialog;
struct CrawlFileInfo;
class CrawlStatusBar;
class CrawlRulesEditor;
class CsvExporter;
class HostsModel;
class HostsPage;
class LimitsPanel;
class ListLoader;
class LoadSummaryBanner;
class EmptyState;
class EventsPage;
class MainActions;
class RecentMenu;
class ThemeMenu;
class ResultsModel;
class ResultsFeed;
class ResultsPage;

// The crawl monitor: load a list, start it, watch hosts, charts, failures and results live, steer the
// limits while it runs, export CSV. The engine lives in this (GUI) thread as a façade over its own
// threads; everything it reports arrives as batched values by signal.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    void loadFile(const QString &path);
    void loadText(const QByteArray &utf8, const QString &displayName);
    void startCrawl();
    void pauseOrResume();
    void stopCrawl(); // asks first while running (unless confirmations are off)
    // Queues failures again. A row keeps its previous result until the new attempt finishes; a retry
    // that is cancelled (Stop, Skip) leaves the previous result in place.
    void retryFailed(RetryScope scope);
    bool exportCsv(const QString &path, bool failuresOnly); // false if an export is already running
    // The rows of the Failures or Results table on show (its filter, its order); the Results table when
    // the Hosts tab is on show. False if there is nothing to export or an export is running.
    bool exportCurrentView(const QString &path);
    QTextBrowser *failureDetails() const;

    // Crawl files: every crawl started here is journaled in crawlsFolder() (a file per crawl, named
    // after the list and the time), so a crash loses nothing committed and any crawl can be reopened.
    QString crawlsFolder() const { return m_crawlsFolder; }
    void setCrawlsFolder(const QString &folder);      // for tests; the default is under the data folder
    QString crawlFile() const { return m_crawlFile; } // the crawl shown (live or opened); empty if none
    // Shows a crawl file's committed rows (read a page at a time on a worker thread); an unfinished one
    // is offered for Resume once loaded (unless confirmations are off).
    void openCrawl(const QString &path);
    // Continues an unfinished crawl file where it stopped: its committed rows come back first, then the
    // rest is fetched; a URL whose outcome was committed is never fetched again.
    bool resumeCrawl(const QString &path);
    // A consistent copy of the crawl shown, made while it runs; reported by crawlSaved.
    void saveCrawlAs(const QString &target);
    void cancelCrawlSave(); // abandons the Save Crawl As under way (no file is left; a replaced one is kept)
    // How Save As copies: pages per step and the least time between steps (a test hook: 0 by default).
    void setCrawlCopyStep(int pagesPerStep, int pauseMs);
    // At start: the newest crawl this user's window was running when its process died (not stopped,
    // not held by a live process) is offered: Resume / Open / Discard. Null when there is none.
    QMessageBox *offerInterruptedCrawl();
    CrawlFilesDialog *showCrawlFiles(); // File > Manage Crawls…

    crawl::CrawlEngine *engine() const { return m_engine; }
    // A host's own limits (the hosts table's context menu); nullopt returns it to the global limits.
    void setHostOverride(const QString &hostKey, const std::optional<crawl::HostOverride> &value);
    // The Hosts tab's Pause / Resume / Skip / Resume Tripped Host: on the local crawl, or for every worker
    // of the shared crawl this window is attached to.
    void applyHostAction(const QString &hostKey, crawl::HostAction action);
    // Sets the limits panel (and the engine) as if the user had moved the controls; the settings without
    // a control in the panel go to the engine as given.
    void setLimits(const crawl::CrawlLimits &limits, const crawl::FetchPolicy &policy);

    void showStatusMessage(const QString &text, int timeoutMs = 10'000);
    // Labels shown beside host addresses in the Hosts table and the charts (the demo's personalities).
    void setHostLabels(const QHash<QString, QString> &labels);
    // The empty window offers "Run the Demo" when the application can run it.
    void setDemoLauncher(std::function<void()> launch);
    // Sets the panel's limits (and the engine's) to the defaults and saves them, as the panel's Reset does.
    void resetLimits();

    // For tests and automation: no modal questions (stop and close proceed as if confirmed).
    void setConfirmationsEnabled(bool on);

    QTableView *hostsView() const;
    QTableView *failuresView() const;
    QTableView *resultsView() const;
    HostsPage *hostsPage() const { return m_hostsPage; }
    EventsPage *eventsPage() const { return m_eventsPage; }
    ThemeMenu *themeMenu() const { return m_themeMenu; }
    RecentMenu *recentMenu() const { return m_recentMenu; }
    RecentMenu *recentCrawlsMenu() const { return m_recentCrawls; }
    ResultsPage *failuresPage() const { return m_failuresPage; }
    ResultsPage *resultsPage() const { return m_resultsPage; }
    LimitsPanel *limitsPanel() const { return m_limits; }
    ChartsPanel *chartsPanel() const { return m_charts; }
    ResultsModel *resultsModel() const { return m_results; }
    HostsModel *hostsModel() const { return m_hosts; }
    QTabWidget *tabs() const { return m_tabs; }
    CrawlRulesEditor *crawlRules() const { return m_rules; } // robots.txt, scope, acceptance

    // File > Attach to Cluster…: the window watches and steers a shared crawl (docs/cluster.md) instead
    // of running one; Start is off until Detach.
    ClusterAttachDialog *showAttachToCluster();
    void attachToCluster(const crawl::RedisUrl &url, const QString &crawlName);
    void detachFromCluster();
    ClusterSession *clusterSession() const { return m_cluster; }
    ClusterWorkersPage *workersPage() const { return m_workersPage; }

Q_SIGNALS:
    void listLoaded(const crawl::UrlListScan &scan);
    void exportFinished(bool ok, const QString &path, qint64 rows, const QString &error);
    void crawlFileOpened(const QString &path, qint64 rows, bool unfinished);
    void crawlSaved(bool ok, const QString &target, const QString &error);

protected:
    void closeEvent(QCloseEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    // Why Save As may not replace `target`: a crawl file another live window (or process) writes to.
    QString liveCrawlAt(const QString &target) const;
    void showTextsProblem();
    void connectActions();
    void createCentralWidgets();
    void createViewMenu();

    void openFileDialog();
    void pasteFromClipboard();
    enum class ExportKind { All, Failures, CurrentView };
    void exportDialog(ExportKind kind);
    bool startExport(const QString &path, std::vector<int> rows, qint64 count);
    ResultsPage *currentResultsPage() const;
    void showAbout();
    void loadSource(const crawl::InputSource &source, const QString &displayName);

    void onResults(const QList<crawl::CrawlResult> &results);
    void flushResults();
    void applyResults(const QList<crawl::CrawlResult> &results); // one chunk of the feed, into the views
    void onSnapshot(const crawl::CrawlSnapshot &snapshot);
    void onFinished(const crawl::CrawlSummary &summary);
    void onListLoaded(const crawl::InputSource &source, const crawl::UrlListScan &scan);
    void onExportFinished(bool ok, const QString &path, qint64 rows, const QString &error);
    void onBreakerEvent(const crawl::BreakerEvent &event);
    void showCrawlViews(); // instead of the empty state
    void clearCrawlViews();
    void createCrawlFileActions();
    void createClusterActions();
    void onClusterAttached(bool attached);
    void openCrawlDialog();
    void saveCrawlDialog();
    void onCrawlFileLoaded(const CrawlFileInfo &info);
    void markCrawlFile(const QString &state);
    // Why resuming this crawl file would read other lines than it started with (empty: it would not).
    QString listChangeBeforeResume(const QString &path) const;

    void applyLimits();
    void applyFetchPolicy();
    void saveLimits();
    void updateActions();
    void updateStatus(const crawl::CrawlSnapshot &snapshot);

    void readSettings();
    void writeSettings() const;

    crawl::CrawlEngine *m_engine;
    ResultsModel *m_results;
    HostsModel *m_hosts;
    ListLoader *m_loader;
    CsvExporter *m_exporter;
    MainActions *m_actions;
    CrawlRulesEditor *m_rules;

    LimitsPanel *m_limits = nullptr;
    ChartsPanel *m_charts = nullptr;
    QSplitter *m_mainSplitter = nullptr;
    QTabWidget *m_tabs = nullptr;
    HostsPage *m_hostsPage = nullptr;
    ResultsPage *m_failuresPage = nullptr;
    ResultsPage *m_resultsPage = nullptr;
    LoadSummaryBanner *m_banner = nullptr;
    CrawlStatusBar *m_status = nullptr;
    EventsPage *m_eventsPage = nullptr;
    ThemeMenu *m_themeMenu = nullptr;
    RecentMenu *m_recentMenu = nullptr;
    EmptyState *m_emptyState = nullptr;
    QStackedWidget *m_centralStack = nullptr;
    QMetaObject::Connection m_demoConnection;
    CrawlFileLoader *m_crawlLoader;
    CrawlFileCopier *m_crawlCopier; // Save As of an opened crawl (a live one is copied by the engine)
    CrawlFileSummaryReader *m_crawlSummary = nullptr; // an opened crawl's hosts and summary
    QLabel *m_textsProblem = nullptr;                 // in the status bar while the results' files fail
    QString m_textsProblemShown;
    QPushButton *m_cancelSave = nullptr; // in the status bar while a crawl is copied
    QString m_savingCrawlTo;             // that copy's target; empty when none runs
    bool m_saveCancelled = false;        // the user cancelled that copy
    RecentMenu *m_recentCrawls = nullptr;
    QAction *m_openCrawl = nullptr;
    QAction *m_saveCrawl = nullptr;
    QAction *m_manageCrawls = nullptr;
    QPointer<QMessageBox> m_resumeOffer;
    QPointer<CrawlFilesDialog> m_crawlFilesDialog;
    ClusterSession *m_cluster = nullptr;
    ClusterWorkersPage *m_workersPage = nullptr;
    QPointer<ClusterAttachDialog> m_attachDialog;
    QAction *m_attachCluster = nullptr;
    QAction *m_detachCluster = nullptr;
    bool m_clusterLimitsShown = false; // the panel shows the shared limits (set once per attach)
    QString m_crawlsFolder;
    QString m_crawlFile;                // the crawl file shown
    bool m_crawlFileLive = false;       // the engine journals into m_crawlFile (else it was opened read-only)
    bool m_crawlFileUnfinished = false; // it has URLs left: Start resumes it

    std::optional<crawl::InputSource> m_input;
    QString m_inputName;
    QHash<QString, crawl::HostOverride> m_overrides;
    QHash<QString, crawl::HostOverride> m_localOverrides; // the window's own, kept while attached
    crawl::CrawlSnapshot m_lastSnapshot;
    bool m_confirm = true;
    bool m_closeAfterStop = false;
    bool m_limitsEdited = false; // by the user in this session: write them back
    bool m_forceClose = false;   // the crawl was asked to stop: close without asking again
    QTimer m_closeTimeout;
    ResultsFeed *m_feed; // engine results -> views, in slices that keep the window responsive
    // An opened crawl file read to its end whose rows are still going through m_feed: it is announced
    // once they are all in the views.
    std::unique_ptr<CrawlFileInfo> m_openedWaitingForRows;
    QSet<quint64> m_retrying; // ids re-queued by a retry whose new result has not arrived yet
};

} // namespace ui
