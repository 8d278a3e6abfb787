#include "models/rowarena.h"

#include <QtGlobal>

#include <algorithm>

namespace ui {

RowArena::~RowArena() = default;

RowArena::RowArena(const RowArena &other)
    : m_size(other.m_size)
    , m_replaced(other.m_replaced)
    , m_spillDirectory(other.m_spillDirectory)
    , m_isCopy(true)
    , m_spillError(other.m_spillError) {
    if (other.m_file)
        m_file = other.m_file->duplicate();
    // A chunk already in the file is read from there, not copied: while a sort pins every chunk (64 MB at
    // a million rows) an export would otherwise hold all of it twice.
    m_chunks.reserve(other.m_chunks.size());
    for (const Chunk &chunk : other.m_chunks) {
        if (m_file && chunk.fileOffset >= 0)
            m_chunks.push_back(Chunk{{}, chunk.fileOffset, chunk.replaced, false});
        else if (chunk.resident)
            m_chunks.push_back(chunk);
        else {
            // No descriptor left (EMFILE): the snapshot holds this chunk in memory instead.
            Chunk copy{std::vector<ResultRow>(kChunkRows), chunk.fileOffset, chunk.replaced, true};
            if (!other.readBack(chunk.fileOffset, copy.rows.data(), kChunkRows)) {
                m_unreadableRows += qint64(kChunkRows);
                copy.rows.assign(kChunkRows, ResultRow{});
            }
            m_chunks.push_back(std::move(copy));
        }
    }
    m_blockSlot.assign(m_chunks.size() * kBlocksPerChunk, -1);
}

bool RowArena::setSpillDirectory(const QString &directory) {
    if (m_file) {
        // Chunks in the old file come back into memory first: nothing is lost.
        for (Chunk &chunk : m_chunks) {
            if (!chunk.resident) {
                chunk.rows.resize(kChunkRows);
                if (!readBack(chunk.fileOffset, chunk.rows.data(), kChunkRows))
                    chunk.rows.assign(kChunkRows, ResultRow{});
                chunk.resident = true;
            }
            chunk.fileOffset = -1;
        }
        // Their replaced rows go back in place: nothing of the old file is read any more.
        for (auto it = m_replaced.cbegin(); it != m_replaced.cend(); ++it)
            m_chunks[size_t(it.key()) / kChunkRows].rows[size_t(it.key()) % kChunkRows] = it.value();
        for (Chunk &chunk : m_chunks)
            chunk.replaced = 0;
        m_replaced.clear();
        dropCache();
        m_file.reset();
    }
    m_spillError.clear();
    m_spillDirectory = directory;
    if (directory.isEmpty())
        return false;
    m_file = SpillFile::create(directory, QStringLiteral("rows"), &m_spillError);
    if (!m_file)
        return false;
    for (size_t i = 0; i < m_chunks.size(); ++i) {
        if (m_chunks[i].rows.size() == kChunkRows)
            spill(i);
    }
    return true;
}

void RowArena::append(const ResultRow &row) {
    if (size_t(m_size) == m_chunks.size() * kChunkRows) { // every chunk full (spilled ones hold no rows)
        m_chunks.emplace_back();
        m_chunks.back().rows.reserve(kChunkRows);
        m_blockSlot.resize(m_chunks.size() * kBlocksPerChunk, -1);
    }
    m_chunks.back().rows.push_back(row);
    ++m_size;
    if (m_chunks.back().rows.size() == kChunkRows)
        spill(m_chunks.size() - 1);
}

void RowArena::replace(qsizetype i, const ResultRow &row) {
    Chunk &chunk = m_chunks[size_t(i) / kChunkRows];
    if (chunk.fileOffset < 0) {
        chunk.rows[size_t(i) % kChunkRows] = row;
        return;
    }
    if (!m_replaced.contains(i))
        ++chunk.replaced;
    m_replaced.insert(i, row);
}

// A full chunk goes to the file; its memory is freed unless a sort pins it.
void RowArena::spill(size_t index) {
    if (!isSpilling() || m_isCopy)
        return;
    Chunk &chunk = m_chunks[index];
    if (chunk.fileOffset >= 0)
        return;
    const qint64 offset = m_file->append(reinterpret_cast<const char *>(chunk.rows.data()),
                                         chunk.rows.size() * sizeof(ResultRow), &m_spillError);
    if (offset < 0) {
        // Disk full or an I/O error: this chunk and every later one stay in memory.
        qWarning("result rows stay in memory: %s", qPrintable(m_spillError));
        return;
    }
    chunk.fileOffset = offset;
    if (m_pins == 0) {
        std::vector<ResultRow>().swap(chunk.rows);
        chunk.resident = false;
    }
}

bool RowArena::readBack(qint64 offset, ResultRow *into, size_t rows) const {
    QString error;
    if (m_file && m_file->read(offset, reinterpret_cast<char *>(into), rows * sizeof(ResultRow), &error))
        return true;
    if (m_spillError.isEmpty()) {
        m_spillError = m_file ? error : QStringLiteral("the rows file is gone");
        qWarning("%s", qPrintable(m_spillError));
    }
    return false;
}

ResultRow RowArena::spilledRow(qsizetype i) const {
    const size_t block = size_t(i) / kBlockRows;
    qint32 slot = m_blockSlot[block];
    if (slot < 0 && m_isCopy && (m_lastRead < 0 || size_t(m_lastRead) / kBlockRows != block)) {
        // A snapshot (the CSV export) visits sorted rows at random: one small read of this row, not its
        // block; a second row of the block read last (a run in store order, failures among them) reads
        // the block.
        m_lastRead = i;
        ResultRow row;
        const Chunk &chunk = m_chunks[size_t(i) / kChunkRows];
        if (!readBack(chunk.fileOffset + qint64(size_t(i) % kChunkRows * sizeof(ResultRow)), &row, 1)) {
            ++m_unreadableRows;
            return ResultRow{};
        }
        return row;
    }
    m_lastRead = i;
    if (slot < 0)
        slot = loadBlock(block);
    if (slot < 0) {
        ++m_unreadableRows;
        return ResultRow{};
    }
    CachedBlock &cached = m_cache[size_t(slot)];
    cached.referenced = true;
    return cached.rows[size_t(i) % kBlockRows];
}

void RowArena::copyRows(qsizetype first, qsizetype count, ResultRow *into) const {
    while (count > 0) {
        const size_t chunkIndex = size_t(first) / kChunkRows;
        const size_t offset = size_t(first) % kChunkRows;
        const qsizetype n = std::min(count, qsizetype(kChunkRows - offset));
        const Chunk &chunk = m_chunks[chunkIndex];
        if (chunk.resident) {
            std::copy_n(chunk.rows.begin() + qsizetype(offset), n, into);
        } else if (!readBack(chunk.fileOffset + qint64(offset * sizeof(ResultRow)), into, size_t(n))) {
            std::fill_n(into, n, ResultRow{});
            m_unreadableRows += n;
        }
        if (chunk.replaced > 0) {
            for (qsizetype k = 0; k < n; ++k) {
                const auto it = m_replaced.constFind(first + k);
                if (it != m_replaced.cend())
                    into[k] = it.value();
            }
        }
        first += n;
        count -= n;
        into += n;
    }
}

qint32 RowArena::loadBlock(size_t block) const {
    size_t slot;
    if (m_cache.size() < kCacheBlocks) {
        slot = m_cache.size();
        m_cache.emplace_back();
        m_cache.back().rows.resize(kBlockRows);
    } else {
        // Second chance: a block read since the hand last passed stays for another round.
        while (m_cache[m_hand].referenced) {
            m_cache[m_hand].referenced = false;
            m_hand = (m_hand + 1) % m_cache.size();
        }
        slot = m_hand;
        m_hand = (m_hand + 1) % m_cache.size();
        if (m_cache[slot].block != size_t(-1))
            m_blockSlot[m_cache[slot].block] = -1;
    }
    CachedBlock &cached = m_cache[slot];
    cached.block = size_t(-1);
    cached.referenced = false;
    const Chunk &chunk = m_chunks[block / kBlocksPerChunk];
    const qint64 offset =
        chunk.fileOffset + qint64((block % kBlocksPerChunk) * kBlockRows * sizeof(ResultRow));
    if (!readBack(offset, cached.rows.data(), kBlockRows))
        return -1;
    cached.block = block;
    m_blockSlot[block] = qint32(slot);
    return qint32(slot);
}

void RowArena::dropCache() const {
    m_cache.clear();
    m_cache.shrink_to_fit();
    m_blockSlot.assign(m_chunks.size() * kBlocksPerChunk, -1);
    m_hand = 0;
}

void RowArena::clear() {
    m_chunks.clear();
    m_chunks.shrink_to_fit();
    m_size = 0;
    m_replaced.clear();
    m_replaced.squeeze();
    dropCache();
    m_unreadableRows = 0;
    if (m_file && !m_isCopy) {
        // A new file rather than a truncated one: a snapshot being exported still reads the old one. A
        // failed write earlier may have been a full disk that has room now.
        m_spillError.clear();
        m_file = m_file->another(&m_spillError);
    }
}

void RowArena::pin() {
    if (m_pins++ > 0)
        return;
    // Every spilled chunk comes back: a sort by a number compares random rows, and a block read per
    // comparison would cost more than the sort. The block cache is then redundant.
    for (Chunk &chunk : m_chunks) {
        if (chunk.resident)
            continue;
        std::vector<ResultRow> rows(kChunkRows);
        if (readBack(chunk.fileOffset, rows.data(), kChunkRows)) {
            chunk.rows = std::move(rows);
            chunk.resident = true;
        }
    }
    dropCache();
}

void RowArena::unpin() {
    Q_ASSERT(m_pins > 0);
    if (m_pins <= 0 || --m_pins > 0)
        return;
    // Every full chunk leaves memory again (the last one is still being filled).
    for (size_t i = 0; i < m_chunks.size(); ++i) {
        Chunk &chunk = m_chunks[i];
        if (!chunk.resident || chunk.rows.size() < kChunkRows)
            continue;
        if (chunk.fileOffset < 0) {
            spill(i); // frees it once written
        } else {
            std::vector<ResultRow>().swap(chunk.rows);
            chunk.resident = false;
        }
    }
}

qint64 RowArena::residentBytes() const {
    qint64 bytes = qint64(m_chunks.capacity() * sizeof(Chunk) + m_blockSlot.capacity() * sizeof(qint32));
    for (const Chunk &chunk : m_chunks)
        bytes += qint64(chunk.rows.capacity() * sizeof(ResultRow));
    for (const CachedBlock &cached : m_cache)
        bytes += qint64(cached.rows.capacity() * sizeof(ResultRow));
    return bytes + qint64(m_replaced.size()) * qint64(sizeof(ResultRow) + 32);
}

} // namespace ui
