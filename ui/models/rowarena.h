#pragma once

#include "models/resultrow.h"
#include "models/spillfile.h"

#include <QHash>
#include <QString>

#include <memory>
#include <vector>

namespace ui {

// The fixed-size rows of a ResultStore, a million of them in a few MiB of RAM once a spill directory is
// set (issue 11: the views page their rows from disk instead of holding every row in memory).
//
// Rows are appended into chunks of kChunkRows. A full chunk is written to an unnamed file (SpillFile) and
// freed. A row of a spilled chunk is read back with the kBlockRows around it into a small cache of blocks
// (reused second-chance), so the rows a view paints, a filter's walk in arrival order and a sort's sweeps
// in store order each read a block once. Whoever compares random rows many times over (a sort of a million
// rows by a number, placing streamed rows into it) pins them: every chunk back in memory while it holds.
// Reads never depend on a pin, only their speed. Without a spill directory, or when the file cannot be
// made or written (disk full), chunks stay in memory: nothing is lost, only the saving.
//
// A row of a chunk already in the file is replaced in a side table (retries are rare), so the file never
// changes under a snapshot reading it.
class RowArena {
public:
    static constexpr size_t kChunkRows = 4096;  // 256 KiB, written at once
    static constexpr size_t kBlockRows = 512;   // 32 KiB, read back at once
    static constexpr size_t kCacheBlocks = 128; // 4 MiB: 65,536 rows

    RowArena() = default;
    ~RowArena();
    // A snapshot for a reader on another thread (CSV export): it shares the file (a duplicated descriptor)
    // and copies only the rows not in it yet. It reads rows in any order: a row out of sequence with one
    // small read, a run of rows a block at a time. A copy never writes to the file.
    RowArena(const RowArena &other);
    RowArena &operator=(const RowArena &) = delete;
    RowArena(RowArena &&) = delete; // a "move" would copy: a snapshot that never writes
    RowArena &operator=(RowArena &&) = delete;

    // Full chunks go to an unnamed file in `directory`; false (rows stay in memory) when none can be made.
    bool setSpillDirectory(const QString &directory);
    bool isSpilling() const { return m_file && m_spillError.isEmpty(); }
    QString spillError() const { return m_spillError; }
    // Reads that came back as a blank row because the file could not be read (truncated, an I/O error).
    qint64 unreadableRows() const { return m_unreadableRows; }

    qsizetype size() const { return m_size; }
    void reserve(qsizetype rows) { m_chunks.reserve(size_t(rows) / kChunkRows + 1); }
    void append(const ResultRow &row);
    void replace(qsizetype i, const ResultRow &row);
    ResultRow at(qsizetype i) const {
        const Chunk &chunk = m_chunks[size_t(i) / kChunkRows];
        if (chunk.replaced > 0) {
            const auto it = m_replaced.constFind(i);
            if (it != m_replaced.cend())
                return it.value();
        }
        if (chunk.resident)
            return chunk.rows[size_t(i) % kChunkRows];
        return spilledRow(i);
    }
    // Rows first .. first + count - 1 into `into`, spilled ones read straight from the file past the cache
    // (a sweep over every row would only flush it); unreadable ones come back blank, counted.
    void copyRows(qsizetype first, qsizetype count, ResultRow *into) const;
    void clear();

    // While pinned (a count) every row is in memory.
    void pin();
    void unpin();
    bool isPinned() const { return m_pins > 0; }

    qint64 residentBytes() const; // rows in memory, the block cache and the replaced rows
    qint64 spilledBytes() const { return m_file ? m_file->size() : 0; }

private:
    static constexpr size_t kBlocksPerChunk = kChunkRows / kBlockRows;
    struct Chunk {
        std::vector<ResultRow> rows; // empty while spilled
        qint64 fileOffset = -1;      // where it was written; -1: only in memory
        quint32 replaced = 0;        // its rows in m_replaced
        bool resident = true;
    };
    struct CachedBlock {
        size_t block = size_t(-1);
        bool referenced = false;
        std::vector<ResultRow> rows;
    };
    ResultRow spilledRow(qsizetype i) const;
    qint32 loadBlock(size_t block) const; // its cache slot, -1 when it cannot be read
    void spill(size_t chunk);
    bool readBack(qint64 offset, ResultRow *into, size_t rows) const; // failures go to m_spillError
    void dropCache() const;

    std::vector<Chunk> m_chunks;
    qsizetype m_size = 0;
    QHash<qsizetype, ResultRow> m_replaced; // rows replaced after their chunk was written
    std::unique_ptr<SpillFile> m_file;      // kept after a write failure: chunks already written read from it
    QString m_spillDirectory;
    bool m_isCopy = false;
    int m_pins = 0;
    mutable QString m_spillError;
    mutable qint64 m_unreadableRows = 0;
    mutable std::vector<qint32> m_blockSlot; // block -> cache slot, -1: not cached
    mutable std::vector<CachedBlock> m_cache;
    mutable size_t m_hand = 0;         // the second-chance clock over m_cache
    mutable qsizetype m_lastRead = -2; // a copy reads a run of rows by blocks, others one by one
};

} // namespace ui
