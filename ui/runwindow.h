#pragma once

#include "model/crawllimits.h"
#include "model/fetchpolicy.h"

#include <QByteArray>
#include <QString>

#include <optional>

namespace ui {

// How the window starts: empty, with a list opened, or crawling a list it is handed (the demo).
struct WindowStart {
    // A list handed over to crawl at once, with the limits to crawl it with unless the user has saved
    // limits of their own (which are kept).
    struct Crawl {
        QByteArray list; // UTF-8, as a list file holds it
        QString name;    // what the window calls the list
        crawl::CrawlLimits limits;
        crawl::FetchPolicy policy;
    };

    QString fileToOpen; // opened, not crawled
    std::optional<Crawl> crawl;
    // Shown as a warning over the empty window when what was asked for cannot be done.
    QString warningTitle;
    QString warning;
};

// The desktop entry point: names the application, shows the main window, starts it as `start` says and
// returns QApplication::exec(). The caller creates the QApplication first, so that whatever it starts
// for the window (a server the list points at) can be created after it and outlive the window.
int runWindow(const WindowStart &start);

} // namespace ui
