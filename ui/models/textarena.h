#pragma once

#include "models/spillfile.h"

#include <QByteArrayView>
#include <QString>

#include <array>
#include <initializer_list>
#include <memory>
#include <vector>

namespace ui {

// Append-only UTF-8 text storage for a million result rows that keeps only a few hundred KiB of it in
// RAM once a spill directory is set.
//
// Texts are appended into fixed-size chunks. When a chunk is full it is written to an unnamed file in
// the spill directory and its memory is freed; reading a text of a spilled chunk reads that chunk back
// into a small LRU cache (a pread from the page cache: tens of microseconds). The views ask for the rows
// they show, the filter walks rows in arrival order (chunk after chunk), so both touch few chunks.
// Sorting by a text compares random rows: pin() loads every chunk back for as long as such a sort is in
// force. Without a spill directory, or when the file cannot be created or written (disk full), every
// chunk simply stays in memory: nothing is lost, only the memory saving.
//
// Texts are never rewritten: a replaced row appends its new text (retries are rare).
class TextArena {
public:
    TextArena() = default;
    ~TextArena();
    // A snapshot for a reader on another thread (CSV export): it shares the file (a duplicated
    // descriptor; written chunks never change and clear() starts a new file) and copies only the chunks
    // not in the file yet, even while a sort pins them all in memory; it reads each text with one small
    // read of the file. A copy never writes to the file.
    TextArena(const TextArena &other);
    TextArena &operator=(const TextArena &) = delete;
    TextArena(TextArena &&) = delete; // a "move" would copy: a snapshot that never writes
    TextArena &operator=(TextArena &&) = delete;

    // Full chunks go to an unnamed file (O_TMPFILE, or unlinked at once) in `directory`: it vanishes with
    // the process, even after a crash. Returns false and keeps texts in memory when none can be made.
    bool setSpillDirectory(const QString &directory);
    bool isSpilling() const { return m_file && m_spillError.isEmpty(); }
    QString spillError() const { return m_spillError; }
    // How many view() calls came back empty because the file could not be read (truncated, an I/O
    // error): whoever copies texts out (CSV export) must not pass such blanks off as the data. A copy
    // counts its own reads only.
    qint64 unreadableTexts() const { return m_unreadableTexts; }

    // Stores `first` immediately followed by `second` (one reference covers both) and returns the
    // reference of `first`: chunk << 32 | offset in the chunk.
    quint64 append(QByteArrayView first, QByteArrayView second) { return append({first, second}); }
    // The parts one after the other; the reference of the first byte.
    quint64 append(std::initializer_list<QByteArrayView> parts);
    // The bytes at `ref`. The view stays valid while texts are pinned; otherwise until kCacheChunks other
    // spilled chunks have been read (so two views may be compared, never a long-held one).
    QByteArrayView view(quint64 ref, qsizetype length) const;
    // For one reader walking the texts in store order (a sort's sweep over every row): a spilled chunk is
    // read into the reader's own one-chunk buffer, not into the read cache, which a sweep would otherwise
    // fill with chunks it reads once (4 MB). The view stays valid until the buffer reads another chunk.
    struct SweepBuffer {
        size_t chunk = size_t(-1);
        std::vector<char> bytes;
    };
    QByteArrayView view(quint64 ref, qsizetype length, SweepBuffer *buffer) const;
    // The bytes at `ref` copied into `into`: from memory when their chunk is there, else with one small
    // read of the file that leaves the read cache alone. For a few texts of many chunks (a sort of a few
    // thousand rows), where reading whole chunks would read the file many times over. False: unreadable.
    bool read(quint64 ref, qsizetype length, QByteArray *into) const;
    void clear();

    // While pinned (a count: each text sort holds one) every chunk is in memory and views stay valid.
    void pin();
    void unpin();
    bool isPinned() const { return m_pins > 0; }

    qint64 residentBytes() const; // chunk memory plus the read cache
    qint64 spilledBytes() const { return m_file ? m_file->size() : 0; }

    static constexpr size_t kChunkBytes = size_t(256) << 10;
    static constexpr size_t kCacheChunks = 16;

private:
    struct Chunk {
        std::vector<char> bytes; // empty and unused while spilled
        qint64 fileOffset = -1;  // where it was written; -1: only in memory
        size_t size = 0;
        bool resident = true;
    };
    struct CachedChunk {
        size_t chunk = 0;
        quint64 lastUse = 0;
        std::vector<char> bytes;
    };
    void spill(size_t chunk);
    // Reads bytes of the texts file into `into`; a failure is remembered in spillError().
    bool readBack(qint64 fileOffset, size_t size, std::vector<char> *into) const;

    std::vector<Chunk> m_chunks;
    std::unique_ptr<SpillFile> m_file; // kept after a write failure: chunks already written are read from it
    QString m_spillDirectory;
    bool m_isCopy = false;
    mutable QString m_spillError;
    mutable qint64 m_unreadableTexts = 0;
    int m_pins = 0;
    mutable std::vector<CachedChunk> m_cache;
    mutable std::array<std::vector<char>, 2> m_textReads; // a copy's single-text reads (view())
    mutable size_t m_nextTextRead = 0;
    mutable quint64 m_useClock = 0;
};

} // namespace ui
