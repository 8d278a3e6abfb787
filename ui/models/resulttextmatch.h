#pragma once

#include <QByteArray>
#include <QString>

#include <vector>

namespace ui {

class ResultStore;
struct ResultRow;

// The results tables' text filter as a value: does a row's URL, host or error contain the text
// (case-insensitive)? Kept apart from the filter model so a new text can be evaluated over the rows in
// slices (IncrementalFilter) while the table still shows the old one.
class ResultTextMatch {
public:
    ResultTextMatch() = default;
    explicit ResultTextMatch(const QString &text); // trimmed here

    const QString &text() const { return m_text; }
    bool isEmpty() const { return m_text.isEmpty(); }
    bool matches(const ResultStore &store, int sourceRow) const;
    bool matches(const ResultStore &store, const ResultRow &row) const; // row: the store's, read already
    // A cleared store interns its texts afresh: an id may name another host now.
    void forgetInternedStrings() const { m_stringMatches.clear(); }

private:
    QString m_text;
    QByteArray m_textLatin1; // lower-cased, set when the text is pure ASCII: byte search on UTF-8 URLs
    mutable std::vector<qint8> m_stringMatches; // per interned host: -1 unknown, 0/1
};

} // namespace ui
