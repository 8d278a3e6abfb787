#pragma once

#include "model/crawllimits.h"
#include "model/crawlquality.h"
#include "model/fetchpolicy.h"

#include <QByteArray>
#include <QHash>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>

namespace ui {

// How the window starts: empty, with a list opened, or crawling a list it is handed (the demo).
struct WindowStart {
    // A list handed over to crawl at once with its own limits (the demo's): they apply to this crawl
    // and are not written over the user's saved limits.
    struct Crawl {
        QByteArray list; // UTF-8, as a list file holds it
        QString name;    // what the window calls the list
        crawl::CrawlLimits limits;
        crawl::FetchPolicy policy;
        QHash<QString, QString> hostLabels; // "127.0.0.3:4242" -> "slow": shown beside the addresses
    };

    QString fileToOpen; // opened, not crawled
    std::optional<Crawl> crawl;
    // Starts the built-in demo on demand (the empty window's "Run the Demo"); nullopt if it cannot.
    std::function<std::optional<Crawl>()> demo;
    // Limit flags typed on the command line ("per-host", …) and their parsed values: they win over the
    // saved limits for this session (and are not saved). Ignored with `crawl`, whose limits include them.
    QStringList limitFlags;
    crawl::CrawlLimits flagLimits;
    crawl::FetchPolicy flagPolicy;
    // robots.txt, scope and acceptance flags typed on the command line: this session crawls with them
    // instead of the saved Crawl Rules (not saved; OK in the Crawl Rules dialog replaces them).
    std::optional<crawl::CrawlQuality> quality;
    // Shown as a warning over the empty window when what was asked for cannot be done.
    QString warningTitle;
    QString warning;
};

// The desktop entry point: names the application, shows the main window, starts it as `start` says and
// returns QApplication::exec(). The caller creates the QApplication first, so that whatever it starts
// for the window (a server the list points at) can be created after it and outlive the window.
int runWindow(const WindowStart &start);

class MainWindow;
// What runWindow() does to the shown window (apart from the event loop), for tests.
void applyWindowStart(MainWindow &window, const WindowStart &start);

} // namespace ui
