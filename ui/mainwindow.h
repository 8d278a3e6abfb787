#pragma once

#include "input/inputsource.h"
#include "input/urllistreader.h"
#include "model/crawllimits.h"
#include "model/crawlresult.h"
#include "model/crawlsnapshot.h"
#include "model/fetchpolicy.h"
#include "models/retryselection.h"
#include "status/throughputmeter.h"

#include <QHash>
#include <QList>
#include <QMainWindow>
#include <QSet>
#include <QTimer>

#include <optional>
#include <vector>

class QAction;
class QFrame;
class QLabel;
class QLineEdit;
class QProgressBar;
class QSortFilterProxyModel;
class QSplitter;
class QTabWidget;
class QTableView;
class QTextBrowser;

namespace crawl {
class CrawlEngine;
struct CrawlResult;
} // namespace crawl

namespace ui {

class ChartsPanel;
class CsvExporter;
class HostsModel;
class LimitsPanel;
class ListLoader;
class ResultFilterSortModel;
class ResultsModel;

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
    QTextBrowser *failureDetails() const { return m_failureDetails; }

    crawl::CrawlEngine *engine() const { return m_engine; }
    // A host's own limits (the hosts table's context menu); nullopt returns it to the global limits.
    void setHostOverride(const QString &hostKey, const std::optional<crawl::HostOverride> &value);
    // Sets the limits panel (and the engine) as if the user had moved the controls; the settings without
    // a control in the panel go to the engine as given.
    void setLimits(const crawl::CrawlLimits &limits, const crawl::FetchPolicy &policy);

    void showStatusMessage(const QString &text, int timeoutMs = 10'000);
    // Sets the panel's limits (and the engine's) to the defaults and saves them, as the panel's Reset does.
    void resetLimits();

    // For tests and automation: no modal questions (stop and close proceed as if confirmed).
    void setConfirmationsEnabled(bool on) { m_confirm = on; }

    QTableView *hostsView() const { return m_hostsView; }
    QTableView *failuresView() const { return m_failuresView; }
    QTableView *resultsView() const { return m_resultsView; }
    LimitsPanel *limitsPanel() const { return m_limits; }
    ChartsPanel *chartsPanel() const { return m_charts; }
    ResultsModel *resultsModel() const { return m_results; }
    HostsModel *hostsModel() const { return m_hosts; }
    QTabWidget *tabs() const { return m_tabs; }

Q_SIGNALS:
    void listLoaded(const crawl::UrlListScan &scan);
    void exportFinished(bool ok, const QString &path, qint64 rows, const QString &error);

protected:
    void closeEvent(QCloseEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    void createActions();
    void createCentralWidgets();
    void createStatusBar();
    QTableView *makeTable(QWidget *parent);
    QTableView *makeResultsTable(ResultFilterSortModel *model, const QString &objectName);
    QWidget *makeFilterBar(ResultFilterSortModel *model, bool failures, QLineEdit **edit);

    void openFileDialog();
    void pasteFromClipboard();
    enum class ExportKind { All, Failures, CurrentView };
    void exportDialog(ExportKind kind);
    bool startExport(const QString &path, std::vector<int> rows, qint64 count);
    QTableView *currentResultsTable() const;
    void addColumnMenu(QTableView *view);
    void showAbout();
    void loadSource(const crawl::InputSource &source, const QString &displayName);

    void onResults(const QList<crawl::CrawlResult> &results);
    void flushResults();
    void onSnapshot(const crawl::CrawlSnapshot &snapshot);
    void onFinished(const crawl::CrawlSummary &summary);
    void onListLoaded(const crawl::InputSource &source, const crawl::UrlListScan &scan);
    void onExportFinished(bool ok, const QString &path, qint64 rows, const QString &error);

    void applyLimits();
    void applyFetchPolicy();
    void saveLimits();
    void showHostsMenu(const QPoint &pos);
    void copySelectedUrls(QTableView *view);
    void showFailureDetails(bool force);
    void updateActions();
    void updateStatus(const crawl::CrawlSnapshot &snapshot);
    void clearSortIndicator(QTableView *view);

    void readSettings();
    void writeSettings() const;

    crawl::CrawlEngine *m_engine;
    ResultsModel *m_results;
    ResultFilterSortModel *m_resultsFilter;
    ResultFilterSortModel *m_failuresFilter;
    HostsModel *m_hosts;
    QSortFilterProxyModel *m_hostsSort;
    ListLoader *m_loader;
    CsvExporter *m_exporter;

    LimitsPanel *m_limits = nullptr;
    ChartsPanel *m_charts = nullptr;
    QSplitter *m_mainSplitter = nullptr;
    QSplitter *m_failuresSplitter = nullptr;
    QTabWidget *m_tabs = nullptr;
    QTableView *m_hostsView = nullptr;
    QTableView *m_failuresView = nullptr;
    QTableView *m_resultsView = nullptr;
    QTextBrowser *m_failureDetails = nullptr;
    QLineEdit *m_failuresFilterEdit = nullptr;
    QLineEdit *m_resultsFilterEdit = nullptr;
    QFrame *m_banner = nullptr;
    QLabel *m_bannerText = nullptr;

    QLabel *m_stateLabel = nullptr;
    QProgressBar *m_progress = nullptr;
    QLabel *m_rateLabel = nullptr;
    QLabel *m_inFlightLabel = nullptr;
    QLabel *m_failuresLabel = nullptr;
    QLabel *m_elapsedLabel = nullptr;
    QLabel *m_etaLabel = nullptr;
    QProgressBar *m_taskProgress = nullptr;

    QAction *m_openAction = nullptr;
    QAction *m_pasteAction = nullptr;
    QAction *m_startAction = nullptr;
    QAction *m_pauseAction = nullptr;
    QAction *m_stopAction = nullptr;
    QAction *m_retryAction = nullptr; // transient failures
    QAction *m_retryAllAction = nullptr;
    QAction *m_retrySelectedAction = nullptr;
    QAction *m_exportViewAction = nullptr;
    QAction *m_exportAction = nullptr; // all results
    QAction *m_exportFailuresAction = nullptr;
    QAction *m_aboutAction = nullptr;

    std::optional<crawl::InputSource> m_input;
    QString m_inputName;
    QHash<QString, crawl::HostOverride> m_overrides;
    crawl::CrawlSnapshot m_lastSnapshot;
    bool m_confirm = true;
    bool m_closeAfterStop = false;
    bool m_limitsEdited = false; // by the user in this session: write them back
    bool m_pauseShowsResume = false;
    bool m_forceClose = false; // the crawl was asked to stop: close without asking again
    QTimer m_closeTimeout;
    QTimer m_resultsFlush;
    QList<crawl::CrawlResult> m_pendingResults;
    QSet<quint64> m_retrying;
    int m_detailsSourceRow = -1;  // the results row the failure details show
    ThroughputMeter m_throughput; // ids re-queued by a retry whose new result has not arrived yet
};

} // namespace ui
