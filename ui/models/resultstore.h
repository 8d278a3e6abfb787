#pragma once

#include "model/crawlresult.h"
#include "models/textarena.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QHash>
#include <QString>
#include <QStringList>

#include <limits>
#include <vector>

namespace ui {

// Compact, append-mostly storage for up to millions of CrawlResults.
//
// A CrawlResult is ~250 bytes of QStrings and QDateTimes; a million of them would cost far more than the
// crawl itself. Here each result is one fixed-size row (numbers, interned host and content type ids)
// plus its URL and title as UTF-8 in a TextArena (written out to an unnamed file once a spill directory is
// set, so they cost disk, not RAM); the rarely present texts (final URL when it differs, error, redirect
// chain, warning) follow them there, their lengths in a side table referenced only by the rows that need
// them.
class ResultStore {
public:
    // 64 bytes. Times are epoch ms; the start is kept as its distance to the finish. The URL and the HTML
    // title (issue 13) follow each other in the text arena (textRef packs where and the URL's length); the
    // reject reason is interned (a crawl has few distinct ones). The id and the line number take 32 bits
    // each: a value that does not fit (not expected in a window) is kept in a side table (kWide).
    struct Row {
        qint64 finishedAtMs = kNoTime;
        quint64 textRef = 0;   // chunk (22 bits) | offset (18) | URL bytes (24); see textRef()
        qint64 bytes : 40 = 0; // clamped to +-2^39 (a body cap is far below)
        quint64 status : 16 = 0;
        quint64 redirects : 8 = 0;
        quint32 id32 = 0;   // kWide: in m_wideIds
        quint32 line32 = 0; // kWide: in m_wideLines
        qint32 startedBeforeFinishMs = kNoDelta;
        quint32 outcome : 4 = 0;
        quint32 flags : 4 = 0; // kFinalIsUrl, kStartOnly, the acceptance in bits 2-3
        quint32 attempts : 8 = 0;
        quint32 titleLength : 16 = 0; // UTF-8 bytes after the URL's in the arena
        quint32 hostId = 0;
        quint32 contentTypeId = 0;
        qint32 latencyMs = -1;
        qint32 ttfbMs = -1;
        qint32 extraIndex = -1;     // -1: no final URL/error/redirect chain worth storing
        quint32 rejectReasonId = 0; // interned; 0: no reason
        quint32 urlLength() const { return quint32(textRef & 0xffffff); }
    };
    static constexpr quint32 kWide = 0xffffffffu;
    static constexpr qint64 kNoTime = std::numeric_limits<qint64>::min();
    static constexpr qint32 kNoDelta = std::numeric_limits<qint32>::min();
    static constexpr quint32 kFinalIsUrl = 1;
    static constexpr quint32 kStartOnly = 2;     // finishedAtMs holds the start (no finish time known)
    static constexpr quint32 kAcceptedShift = 2; // flags bits 2-3: crawl::CrawlResult::Accepted

    qsizetype size() const { return m_size; }
    bool isEmpty() const { return m_size == 0; }
    void clear();
    void reserve(qsizetype rows);

    void append(const crawl::CrawlResult &result);
    void replace(qsizetype row, const crawl::CrawlResult &result);

    const Row &row(qsizetype i) const {
        return m_rows[size_t(i) >> kRowChunkBits][size_t(i) & kRowChunkMask];
    }
    crawl::CrawlResult result(qsizetype i) const; // the full value, rebuilt
    quint64 id(qsizetype i) const {
        const quint32 id = row(i).id32;
        return id != kWide ? id : m_wideIds.value(i);
    }
    qint64 lineNumber(qsizetype i) const {
        const quint32 line = row(i).line32;
        return line != kWide ? line : m_wideLines.value(i);
    }

    // Cheap per-field accessors for views and filters. A UTF-8 view stays valid while the texts are pinned,
    // otherwise only until a few other spilled rows have been read (TextArena::view).
    QByteArrayView urlUtf8(qsizetype i) const;
    QString url(qsizetype i) const;
    const QString &host(qsizetype i) const { return m_strings[row(i).hostId]; }
    const QString &contentType(qsizetype i) const { return m_strings[row(i).contentTypeId]; }
    crawl::Outcome outcome(qsizetype i) const { return crawl::Outcome(row(i).outcome); }
    crawl::CrawlResult::Accepted accepted(qsizetype i) const {
        return crawl::CrawlResult::Accepted((row(i).flags >> kAcceptedShift) & 3);
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
    QString error(qsizetype i) const;
    QStringList redirectChain(qsizetype i) const;
    QString warning(qsizetype i) const;

    // URLs and titles go to an unnamed file in `directory` (see TextArena); false: they stay in memory.
    bool setSpillDirectory(const QString &directory) { return m_texts.setSpillDirectory(directory); }
    const TextArena &texts() const { return m_texts; }
    // Every URL and title in memory while pinned (a count): what a sort by URL or title needs.
    void pinTexts() const { m_texts.pin(); }
    void unpinTexts() const { m_texts.unpin(); }

    // Where the memory goes (for the window benchmark and the scale test), approximate heap bytes.
    struct MemoryUse {
        qint64 rows = 0;     // the fixed-size rows
        qint64 texts = 0;    // URLs and titles held in memory (chunks and read cache)
        qint64 extras = 0;   // final URL, error, redirect chain, warning
        qint64 interned = 0; // hosts, content types, reject reasons and their hash
        qint64 spilled = 0;  // URL and title bytes in the file, not in memory
        qint64 total() const { return rows + texts + extras + interned; }
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
    QString extraText(qsizetype i, ExtraText which) const;
    Row makeRow(qsizetype i, const crawl::CrawlResult &result);
    quint64 arenaRef(const Row &row) const; // the TextArena reference of the row's URL
    quint32 intern(const QString &text);
    Row &mutableRow(qsizetype i) { return m_rows[size_t(i) >> kRowChunkBits][size_t(i) & kRowChunkMask]; }

    // Rows (and texts) live in fixed-size chunks: growing never copies what is stored (no stall
    // when a million-row vector would reallocate) and no capacity is wasted beyond the last chunk.
    static constexpr size_t kRowChunkBits = 16;
    static constexpr size_t kRowChunkMask = (size_t(1) << kRowChunkBits) - 1;

    std::vector<std::vector<Row>> m_rows;
    qsizetype m_size = 0;
    mutable TextArena m_texts; // mutable: reading a spilled text fills its cache; sorts pin it
    std::vector<Extra> m_extras;
    std::vector<QString> m_strings{QString()}; // id 0 is the empty string
    QHash<QString, quint32> m_stringIds;
    QHash<qsizetype, quint64> m_wideIds;  // row -> id when it does not fit in 32 bits
    QHash<qsizetype, qint64> m_wideLines; // row -> line number when it does not fit in 32 bits
};

} // namespace ui
