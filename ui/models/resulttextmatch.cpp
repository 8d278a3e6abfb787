#include "models/resulttextmatch.h"

#include "models/resultstore.h"

#include <algorithm>

namespace ui {

namespace {

bool isAscii(const QString &text) {
    return std::all_of(text.cbegin(), text.cend(), [](QChar c) { return c.unicode() < 0x80; });
}

inline char asciiLower(char c) {
    return c >= 'A' && c <= 'Z' ? char(c + ('a' - 'A')) : c;
}

// ASCII case-insensitive substring search; `needle` is lower-case and non-empty. Bytes >= 0x80 (UTF-8
// sequences) only ever match themselves, so an ASCII needle finds exactly its ASCII matches.
bool containsFolded(QByteArrayView hay, QByteArrayView needle) {
    const qsizetype n = needle.size();
    const char first = needle[0];
    for (qsizetype i = 0, last = hay.size() - n; i <= last; ++i) {
        if (asciiLower(hay[i]) != first)
            continue;
        qsizetype j = 1;
        while (j < n && asciiLower(hay[i + j]) == needle[j])
            ++j;
        if (j == n)
            return true;
    }
    return false;
}

} // namespace

ResultTextMatch::ResultTextMatch(const QString &text)
    : m_text(text.trimmed()) {
    if (!m_text.isEmpty() && isAscii(m_text))
        m_textLatin1 = m_text.toLatin1().toLower();
}

bool ResultTextMatch::matches(const ResultStore &store, int sourceRow) const {
    return m_text.isEmpty() || matches(store, store.row(sourceRow));
}

bool ResultTextMatch::matches(const ResultStore &store, const ResultRow &row) const {
    if (m_text.isEmpty())
        return true;
    const QByteArrayView url = store.urlUtf8(row);
    if (!m_textLatin1.isEmpty()) {
        if (containsFolded(url, QByteArrayView(m_textLatin1)))
            return true;
    } else if (QString::fromUtf8(url).contains(m_text, Qt::CaseInsensitive)) {
        return true;
    }
    // Hosts are interned: each distinct host is matched once, not once per row.
    const quint32 hostId = row.hostId;
    if (hostId >= m_stringMatches.size())
        m_stringMatches.resize(size_t(store.stringCount()), -1);
    qint8 &hostMatch = m_stringMatches[hostId];
    if (hostMatch < 0)
        hostMatch = store.string(hostId).contains(m_text, Qt::CaseInsensitive) ? 1 : 0;
    if (hostMatch)
        return true;
    return row.extraIndex >= 0 && store.error(row).contains(m_text, Qt::CaseInsensitive);
}

} // namespace ui
