#pragma once

#include <QDateTime>
#include <QString>

#include <functional>

namespace ui {

// Where the window journals its crawls and what it calls each file: readable in a file manager and in
// Manage Crawls ("urls-2026-11-30-1142.crawl"), unique, and safe whatever the list was called.
namespace crawlfilename {

QString defaultFolder(); // $CRAWLSCOPE_CRAWLS_DIR if set, else <AppDataLocation>/crawls
// "<list base name>-<yyyy-MM-dd-HHmm>.crawl"; a name made only of unsafe characters becomes "crawl".
QString forList(const QString &listName, const QDateTime &startedAt);
// forList() in `folder`, with "-2", "-3", ... before the suffix while `taken` says the name is used.
QString uniquePath(const QString &folder, const QString &listName, const QDateTime &startedAt,
                   const std::function<bool(const QString &)> &taken);

} // namespace crawlfilename

} // namespace ui
