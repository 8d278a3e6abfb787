#include "stderrline.h"

#include <cstdio>

namespace crawl {

void printStderrLine(const QString &line) {
    const QByteArray bytes = line.toLocal8Bit() + '\n';
    std::fwrite(bytes.constData(), 1, size_t(bytes.size()), stderr);
    std::fflush(stderr);
}

} // namespace crawl
