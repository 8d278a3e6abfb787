#include "models/textarena.h"

#include <QtGlobal>

#include <algorithm>

namespace ui {

TextArena::TextArena(const TextArena &other)
    : m_spillDirectory(other.m_spillDirectory)
    , m_isCopy(true)
    , m_spillError(other.m_spillError) {
    if (other.m_file)
        m_file = other.m_file->duplicate();
    // A chunk already in the file is read from there, not copied: while a text sort pins every chunk
    // (about 100 MB at a million rows) an export would otherwise hold all of it twice.
    m_chunks.reserve(other.m_chunks.size());
    for (const Chunk &chunk : other.m_chunks) {
        if (m_file && chunk.fileOffset >= 0)
            m_chunks.push_back(Chunk{{}, chunk.fileOffset, chunk.size, false});
        else
            m_chunks.push_back(chunk);
    }
    if (!other.m_file || m_file)
        return;
    // No descriptor left: the snapshot holds its texts in memory instead.
    for (size_t i = 0; i < m_chunks.size(); ++i) {
        if (!m_chunks[i].resident &&
            other.readBack(m_chunks[i].fileOffset, m_chunks[i].size, &m_chunks[i].bytes))
            m_chunks[i].resident = true;
    }
}

TextArena::~TextArena() = default;

bool TextArena::setSpillDirectory(const QString &directory) {
    if (m_file) {
        // Chunks in the old file come back into memory first: nothing is lost.
        for (size_t i = 0; i < m_chunks.size(); ++i) {
            Chunk &chunk = m_chunks[i];
            if (!chunk.resident && readBack(chunk.fileOffset, chunk.size, &chunk.bytes))
                chunk.resident = true;
            chunk.fileOffset = -1;
        }
        m_cache.clear();
        m_file.reset();
    }
    m_spillError.clear();
    m_spillDirectory = directory;
    if (directory.isEmpty())
        return false;
    m_file = SpillFile::create(directory, QStringLiteral("texts"), &m_spillError);
    if (!m_file)
        return false;
    for (size_t i = 0; i + 1 < m_chunks.size(); ++i)
        spill(i);
    return true;
}

quint64 TextArena::append(std::initializer_list<QByteArrayView> parts) {
    size_t needed = 0;
    for (const QByteArrayView part : parts)
        needed += size_t(part.size());
    if (m_chunks.empty() || m_chunks.back().bytes.capacity() - m_chunks.back().size < needed) {
        if (!m_chunks.empty())
            spill(m_chunks.size() - 1);
        m_chunks.emplace_back();
        m_chunks.back().bytes.reserve(std::max(kChunkBytes, needed));
    }
    Chunk &chunk = m_chunks.back();
    const quint64 ref = (quint64(m_chunks.size() - 1) << 32) | quint64(chunk.size);
    for (const QByteArrayView part : parts)
        chunk.bytes.insert(chunk.bytes.end(), part.begin(), part.end());
    chunk.size += needed;
    return ref;
}

// A full chunk goes to the file; its memory is freed unless a text sort pins it.
void TextArena::spill(size_t index) {
    if (!isSpilling() || m_isCopy)
        return;
    Chunk &chunk = m_chunks[index];
    if (chunk.fileOffset >= 0)
        return;
    const qint64 offset = m_file->append(chunk.bytes.data(), chunk.size, &m_spillError);
    if (offset < 0) {
        // Disk full or an I/O error: this chunk and every later one stay in memory.
        qWarning("results texts stay in memory: %s", qPrintable(m_spillError));
        return;
    }
    chunk.fileOffset = offset;
    if (m_pins == 0) {
        std::vector<char>().swap(chunk.bytes);
        chunk.resident = false;
    }
}

bool TextArena::readBack(qint64 fileOffset, size_t size, std::vector<char> *into) const {
    into->resize(size);
    QString error = QStringLiteral("the texts file is gone");
    if (m_file && m_file->read(fileOffset, into->data(), size, &error))
        return true;
    if (m_spillError.isEmpty()) {
        m_spillError = error;
        qWarning("%s", qPrintable(m_spillError));
    }
    into->clear();
    return false;
}

QByteArrayView TextArena::view(quint64 ref, qsizetype length) const {
    const size_t index = size_t(ref >> 32);
    const size_t offset = size_t(ref & 0xffffffffu);
    if (length <= 0 || index >= m_chunks.size())
        return {};
    const Chunk &chunk = m_chunks[index];
    if (chunk.resident)
        return QByteArrayView(chunk.bytes.data() + offset, length);
    auto cached = std::find_if(m_cache.begin(), m_cache.end(),
                               [index](const CachedChunk &c) { return c.chunk == index; });
    if (cached == m_cache.end() && m_isCopy) {
        // A snapshot (the CSV export) reads rows in any order, sorted ones at random: one small read of
        // this text, not its whole chunk. Two buffers, so the last two views stay valid.
        if (offset + size_t(length) > chunk.size)
            return {};
        std::vector<char> &bytes = m_textReads[m_nextTextRead];
        m_nextTextRead = (m_nextTextRead + 1) % m_textReads.size();
        if (!readBack(chunk.fileOffset + qint64(offset), size_t(length), &bytes)) {
            ++m_unreadableTexts;
            return {};
        }
        return QByteArrayView(bytes.data(), length);
    }
    if (cached == m_cache.end()) {
        if (m_cache.size() < kCacheChunks) {
            cached = m_cache.insert(m_cache.end(), CachedChunk{});
        } else {
            cached = std::min_element(
                m_cache.begin(), m_cache.end(),
                [](const CachedChunk &x, const CachedChunk &y) { return x.lastUse < y.lastUse; });
        }
        cached->chunk = index;
        if (!readBack(chunk.fileOffset, chunk.size, &cached->bytes)) {
            cached->lastUse = 0;
            cached->chunk = size_t(-1);
            ++m_unreadableTexts;
            return {};
        }
    }
    cached->lastUse = ++m_useClock;
    if (offset + size_t(length) > cached->bytes.size())
        return {};
    return QByteArrayView(cached->bytes.data() + offset, length);
}

QByteArrayView TextArena::view(quint64 ref, qsizetype length, SweepBuffer *buffer) const {
    const size_t index = size_t(ref >> 32);
    const size_t offset = size_t(ref & 0xffffffffu);
    if (length <= 0 || index >= m_chunks.size())
        return {};
    const Chunk &chunk = m_chunks[index];
    if (chunk.resident || m_isCopy)
        return view(ref, length);
    if (buffer->chunk != index) {
        const auto cached = std::find_if(m_cache.begin(), m_cache.end(),
                                         [index](const CachedChunk &c) { return c.chunk == index; });
        if (cached != m_cache.end())
            return view(ref, length);
        buffer->chunk = size_t(-1);
        if (!readBack(chunk.fileOffset, chunk.size, &buffer->bytes)) {
            ++m_unreadableTexts;
            return {};
        }
        buffer->chunk = index;
    }
    if (offset + size_t(length) > buffer->bytes.size())
        return {};
    return QByteArrayView(buffer->bytes.data() + offset, length);
}

bool TextArena::read(quint64 ref, qsizetype length, QByteArray *into) const {
    into->clear();
    const size_t index = size_t(ref >> 32);
    const size_t offset = size_t(ref & 0xffffffffu);
    if (length <= 0)
        return true;
    if (index >= m_chunks.size() || offset + size_t(length) > m_chunks[index].size)
        return false;
    const Chunk &chunk = m_chunks[index];
    if (chunk.resident) {
        into->append(chunk.bytes.data() + offset, length);
        return true;
    }
    const auto cached = std::find_if(m_cache.begin(), m_cache.end(),
                                     [index](const CachedChunk &c) { return c.chunk == index; });
    if (cached != m_cache.end() && offset + size_t(length) <= cached->bytes.size()) {
        into->append(cached->bytes.data() + offset, length);
        return true;
    }
    into->resize(length);
    QString error = QStringLiteral("the texts file is gone");
    if (!m_file || !m_file->read(chunk.fileOffset + qint64(offset), into->data(), size_t(length), &error)) {
        if (m_spillError.isEmpty())
            m_spillError = error;
        ++m_unreadableTexts;
        into->clear();
        return false;
    }
    return true;
}

void TextArena::clear() {
    m_chunks.clear();
    m_chunks.shrink_to_fit();
    m_cache.clear();
    m_cache.shrink_to_fit();
    if (m_file && !m_isCopy) {
        // A new file rather than a truncated one: a snapshot being exported still reads the old one. A
        // failed write earlier may have been a full disk that has room now.
        m_spillError.clear();
        m_file = m_file->another(&m_spillError);
    }
}

void TextArena::pin() {
    if (m_pins++ > 0)
        return;
    // Every spilled chunk comes back: a text sort compares random rows, and chunk reads per comparison
    // would cost more than the sort. The read cache is then redundant.
    for (size_t i = 0; i < m_chunks.size(); ++i) {
        Chunk &chunk = m_chunks[i];
        if (chunk.resident)
            continue;
        std::vector<char> bytes;
        if (readBack(chunk.fileOffset, chunk.size, &bytes)) {
            chunk.bytes = std::move(bytes);
            chunk.resident = true;
        }
    }
    m_cache.clear();
    m_cache.shrink_to_fit();
}

void TextArena::unpin() {
    Q_ASSERT(m_pins > 0);
    if (m_pins <= 0 || --m_pins > 0)
        return;
    // Every full chunk leaves memory again (the last one is still being filled).
    for (size_t i = 0; i + 1 < m_chunks.size(); ++i) {
        Chunk &chunk = m_chunks[i];
        if (!chunk.resident)
            continue;
        if (chunk.fileOffset < 0) {
            spill(i); // frees it once written
        } else {
            std::vector<char>().swap(chunk.bytes);
            chunk.resident = false;
        }
    }
}

qint64 TextArena::residentBytes() const {
    qint64 bytes = 0;
    for (const Chunk &chunk : m_chunks)
        bytes += qint64(chunk.bytes.capacity());
    for (const CachedChunk &cached : m_cache)
        bytes += qint64(cached.bytes.capacity());
    return bytes + qint64(m_chunks.capacity() * sizeof(Chunk));
}

} // namespace ui
