#include "models/slicedurlsorter.h"

#include "models/resultstore.h"

#include <QByteArray>
#include <QElapsedTimer>

#include <algorithm>
#include <bit>
#include <cstring>
#include <sys/mman.h>
#include <unistd.h>

namespace ui {

namespace {

// Work between two looks at the clock: each is well under a millisecond (a sweep stride reads texts
// from at most a few arena chunks; a heap stride sifts a few thousand keys).
constexpr size_t kStride = 4'096;

template <typename T, typename Less> void siftDown(T *heap, size_t at, size_t end, Less less) {
    const T value = heap[at];
    for (size_t child = 2 * at + 1; child < end; child = 2 * at + 1) {
        if (child + 1 < end && less(heap[child], heap[child + 1]))
            ++child;
        if (!less(value, heap[child]))
            break;
        heap[at] = heap[child];
        at = child;
    }
    heap[at] = value;
}

// A heap sort of heap[0, n) in strides of `stride` sifts: `sift` counts the heap's build down to 0 (start
// at n / 2), `end` the sorted tail down to 1 (start at n). In place: no buffer, whatever n is. True: sorted.
template <typename T, typename Less>
bool heapSortSome(T *heap, size_t &sift, size_t &end, size_t stride, Less less) {
    for (; stride > 0 && sift > 0; --stride)
        siftDown(heap, --sift, end, less);
    for (; stride > 0 && end > 1; --stride) {
        std::swap(heap[0], heap[end - 1]);
        siftDown(heap, 0, --end, less);
    }
    return sift == 0 && end <= 1;
}

// Hands the whole pages of [from, to) back to the system: memory about to be freed, already read, while
// its replacement is being written (the row vectors at the start and the end of a sort), so the two are
// not resident in full at once. They read back as zeros, but nothing reads them again.
void dropPages(const void *from, const void *to) {
    static const quintptr page = quintptr(sysconf(_SC_PAGESIZE));
    const quintptr first = (quintptr(from) + page - 1) & ~(page - 1);
    const quintptr last = quintptr(to) & ~(page - 1);
    if (last > first)
        madvise(reinterpret_cast<void *>(first), last - first, MADV_DONTNEED);
}

} // namespace

SlicedUrlSorter::SlicedUrlSorter(const ResultStore &store, Qt::SortOrder order, std::vector<int> rows,
                                 int chunkRows, size_t copyRows)
    : m_store(store)
    , m_descending(order == Qt::DescendingOrder)
    , m_ownRows(std::move(rows))
    , m_given(&m_ownRows)
    , m_count(m_ownRows.size())
    , m_chunkRows(size_t(std::max(2, chunkRows))) {
    start(copyRows);
}

SlicedUrlSorter::SlicedUrlSorter(const ResultStore &store, Qt::SortOrder order, const std::vector<int> *rows,
                                 int chunkRows, size_t copyRows)
    : m_store(store)
    , m_descending(order == Qt::DescendingOrder)
    , m_given(rows)
    , m_count(rows->size())
    , m_chunkRows(size_t(std::max(2, chunkRows))) {
    start(copyRows);
}

void SlicedUrlSorter::start(size_t copyRows) {
    m_storeRows = size_t(m_store.size());
    if (m_count <= 1) {
        m_phase = Phase::Done;
        return;
    }
    if (m_count <= copyRows) {
        m_copyOrder.resize(m_count);
        for (size_t i = 0; i < m_count; ++i)
            m_copyOrder[i] = quint32(i);
        std::sort(m_copyOrder.begin(), m_copyOrder.end(),
                  [this](quint32 x, quint32 y) { return given()[x] < given()[y]; });
        m_copiedFrom.resize(m_count);
        m_copiedSize.resize(m_count);
        m_phase = Phase::Copy;
        return;
    }
    m_givenAscending = std::is_sorted(given().cbegin(), given().cbegin() + qsizetype(m_count)); // ~1 ms
    // The row takes the key's low bits, whole bytes of URL the rest: 5 bytes a round up to 16M rows.
    m_rowBits = std::max(1, int(std::bit_width(m_storeRows - 1)));
    m_wordBytes = (64 - m_rowBits) / 8;
    m_rowMask = (quint64(1) << (64 - 8 * m_wordBytes)) - 1;
    m_laterRow.mask = m_rowMask;
}

bool SlicedUrlSorter::step(qint64 budgetNs) {
    QElapsedTimer clock;
    clock.start();
    while (m_phase != Phase::Done) {
        switch (m_phase) {
        case Phase::Index:
            indexSome();
            break;
        case Phase::RowSort:
            rowSortSome();
            break;
        case Phase::Prefix:
            prefixSome();
            break;
        case Phase::Sweep:
            sweepSome();
            break;
        case Phase::Sort:
            sortSome();
            break;
        case Phase::Ties:
            tiesSome();
            break;
        case Phase::GivenOrder:
            givenOrderSome();
            break;
        case Phase::Copy:
            copySome();
            break;
        case Phase::CopySort:
            copySortSome();
            break;
        case Phase::Done:
            break;
        }
        if (clock.nsecsElapsed() >= budgetNs)
            break;
    }
    return m_phase == Phase::Done;
}

int SlicedUrlSorter::progressPercent() const {
    if (m_phase == Phase::Done)
        return 100;
    // The index, the prefix, the first sweep and sort, and about as much again for the refinements.
    const size_t total = std::max<size_t>(1, 6 * m_count);
    return int(std::min<size_t>(99, m_workDone * 100 / total));
}

std::vector<int> SlicedUrlSorter::take() {
    Q_ASSERT(m_phase == Phase::Done);
    std::vector<int> rows(m_count);
    if (!m_copyOrder.empty()) {
        for (size_t i = 0; i < m_count; ++i)
            rows[i] = given()[m_copyOrder[i]];
        std::vector<quint32>().swap(m_copyOrder);
    } else if (!m_keys.empty()) {
        constexpr size_t kSlice = 65'536;
        for (size_t from = 0; from < m_count; from += kSlice) {
            const size_t to = std::min(m_count, from + kSlice);
            for (size_t i = from; i < to; ++i)
                rows[i] = rowOf(m_keys[i]);
            dropPages(m_keys.data() + from, m_keys.data() + to);
        }
        std::vector<quint64>().swap(m_keys);
    } else if (m_count == 1) {
        rows[0] = given()[0];
    }
    return rows;
}

size_t SlicedUrlSorter::heldBytes() const {
    return m_ownRows.capacity() * sizeof(int) + m_keys.capacity() * sizeof(quint64) +
           (m_inEqual.capacity() + m_positions.capacity()) * sizeof(quint64) +

           (m_runs.capacity() + m_nextRuns.capacity() + m_equal.capacity()) * sizeof(Range) +
           m_sweepBuffer.bytes.capacity() +
           (m_copyOrder.capacity() + m_copiedFrom.capacity() + m_copiedSize.capacity()) * sizeof(quint32) +
           size_t(m_copiedBytes.capacity());
}

// The next bytes of the URL from the current offset above the row: keys compare like the bytes, then by
// row (zero past the end: URLs hold no NUL, so a URL that ends sorts before the longer ones it begins).
quint64 SlicedUrlSorter::wordOf(int row) {
    const QByteArrayView url = m_store.urlUtf8(row, &m_sweepBuffer);
    quint64 word = 0;
    for (qsizetype i = m_offset; i < m_offset + m_wordBytes; ++i)
        word = (word << 8) | quint64(quint8(i < url.size() ? url[i] : 0));
    if (m_descending)
        word = ~word & ((quint64(1) << (8 * m_wordBytes)) - 1);
    return (word << (64 - 8 * m_wordBytes)) | quint64(row);
}

bool SlicedUrlSorter::urlMayGoOn(quint64 key) const {
    const quint8 last = quint8(key >> (64 - 8 * m_wordBytes));
    return (m_descending ? quint8(~last) : last) != 0;
}

// The keys: the rows (no URL bytes yet), in store order for the sweeps (a heap sort when given in another).
void SlicedUrlSorter::indexSome() {
    if (m_keys.empty())
        m_keys.reserve(m_count);
    const size_t end = std::min(m_count, m_cursor + 4 * kStride);
    for (size_t i = m_cursor; i < end; ++i) {
        m_keys.push_back(quint64(given()[i]));
    }
    // Rows of our own in store order are not needed once they are keys (equal URLs end up by row).
    if (m_given == &m_ownRows && m_givenAscending)
        dropPages(m_ownRows.data() + m_cursor, m_ownRows.data() + end);
    m_workDone += end - m_cursor;
    m_cursor = end;
    if (m_cursor < m_count)
        return;
    if (m_given == &m_ownRows && m_givenAscending)
        std::vector<int>().swap(m_ownRows); // equal URLs end up by row: the given order already
    m_cursor = 0;
    if (m_givenAscending) {
        m_phase = Phase::Prefix;
        return;
    }
    m_sift = m_count / 2;
    m_heapEnd = m_count;
    m_phase = Phase::RowSort;
}

void SlicedUrlSorter::rowSortSome() {
    if (heapSortSome(m_keys.data(), m_sift, m_heapEnd, kStride, std::less<quint64>()))
        m_phase = Phase::Prefix;
}

// The prefix every URL shares ("https://"): the key bytes start after it.
void SlicedUrlSorter::prefixSome() {
    const size_t end = std::min(m_count, m_cursor + kStride);
    for (size_t k = m_cursor; k < end; ++k) {
        const QByteArrayView url = m_store.urlUtf8(rowOf(m_keys[k]), &m_sweepBuffer);
        ++m_workDone;
        if (m_shared < 0) {
            m_firstUrl = url.toByteArray(); // a view would not outlive the next chunk read
            m_shared = m_firstUrl.size();
            continue;
        }
        qsizetype n = 0;
        while (n < m_shared && n < url.size() && url[n] == m_firstUrl[n])
            ++n;
        m_shared = n;
    }
    m_cursor = end;
    if (m_cursor < m_count && m_shared != 0)
        return;
    m_firstUrl = QByteArray();
    m_offset = std::max<qsizetype>(0, m_shared);
    m_runs = {Range{0, quint32(m_keys.size())}};
    startSweep();
}

void SlicedUrlSorter::startSweep() {
    m_phase = Phase::Sweep;
    // Each run's rows are in store order: a k-way merge of them walks the store in order. The heap lives
    // in m_nextRuns, empty until the ties after this sweep (and as large as any round needed so far).
    m_nextRuns.assign(m_runs.cbegin(), m_runs.cend());
    std::make_heap(m_nextRuns.begin(), m_nextRuns.end(), m_laterRow);
}

// Every row of this round's runs gets the bytes at the current offset, read in store order.
void SlicedUrlSorter::sweepSome() {
    std::vector<Range> &heap = m_nextRuns; // [next row, end) of each run with rows left, by next row
    for (size_t n = 0; n < kStride && !heap.empty(); ++n) {
        std::pop_heap(heap.begin(), heap.end(), m_laterRow);
        Range &run = heap.back();
        m_keys[run.first] = wordOf(rowOf(m_keys[run.first]));
        ++m_workDone;
        if (++run.first < run.second)
            std::push_heap(heap.begin(), heap.end(), m_laterRow);
        else
            heap.pop_back();
    }
    if (!heap.empty())
        return;
    m_phase = Phase::Sort;
    m_run = 0;
    m_range = {0, 0};
}

// The runs by their keys, one at a time: a small one in one go, a large one as a heap sort in strides.
// Keys are distinct (the row is in them), so any sort leaves equal URLs by row.
void SlicedUrlSorter::sortSome() {
    if (m_range.first == m_range.second && !startRangeSort()) {
        m_phase = Phase::Ties;
        m_run = 0;
        m_cursor = m_runs.empty() ? 0 : m_runs.front().first;
        m_nextRuns.clear();
        return;
    }
    quint64 *keys = m_keys.data() + m_range.first;
    const size_t size = m_range.second - m_range.first;
    if (size <= m_chunkRows) {
        std::sort(keys, keys + size);
        m_workDone += size;
        m_range = {0, 0};
        return;
    }
    const size_t before = m_sift + m_heapEnd;
    if (heapSortSome(keys, m_sift, m_heapEnd, kStride, std::less<quint64>()))
        m_range = {0, 0};
    m_workDone += (before - m_sift - m_heapEnd) / 2;
}

bool SlicedUrlSorter::startRangeSort() {
    while (m_run < m_runs.size()) {
        const Range run = m_runs[m_run++];
        if (run.second - run.first > 1) {
            m_range = run;
            m_sift = (run.second - run.first) / 2;
            m_heapEnd = run.second - run.first;
            return true;
        }
    }
    return false;
}

// Within this round's runs, rows whose bytes tie form the next round's runs when their URLs go on past
// the key's bytes (otherwise their URLs are equal: a group kept for the given order at the end).
void SlicedUrlSorter::tiesSome() {
    size_t budget = kStride;
    const auto closeGroup = [this](size_t end) {
        if (end - m_groupStart > 1 && m_groupGoesOn) {
            m_nextRuns.push_back({quint32(m_groupStart), quint32(end)});
        } else {
            if (end - m_groupStart > 1)
                m_equal.push_back({quint32(m_groupStart), quint32(end)});
        }
        m_groupStart = end;
        m_groupGoesOn = false;
    };
    while (budget > 0 && m_run < m_runs.size()) {
        const Range run = m_runs[m_run];
        if (m_cursor == run.first) {
            m_groupStart = run.first;
            m_groupGoesOn = false;
        }
        const size_t end = std::min<size_t>(run.second, m_cursor + budget);
        for (size_t k = m_cursor; k < end; ++k) {
            if (k > m_groupStart && (m_keys[k] & ~m_rowMask) != (m_keys[k - 1] & ~m_rowMask))
                closeGroup(k);
            if (urlMayGoOn(m_keys[k]))
                m_groupGoesOn = true;
        }
        budget -= end - m_cursor;
        m_workDone += end - m_cursor;
        m_cursor = end;
        if (m_cursor < run.second)
            return;
        closeGroup(run.second);
        if (++m_run < m_runs.size())
            m_cursor = m_runs[m_run].first;
    }
    if (m_run < m_runs.size())
        return;
    if (m_nextRuns.empty()) {
        m_sweepBuffer = {};
        std::vector<Range>().swap(m_runs);
        std::vector<Range>().swap(m_nextRuns);
        if (m_givenAscending || m_equal.empty()) {
            std::vector<Range>().swap(m_equal);
            std::vector<int>().swap(m_ownRows);
            m_phase = Phase::Done;
            return;
        }
        m_phase = Phase::GivenOrder;
        m_cursor = 0;
        m_run = 0;
        return;
    }
    m_runs.swap(m_nextRuns);
    m_nextRuns.clear();
    m_offset += m_wordBytes;
    startSweep();
}

// Equal URLs are by row: put each group back into the given order. Their rows' given positions are found
// in one pass over the given rows (a bitmap of the rows concerned), then looked up by row.
void SlicedUrlSorter::givenOrderSome() {
    if (m_inEqual.empty()) {
        m_inEqual.assign(m_storeRows / 64 + 1, 0);
        for (const Range &group : m_equal) {
            for (size_t k = group.first; k < group.second; ++k) {
                const int row = rowOf(m_keys[k]);
                m_inEqual[size_t(row) / 64] |= quint64(1) << (row % 64);
            }
        }
    }
    if (m_cursor < m_count) {
        const size_t end = std::min(m_count, m_cursor + 4 * kStride);
        for (size_t i = m_cursor; i < end; ++i) {
            const int row = given()[i];
            if (m_inEqual[size_t(row) / 64] & (quint64(1) << (row % 64)))
                m_positions.push_back((quint64(row) << 32) | i);
        }
        m_cursor = end;
        if (m_cursor == m_count)
            std::sort(m_positions.begin(), m_positions.end());
        return;
    }
    size_t budget = kStride;
    std::vector<quint64> byPosition;
    while (budget > 0 && m_run < m_equal.size()) {
        const Range group = m_equal[m_run++];
        byPosition.clear();
        for (size_t k = group.first; k < group.second; ++k) {
            const quint64 row = quint64(rowOf(m_keys[k]));
            const auto at = std::lower_bound(m_positions.cbegin(), m_positions.cend(), row << 32);
            byPosition.push_back((*at << 32) | row); // its given position above the row
        }
        std::sort(byPosition.begin(), byPosition.end());
        for (size_t k = group.first; k < group.second; ++k)
            m_keys[k] = byPosition[k - group.first] & 0xffffffffu; // only the row matters now
        budget -= std::min<size_t>(budget, group.second - group.first);
    }
    if (m_run < m_equal.size())
        return;
    std::vector<quint64>().swap(m_inEqual);
    std::vector<quint64>().swap(m_positions);
    std::vector<Range>().swap(m_equal);
    std::vector<int>().swap(m_ownRows);
    m_phase = Phase::Done;
}

// A stride of the rows' URLs copied, in store order (each a small read, or a copy from memory).
void SlicedUrlSorter::copySome() {
    const size_t end = std::min(m_count, m_cursor + kStride / 4);
    QByteArray url;
    for (size_t i = m_cursor; i < end; ++i) {
        const quint32 position = m_copyOrder[i];
        if (!m_store.readUrlUtf8(given()[position], &url))
            url.clear(); // unreadable: sorts first, as an empty URL
        m_copiedFrom[position] = quint32(m_copiedBytes.size());
        m_copiedSize[position] = quint32(url.size());
        m_copiedBytes.append(url);
    }
    m_workDone += 3 * (end - m_cursor);
    m_cursor = end;
    if (m_cursor < m_count)
        return;
    for (size_t i = 0; i < m_count; ++i)
        m_copyOrder[i] = quint32(i);
    m_sift = m_count / 2;
    m_heapEnd = m_count;
    m_phase = Phase::CopySort;
}

bool SlicedUrlSorter::copiedLess(quint32 x, quint32 y) const {
    const QByteArrayView a(m_copiedBytes.constData() + m_copiedFrom[x], m_copiedSize[x]);
    const QByteArrayView b(m_copiedBytes.constData() + m_copiedFrom[y], m_copiedSize[y]);
    const int c = m_descending ? b.compare(a) : a.compare(b);
    return c < 0 || (c == 0 && x < y); // equal URLs in their given order, in both directions
}

void SlicedUrlSorter::copySortSome() {
    const size_t before = m_sift + m_heapEnd;
    const bool done = heapSortSome(m_copyOrder.data(), m_sift, m_heapEnd, kStride / 4,
                                   [this](quint32 x, quint32 y) { return copiedLess(x, y); });
    m_workDone += 3 * (before - m_sift - m_heapEnd) / 2;
    if (!done)
        return;
    std::vector<quint32>().swap(m_copiedFrom);
    std::vector<quint32>().swap(m_copiedSize);
    m_copiedBytes = QByteArray();
    m_phase = Phase::Done;
}

} // namespace ui
