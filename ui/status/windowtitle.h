#pragma once

#include "model/crawlsnapshot.h"

#include <QString>

namespace ui {

// "42% — list.txt — Crawlscope" while a crawl of a known size runs (or is paused), so the progress
// shows in the task bar; "list.txt — Crawlscope" otherwise; "Crawlscope" before any list.
QString crawlWindowTitle(const QString &listName, const crawl::CrawlSnapshot &snapshot);

} // namespace ui
