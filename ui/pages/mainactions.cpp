#include "pages/mainactions.h"

#include "pages/actionicon.h"

#include <QAction>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QToolBar>
#include <QToolButton>

namespace ui {

MainActions::MainActions(QMainWindow *window)
    : QObject(window) {
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
    open = make(tr("&Open List…"), QStringLiteral("document-open"), QKeySequence::Open,
                tr("Open a URL list: one URL per line (.txt) or a CSV with a url column"));
    paste =
        make(tr("&Paste URLs"), QStringLiteral("edit-paste"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_V),
             tr("Use the URLs on the clipboard as the list"));
    start = make(tr("&Start"), QStringLiteral("media-playback-start"), QKeySequence(Qt::Key_F5),
                 tr("Start crawling the loaded list"));
    pause = make(tr("&Pause"), QStringLiteral("media-playback-pause"), QKeySequence(Qt::Key_F6),
                 tr("Pause: no new request starts, requests in flight finish"));
    stop = make(tr("S&top"), QStringLiteral("media-playback-stop"), QKeySequence(Qt::SHIFT | Qt::Key_F5),
                tr("Stop the crawl: requests in flight are cancelled, unfinished URLs end as cancelled"));
    retry = make(tr("&Retry Failed"), QStringLiteral("view-refresh"), QKeySequence(Qt::CTRL | Qt::Key_R),
                 tr("Queue the transient failures again: timeouts, network errors, 408/429/5xx and cancelled "
                    "URLs. Permanent answers (403, 404, 410, redirect limits) stay as they are"));
    retry->setObjectName(QStringLiteral("retryTransient"));
    retryAll = make(tr("Retry &All Failures"), QStringLiteral("view-refresh"),
                    QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R),
                    tr("Queue every failure again, permanent ones (403, 404, 410, …) included"));
    retryAll->setObjectName(QStringLiteral("retryAll"));
    retrySelected = make(tr("Retry &Selected Failures"), QStringLiteral("view-refresh"), QKeySequence(),
                         tr("Queue the failures selected in the Failures table again"));
    retrySelected->setObjectName(QStringLiteral("retrySelected"));
    exportView = make(tr("&Export Current View…"), QStringLiteral("document-save-as"),
                      QKeySequence(Qt::CTRL | Qt::Key_E),
                      tr("Write the rows of the Failures or Results table on show, filtered and sorted as "
                         "shown, as CSV (the same columns as the command line)"));
    exportView->setObjectName(QStringLiteral("exportView"));
    exportAll = make(tr("Export &All…"), QStringLiteral("document-save-as"),
                     QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E),
                     tr("Write every result as CSV, whatever the tables show"));
    exportAll->setObjectName(QStringLiteral("exportAll"));
    exportFailures = make(tr("Export &Failures…"), QStringLiteral("document-save-as"), QKeySequence(),
                          tr("Write every failed URL as CSV"));
    exportFailures->setObjectName(QStringLiteral("exportFailures"));
    quit = make(tr("&Quit"), QString(), QKeySequence::Quit, tr("Quit Crawlscope"));
    about = make(tr("&About Crawlscope"), QStringLiteral("help-about"), QKeySequence(Qt::Key_F1),
                 tr("Version and credits"));
}

void MainActions::addMenusAndToolBar(QMainWindow *window) {
    m_fileMenu = window->menuBar()->addMenu(tr("&File"));
    m_fileMenu->addAction(open);
    m_fileMenu->addAction(paste);
    m_fileMenu->addSeparator();
    m_fileMenu->addAction(exportView);
    m_fileMenu->addAction(exportAll);
    m_fileMenu->addAction(exportFailures);
    m_fileMenu->addSeparator();
    m_fileMenu->addAction(quit);
    QMenu *crawlMenu = window->menuBar()->addMenu(tr("&Crawl"));
    crawlMenu->addAction(start);
    crawlMenu->addAction(pause);
    crawlMenu->addAction(stop);
    crawlMenu->addSeparator();
    crawlMenu->addAction(retry);
    crawlMenu->addAction(retryAll);
    crawlMenu->addAction(retrySelected);

    auto *toolbar = window->addToolBar(tr("Main"));
    toolbar->setObjectName(QStringLiteral("mainToolBar"));
    toolbar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    toolbar->setIconSize(QSize(20, 20));
    toolbar->addAction(open);
    toolbar->addAction(paste);
    toolbar->addSeparator();
    toolbar->addAction(start);
    toolbar->addAction(pause);
    toolbar->addAction(stop);
    toolbar->addSeparator();
    toolbar->addAction(retry);
    // The toolbar button retries transient failures; its arrow offers the other choices.
    if (auto *retryButton = qobject_cast<QToolButton *>(toolbar->widgetForAction(retry))) {
        auto *retryMenu = new QMenu(retryButton);
        retryMenu->addAction(retry);
        retryMenu->addAction(retryAll);
        retryMenu->addAction(retrySelected);
        retryButton->setMenu(retryMenu);
        retryButton->setPopupMode(QToolButton::MenuButtonPopup);
    }
    toolbar->addAction(exportView);
    if (auto *exportButton = qobject_cast<QToolButton *>(toolbar->widgetForAction(exportView))) {
        auto *exportMenu = new QMenu(exportButton);
        exportMenu->addAction(exportView);
        exportMenu->addAction(exportAll);
        exportMenu->addAction(exportFailures);
        exportButton->setMenu(exportMenu);
        exportButton->setPopupMode(QToolButton::MenuButtonPopup);
    }
}

void MainActions::setPauseShowsResume(bool paused) {
    if (paused == m_pauseShowsResume) // called for every snapshot: touch the action only on change
        return;
    m_pauseShowsResume = paused;
    pause->setText(paused ? tr("Res&ume") : tr("&Pause"));
    pause->setIcon(
        actionIcon(paused ? QStringLiteral("media-playback-start") : QStringLiteral("media-playback-pause")));
}

} // namespace ui
