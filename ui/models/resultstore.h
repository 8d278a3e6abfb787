#pragma once

#include "model/crawlresult.h"
#include "models/resultrow.h"
#include "models/rowarena.h"
#include "models/textarena.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QHash>
#include <QString>
#include <QStringList>

#include <limits>
#include <memory>
#include <vector>

namespace ui {

// Compact, append-mostly storage for up to millions of CrawlResults.
//
// A CrawlResult is ~250 bytes of QStrings and QDateTimes; a million of them would cost far more than the
// crawl itself. Here each result is one fixed-size row (numbers, interned host and content type ids) in a
// RowArena plus its URL and title as UTF-8 in a TextArena; once a spill directory is set both are written
// out to unnamed files, so they cost disk, not RAM. The rarely present texts (final URL when it differs,
// error, redirect chain, warning) follow the title, their lengths in a side table referenced only by the
// rows that need them.
class ResultStore {
public:
    using Row = ResultRow;
    static constexpr quint32 kWide = 0xffffffffu;
    static constexpr qint64 kNoTime = ResultRow::kNoTime;
    static constexpr qint32 kNoDelta = ResultRow::kNoDelta;
    static constexpr quint32 kFinalIsUrl = 1;
    static constexpr quint32 kStartOnly = 2;     // finishedAtMs holds the start (no finish time known)
    static constexpr quint32 kAcceptedShift = 2; // flags bits 2-3: crawl::CrawlResult::Accepted

    qsizetype size() const { return m_rows.size(); }
    bool isEmpty() const { return m_rows.size() == 0; }
    void clear();
    void reserve(qsizetype rows);

    void append(const crawl::CrawlResult &result);
    void replace(qsizetype i, const crawl::CrawlResult &result);

    // A copy: the row may be on disk (RowArena), read back through a small cache.
    Row row(qsizetype i) const { return m_rows.at(i); }
    crawl::CrawlResult result(qsizetype i) const; // the full value, rebuilt
    quint64 id(qsizetype i) const {
        const quint32 id = row(i).id32;
        return id != kWide ? id : m_wideIds.value(i);
    }
    qint64 lineNumber(qsizetype i) const { return lineNumber(i, row(i)); }
    qint64 lineNumber(qsizetype i, const Row &row) const { // row: row(i), read already
        return row.line32 != kWide ? row.line32 : m_wideLines.value(i);
    }

    // Cheap per-field accessors for views and filters. A UTF-8 view stays valid while the texts are pinned,
    // otherwise only until a few other spilled rows have been read (TextArena::view).
    QByteArrayView urlUtf8(qsizetype i) const { return urlUtf8(row(i)); }
    QByteArrayView urlUtf8(const Row &row) const; // row: row(i), read already
    QString url(qsizetype i) const;
    const QString &host(qsizetype i) const { return m_strings[row(i).hostId]; }
    const QString &contentType(qsizetype i) const { return m_strings[row(i).contentTypeId]; }
    crawl::Outcome outcome(qsizetype i) const { return crawl::Outcome(row(i).outcome); }
    crawl::CrawlResult::Accepted accepted(qsizetype i) const { return accepted(row(i)); }
    static crawl::CrawlResult::Accepted accepted(const Row &row) {
        return crawl::CrawlResult::Accepted((row.flags >> kAcceptedShift) & 3);
    }
    const QString &rejectReason(qsizetype i) const { return m_strings[row(i).rejectReasonId]; }
    QByteArrayView titleUtf8(qsizetype i) const;
    // The URL through a sweep's own chunk buffer (TextArena::view with a SweepBuffer).
    QByteArrayView urlUtf8(qsizetype i, TextArena::SweepBuffer *buffer) const;
    // The same texts copied out with TextArena::read (no whole chunk read back for one text).
    bool readUrlUtf8(qsizetype i, QByteArray *into) const;
    bool readTitleUtf8(qsizetype i, QByteArray *into) const;
    QString title(qsizetype i) const;
    // The interned texts (hosts, content types); id 0 is the empty string.
    qsizetype stringCount() const { return qsizetype(m_strings.size()); }
    const QString &string(quint32 id) const { return m_strings[id]; }
    QString finalUrl(qsizetype i) const;
    QString error(qsizetype i) const { return error(row(i)); }
    QString error(const Row &row) const;
    QStringList redirectChain(qsizetype i) const;
    QString warning(qsizetype i) const;

    // Rows, URLs and titles go to unnamed files in `directory` (see RowArena, TextArena); false: they stay
    // in memory.
    bool setSpillDirectory(const QString &directory);
    const TextArena &texts() const { return m_texts; }
    const RowArena &rows() const { return m_rows; }
    // Why rows or texts stay in memory (or could not be read back); empty when all is well.
    QString spillError() const;
    // Rows and texts that came back blank because their file could not be read: whoever copies them out
    // (CSV export) must not pass such blanks off as the data.
    qint64 unreadableValues() const { return m_rows.unreadableRows() + m_texts.unreadableTexts(); }
    // Every URL and title in memory while pinned (a count): what a sort by URL or title needs.
    void pinTexts() const { m_texts.pin(); }
    void unpinTexts() const { m_texts.unpin(); }
    // Every row in memory while pinned (a count): what a sort that compares random rows' texts needs.
    void pinRows() const { m_rows.pin(); }
    void unpinRows() const { m_rows.unpin(); }
    // A sort by a number (or an interned text) compares random rows too, but by one word per row: while
    // held (a count per column) the store keeps that word of every row in memory, up to date as rows are
    // appended and replaced (8 bytes a row, not the row's 64). `keyOf` computes it from row i of the store.
    using SortKeyFunction = quint64 (*)(const ResultStore &store, int column, qsizetype i, const Row &row);
    void holdSortKeys(int column, SortKeyFunction keyOf) const;
    void releaseSortKeys(int column) const;
    // The held keys by row, nullptr unless `column`'s are held (valid while they are).
    const std::vector<quint64> *sortKeys(int column) const;

    // Where the memory goes (for the window benchmark and the scale test), approximate heap bytes.
    struct MemoryUse {
        qint64 rows = 0;     // the fixed-size rows in memory (chunks, read cache, replaced rows)
        qint64 texts = 0;    // URLs and titles held in memory (chunks and read cache)
        qint64 extras = 0;   // final URL, error, redirect chain, warning
        qint64 interned = 0; // hosts, content types, reject reasons and their hash
        qint64 sortKeys = 0; // the words held for sorts by a number (holdSortKeys)
        qint64 spilled = 0;  // row, URL and title bytes in the files, not in memory
        qint64 total() const { return rows + texts + extras + interned + sortKeys; }
    };
    MemoryUse memoryUse() const;
    qint64 memoryBytes() const { return memoryUse().total(); }

private:
    // The UTF-8 lengths of the rarely present texts, which follow the title in the text arena.
    struct Extra {
        quint32 finalUrlLength = 0; // only when it differs from the URL
        quint32 errorLength = 0;
        quint32 chainLength = 0; // the hops joined by '\n', plus one; 0: no chain
        quint32 warningLength = 0;
    };
    enum class ExtraText { FinalUrl, Error, RedirectChain, Warning };
    QString extraText(const Row &row, ExtraText which) const;
    QString urlOf(const Row &row) const;
    QString finalUrlOf(const Row &row) const;
    QStringList redirectChainOf(const Row &row) const;
    Row makeRow(qsizetype i, const crawl::CrawlResult &result);
    quint64 arenaRef(const Row &row) const; // the TextArena reference of the row's URL
    quint32 intern(const QString &text);

    // Rows (and texts) live in fixed-size chunks: growing never copies what is stored (no stall
    // when a million-row vector would reallocate), and full chunks go to disk once a spill directory is set.
    mutable RowArena m_rows;   // mutable: sorts pin it
    mutable TextArena m_texts; // mutable: reading a spilled text fills its cache; sorts pin it
    struct HeldSortKeys {
        int column = -1;
        int holds = 0;
        SortKeyFunction keyOf = nullptr;
        std::vector<quint64> keys; // by row
    };
    void updateSortKeys(qsizetype i, const Row &row);
    std::vector<Extra> m_extras;
    // Each entry stays put while held (sorters read it by address). A copy of the store (a snapshot for
    // the CSV export) is sorted by nobody: it holds none.
    struct HeldSortKeysList : std::vector<std::unique_ptr<HeldSortKeys>> {
        HeldSortKeysList() = default;
        HeldSortKeysList(const HeldSortKeysList &)
            : std::vector<std::unique_ptr<HeldSortKeys>>() {}
        HeldSortKeysList &operator=(const HeldSortKeysList &) = delete;
    };
    mutable HeldSortKeysList m_sortKeys;       // mutable: sorts hold them
    std::vector<QString> m_strings{QString()}; // id 0 is the empty string
    QHash<QString, quint32> m_stringIds;
    QHash<qsizetype, quint64> m_wideIds;  // row -> id when it does not fit in 32 bits
    QHash<qsizetype, qint64> m_wideLines; // row -> line number when it does not fit in 32 bits
};

} // namespace ui
