#pragma once

#include <QStringList>

namespace ui {

// Whether the flags typed on the command line (named as there: "exclude", "robots", …) include one of
// robots.txt, scope or acceptance (issue 13): then the window crawls with the command line's rules for
// this session instead of its saved Crawl Rules.
bool namesQualityFlag(const QStringList &flags);

} // namespace ui
