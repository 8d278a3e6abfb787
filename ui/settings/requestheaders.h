#pragma once

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QString>

namespace ui {

// The request settings typed in the window, checked as the command line checks --header and
// --user-agent: a line break in a value could end the header and start another (header injection),
// so no control characters; a header name is an RFC 9110 token.
struct RequestHeadersParse {
    QList<QPair<QByteArray, QByteArray>> headers;
    QString error; // empty when every line is valid; else names the first bad line
};

// One "Name: value" per line; blank lines and lines starting with '#' are skipped.
RequestHeadersParse parseRequestHeaders(const QString &text);
QString headersText(const QList<QPair<QByteArray, QByteArray>> &headers); // back to lines
// Empty when `userAgent` may be sent; else why not.
QString userAgentError(const QString &userAgent);
bool isHeaderName(const QString &name);

} // namespace ui
