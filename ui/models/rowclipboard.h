#pragma once

#include <QString>
#include <QStringList>

class QUrl;

namespace ui {

// Text for the clipboard from table rows: cells separated by tabs, one line per row. A cell's own tabs
// and line breaks (server-controlled error texts, titles) become spaces so that a pasted row stays one
// row in a spreadsheet.
QString tsvLine(const QStringList &cells);

// Only a well-formed http(s) URL with a host is handed to the desktop's browser: an input line can hold
// anything ("file:///etc/passwd", "javascript:…", a custom scheme that starts some program).
bool opensInBrowser(const QUrl &url);

} // namespace ui
