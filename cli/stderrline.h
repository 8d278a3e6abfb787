#pragma once

#include <QString>

namespace crawl {

// One line to standard error, flushed at once (progress and errors must not wait behind the CSV).
void printStderrLine(const QString &line);

} // namespace crawl
