#pragma once

#include <QtGlobal>

#include <limits>
#include <type_traits>

namespace ui {

// One result as the results store keeps it: 64 bytes, written to and read from the rows file as they are.
// Times are epoch ms; the start is kept as its distance to the finish. The URL and the HTML title (issue
// 13) follow each other in the text arena (textRef packs where and the URL's length); the reject reason is
// interned (a crawl has few distinct ones). The id and the line number take 32 bits each: a value that does
// not fit (not expected in a window) is kept in a side table (kWide).
struct ResultRow {
    static constexpr qint64 kNoTime = std::numeric_limits<qint64>::min();
    static constexpr qint32 kNoDelta = std::numeric_limits<qint32>::min();

    qint64 finishedAtMs = kNoTime;
    quint64 textRef = 0;   // chunk (22 bits) | offset (18) | URL bytes (24); see ResultStore::arenaRef()
    qint64 bytes : 40 = 0; // clamped to +-2^39 (a body cap is far below)
    quint64 status : 16 = 0;
    quint64 redirects : 8 = 0;
    quint32 id32 = 0;   // kWide: in the store's side table
    quint32 line32 = 0; // kWide: in the store's side table
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

static_assert(sizeof(ResultRow) == 64, "keep the row compact: a million of them are stored");
static_assert(std::is_trivially_copyable_v<ResultRow>, "rows are written to and read from a file as bytes");

} // namespace ui
