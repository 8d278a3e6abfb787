#pragma once

#include <QDate>
#include <QString>

namespace ui {

// The file name an export suggests: the list's name and the date, then what is exported, e.g.
// "shop-urls-2026-11-30-failures.csv". Characters that file systems refuse become "-"; a list without
// a usable name (pasted URLs) gives "crawl-…".
QString exportFileName(const QString &listName, const QString &what, const QDate &date);

} // namespace ui
