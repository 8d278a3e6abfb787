#pragma once

// What every fuzz target shares: an invariant check that stops the run the way libFuzzer records a
// crash (abort, so the input is kept), and a printable form of the input for the message.
#include <QByteArray>
#include <QString>

#include <cstdio>
#include <cstdlib>

namespace fuzz {

// Bytes as C-like escapes, so a failing input can be pasted into a regression test.
inline QByteArray escaped(const QByteArray &bytes) {
    QByteArray out;
    for (const char c : bytes) {
        const auto u = static_cast<unsigned char>(c);
        if (c == '\\' || c == '"')
            out += '\\' + QByteArray(1, c);
        else if (u >= 0x20 && u < 0x7f)
            out += c;
        else
            out += "\\x" + QByteArray::number(u, 16).rightJustified(2, '0');
    }
    return out;
}

inline QByteArray escaped(const QString &text) {
    return escaped(text.toUtf8());
}

[[noreturn]] inline void fail(const char *file, int line, const char *condition, const QByteArray &detail) {
    std::fprintf(stderr, "%s:%d: invariant failed: %s\n    %s\n", file, line, condition, detail.constData());
    std::abort();
}

} // namespace fuzz

// `detail` is a QByteArray (e.g. built with fuzz::escaped) printed under the failed condition.
#define FUZZ_CHECK(condition, detail)                                                                        \
    do {                                                                                                     \
        if (!(condition))                                                                                    \
            ::fuzz::fail(__FILE__, __LINE__, #condition, (detail));                                          \
    } while (false)
